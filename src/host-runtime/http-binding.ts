/**
 * The request side of the HTTP binding (docs/wire-protocol.md, "Requests"): which operation a
 * method + path names, and how each input field is read back from its path segment, query key,
 * header or body property, typed as the input schema says.
 */
import type { HostHttpOperation, JsonSchema } from "./contract.js";
import type { FieldProblem } from "./validation.js";

export interface Route<Op extends HostHttpOperation = HostHttpOperation> {
  readonly operation: Op;
  readonly method: string;
  readonly pattern: RegExp;
  /** Names of the `{…}` segments, in path order. */
  readonly params: readonly string[];
}

export type RouteMatch<Op extends HostHttpOperation = HostHttpOperation> =
  | { readonly kind: "matched"; readonly route: Route<Op>; readonly rawPathValues: Readonly<Record<string, string>> }
  | { readonly kind: "method_not_allowed"; readonly allowed: readonly string[] }
  | { readonly kind: "not_found" };

export function compileRoutes<Op extends HostHttpOperation>(operations: readonly Op[]): Array<Route<Op>> {
  const routes = operations.map((operation) => {
    const params: string[] = [];
    const source = operation.http.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const param = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (param === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
        params.push(param);
        return "([^/]+)";
      })
      .join("");
    return { operation, method: operation.http.method, pattern: new RegExp(`^${source}$`), params };
  });
  // A literal path wins over a template that would also match it.
  return routes.sort((a, b) => a.params.length - b.params.length);
}

/** `rawPath` is the path as sent (still percent-encoded), so an encoded "/" stays inside its segment. */
export function matchRoute<Op extends HostHttpOperation>(routes: ReadonlyArray<Route<Op>>, method: string, rawPath: string): RouteMatch<Op> {
  const allowed: string[] = [];
  for (const route of routes) {
    const match = route.pattern.exec(rawPath);
    if (!match) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    // Keyed by contract names: no prototype, so a parameter called "constructor" is just a key.
    const rawPathValues = Object.create(null) as Record<string, string>;
    route.params.forEach((name, i) => (rawPathValues[name] = match[i + 1] ?? ""));
    return { kind: "matched", route, rawPathValues };
  }
  return allowed.length > 0 ? { kind: "method_not_allowed", allowed: [...new Set(allowed)].sort() } : { kind: "not_found" };
}

export interface EncodedRequest {
  readonly rawPathValues: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Header value by (case-insensitive) name. */
  readonly header: (name: string) => string | undefined;
  /** The request body as text ("" when there is none). */
  readonly body: string;
}

export interface DecodedInput {
  readonly input: Record<string, unknown>;
  /** Problems found while decoding (bad JSON, a field sent in the wrong place); validation comes later. */
  readonly problems: readonly FieldProblem[];
}

/**
 * Rebuild the operation's input object from a request. Values are typed from the input schema
 * (query and header text → integer, number, boolean, array, object) but not validated: a value that
 * cannot be converted stays text and fails validation with its field named.
 */
export function decodeInput(op: HostHttpOperation, request: EncodedRequest): DecodedInput {
  const input: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  const root = op.input.schema;
  const boundTo = new Map(op.http.bindings.map((b) => [b.field, b]));

  for (const binding of op.http.bindings) {
    const schema = propertySchema(root, binding.field);
    switch (binding.in) {
      case "path": {
        const raw = request.rawPathValues[binding.name];
        if (raw === undefined) break;
        try {
          setField(input, binding.field, coerceText(decodeURIComponent(raw), root, schema));
        } catch {
          problems.push({ field: binding.field, message: `${binding.field} is not a valid percent-encoded path segment` });
        }
        break;
      }
      case "query": {
        const values = request.query.getAll(binding.name);
        if (values.length === 0) break;
        if (typesOf(root, schema).has("array")) {
          const items = itemsSchema(root, schema);
          setField(input, binding.field, values.map((v) => coerceText(v, root, items)));
        } else if (values.length > 1) {
          problems.push({ field: binding.field, message: `${binding.field} was sent ${values.length} times; it takes one value` });
        } else {
          setField(input, binding.field, coerceText(values[0] ?? "", root, schema));
        }
        break;
      }
      case "header": {
        const value = request.header(binding.name);
        if (value !== undefined) setField(input, binding.field, coerceText(value, root, schema));
        break;
      }
      case "body":
        break; // read below, with the rest of the body
    }
  }

  // Query keys that are no input field are kept, so validation names them as unexpected fields.
  for (const key of new Set(request.query.keys())) {
    const binding = boundTo.get(key);
    if (binding === undefined) setField(input, key, request.query.get(key));
    else if (binding.in !== "query") problems.push(misplaced(binding.field, "the query", binding.in, binding.name));
  }

  if (request.body.trim() !== "") {
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return { input, problems: [...problems, { field: null, message: "The request body is not valid JSON." }] };
    }
    // A whole-body field (http.body) is the body itself, whatever its JSON type.
    if (op.http.body !== null) {
      setField(input, op.http.body, body);
      return { input, problems };
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return { input, problems: [...problems, { field: null, message: "The request body must be a JSON object." }] };
    }
    for (const [key, value] of Object.entries(body)) {
      const binding = boundTo.get(key);
      if (binding !== undefined && binding.in !== "body") problems.push(misplaced(key, "the body", binding.in, binding.name));
      else setField(input, key, value);
    }
  }
  return { input, problems };
}

/** Set an own field even when the client sent "__proto__" (plain assignment would replace the prototype). */
function setField(input: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(input, key, { value, enumerable: true, writable: true, configurable: true });
}

function misplaced(field: string, sentIn: string, belongsIn: string, wireName: string): FieldProblem {
  const where = belongsIn === "header" ? `the ${wireName} header` : belongsIn === "path" ? "the path" : `the ${belongsIn}`;
  return { field, message: `${field} was sent in ${sentIn}; it belongs in ${where}` };
}

type SchemaObject = { readonly [keyword: string]: unknown };

function asObject(schema: unknown): SchemaObject | undefined {
  return schema !== null && typeof schema === "object" && !Array.isArray(schema) ? (schema as SchemaObject) : undefined;
}

function propertySchema(root: JsonSchema, field: string): unknown {
  return asObject(asObject(asObject(root)?.properties)?.[field]);
}

function itemsSchema(root: JsonSchema, schema: unknown): unknown {
  return asObject(resolveRef(root, schema))?.items;
}

/** Follow a local `#/…` $ref of the bundled (self-contained) input schema. */
function resolveRef(root: JsonSchema, schema: unknown, depth = 0): unknown {
  const ref = asObject(schema)?.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/") || depth > 32) return schema;
  let node: unknown = root;
  for (const segment of ref.slice(2).split("/")) node = asObject(node)?.[segment.replace(/~1/g, "/").replace(/~0/g, "~")];
  return resolveRef(root, node, depth + 1);
}

/** The JSON types a schema admits, as far as decoding needs to know. */
function typesOf(root: JsonSchema, schema: unknown, depth = 0): Set<string> {
  const node = asObject(resolveRef(root, schema));
  const types = new Set<string>();
  if (!node || depth > 32) return types;
  const declared = node.type;
  if (typeof declared === "string") types.add(declared);
  if (Array.isArray(declared)) for (const t of declared) if (typeof t === "string") types.add(t);
  if (types.size === 0 && Array.isArray(node.enum)) {
    for (const v of node.enum) types.add(v === null ? "null" : Number.isInteger(v) ? "integer" : typeof v);
  }
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const branches = node[keyword];
    if (Array.isArray(branches)) for (const branch of branches) for (const t of typesOf(root, branch, depth + 1)) types.add(t);
  }
  return types;
}

function coerceText(text: string, root: JsonSchema, schema: unknown): unknown {
  const types = typesOf(root, schema);
  if (types.has("integer") && /^-?\d+$/.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
  }
  if (types.has("number") && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (types.has("boolean") && (text === "true" || text === "false")) return text === "true";
  if ((types.has("object") || types.has("array")) && /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (types.has("null") && !types.has("string") && text === "null") return null;
  return text;
}
