/**
 * The one request decoder of contractgen: an HTTP request read back into the operation's input, by
 * the same bindings and serialization rules the encoder (wire-request.ts) writes. The reference host
 * (host-runtime/http-binding.ts) decodes every request with it, and the contract tests judge with it
 * what a value becomes on the wire (a negative case must stay invalid once serialized), so both
 * sides read a request as the SDK writes it.
 */
import { effectiveStyle, type ParamStyle, type WireBinding } from "./wire-request.js";

/** A JSON Schema (2020-12) as the contract wrote it. */
export type JsonSchema = { readonly [keyword: string]: unknown } | boolean;

/** What decoding reads of an operation: its bindings, its whole-body field and its input schema. */
export interface DecodeOperation {
  readonly http: {
    readonly bindings: readonly WireBinding[];
    /** The input field that is the whole request body, or null: body fields are its properties. */
    readonly body: string | null;
  };
  readonly input: { readonly schema: JsonSchema };
}

/** A problem found while decoding, by input field (null: the request as a whole). */
export interface FieldProblem {
  readonly field: string | null;
  readonly message: string;
}

export interface ReceivedRequest {
  readonly rawPathValues: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /**
   * The query string as sent (still percent-encoded), without the "?". Styles that join values with a
   * delimiter (form without explode, spaceDelimited, pipeDelimited) are split on it before decoding,
   * so an encoded delimiter inside a value stays in the value. Absent: rebuilt from `query`.
   */
  readonly rawQuery?: string;
  /** Header value by (case-insensitive) name. */
  readonly header: (name: string) => string | undefined;
  /** The request body as text ("" when there is none, or when it came as `parts`). */
  readonly body: string;
  /** A multipart/form-data body, parsed (null: it was not well-formed multipart). */
  readonly parts?: readonly FormPart[] | null;
}

/** One part of a multipart/form-data body: text, or a file's bytes with its media type. */
export type FormPart = { readonly name: string; readonly text: string } | { readonly name: string; readonly bytes: Buffer; readonly type: string };

export interface DecodedInput {
  readonly input: Record<string, unknown>;
  /** Problems found while decoding (bad JSON, a field sent in the wrong place); validation comes later. */
  readonly problems: readonly FieldProblem[];
}

/** A name and a value as sent, both still percent-encoded. */
type RawPair = readonly [key: string, value: string];

/** `a=1&b=2` as raw pairs (a key without "=" has the empty value). */
function rawPairs(text: string): RawPair[] {
  return text
    .split("&")
    .filter((part) => part !== "")
    .map((part) => {
      const at = part.indexOf("=");
      return at < 0 ? [part, ""] : [part.slice(0, at), part.slice(at + 1)];
    });
}

/** Percent-decoding as forms do it ("+" is a space); null when the text is not valid UTF-8 percent-encoding. */
function unescapeText(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, "%20"));
  } catch {
    return null;
  }
}

/** The delimiter a style joins an array (or an object's keys and values) with, as it appears encoded. */
function delimiter(style: ParamStyle): RegExp {
  // A delimiter inside a value is percent-encoded by the sender, so only the literal one splits (a space
  // is %20 either way: spaceDelimited cannot carry one inside a value).
  return style === "spaceDelimited" ? /%20|\+| /g : style === "pipeDelimited" ? /\|/g : /,/g;
}

/**
 * Rebuild the operation's input object from a request (JSON, form-urlencoded or multipart body), by the serialization the contract's bindings
 * declare (OpenAPI styles, as the SDK's encoder writes them: runtime/wire-request.ts). Values are typed
 * from the input schema (query, path and header text → integer, number, boolean, array, object) but
 * not validated: a value that cannot be converted stays text and fails validation with its field named.
 */
export function decodeInput(op: DecodeOperation, request: ReceivedRequest): DecodedInput {
  const input: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  const root = op.input.schema;
  const boundTo = new Map(op.http.bindings.map((b) => [b.field, b]));
  const query = rawPairs(request.rawQuery ?? request.query.toString());
  // Query keys a binding read (its name, `name[…]` of a deepObject, an exploded object's keys).
  const consumed = new Set<string>();
  const bodyType = (request.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const formBody = bodyType === "application/x-www-form-urlencoded" ? rawPairs(request.body) : null;
  const cookies = cookiePairs(request.header("cookie"));
  const reservedKeys = new Set(op.http.bindings.filter((b) => b.in === "query").map((b) => b.name));

  const fail = (binding: WireBinding, what: string) => problems.push({ field: binding.field, message: `${binding.field} ${what}` });
  for (const binding of op.http.bindings) {
    const schema = propertySchema(root, binding.field);
    const set = (value: unknown) => setField(input, binding.field, value);
    switch (binding.in) {
      case "path": {
        const raw = request.rawPathValues[binding.name];
        if (raw === undefined) break;
        const value = pathField(binding, raw, root, schema);
        if (value === INVALID) fail(binding, "is not a valid percent-encoded path segment");
        else set(value);
        break;
      }
      case "query": {
        const value = pairsField(binding, query, root, schema, consumed, reservedKeys);
        if (value === INVALID) fail(binding, "is not valid percent-encoded text");
        else if (value === REPEATED) fail(binding, "was sent more than once; it takes one value");
        else if (value !== undefined) set(value);
        break;
      }
      case "header": {
        const text = request.header(binding.name);
        if (text !== undefined) set(delimitedField(binding, text, (t) => t, root, schema));
        break;
      }
      case "cookie": {
        const value = pairsField(binding, cookies, root, schema, new Set(), new Set());
        if (value === INVALID) fail(binding, "is not valid percent-encoded text");
        else if (value !== undefined && value !== REPEATED) set(value);
        break;
      }
      case "body":
        break; // read below, with the rest of the body
    }
  }

  // Query keys that are no input field are kept, so validation names them as unexpected fields.
  for (const [rawKey, rawValue] of query) {
    const key = unescapeText(rawKey) ?? rawKey;
    if (consumed.has(key)) continue;
    const binding = boundTo.get(key);
    if (binding === undefined) {
      if (!Object.hasOwn(input, key)) setField(input, key, unescapeText(rawValue) ?? rawValue);
    } else if (binding.in !== "query") problems.push(misplaced(binding.field, "the query", binding.in, binding.name));
  }

  if (formBody !== null) {
    decodeFormBody(op, formBody, input, problems);
    return { input, problems };
  }
  if (request.parts !== undefined) {
    if (request.parts === null) return { input, problems: [...problems, { field: null, message: "The request body is not well-formed multipart/form-data." }] };
    decodeParts(op, request.parts, input);
    return { input, problems };
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

const INVALID = Symbol("invalid");
const REPEATED = Symbol("repeated");

/** An application/x-www-form-urlencoded body: each body field by its style, a whole-body field from every pair. */
function decodeFormBody(op: DecodeOperation, pairs: readonly RawPair[], input: Record<string, unknown>, problems: FieldProblem[]): void {
  const root = op.input.schema;
  const bodyField = op.http.body;
  if (bodyField !== null) {
    const schema = asObject(resolveRef(root, propertySchema(root, bodyField)));
    const object: Record<string, unknown> = {};
    for (const [k, v] of pairs) {
      const key = unescapeText(k) ?? k;
      setField(object, key, coerceText(unescapeText(v) ?? v, root, asObject(schema?.properties)?.[key]));
    }
    setField(input, bodyField, object);
    return;
  }
  const bodyBindings = op.http.bindings.filter((b) => b.in === "body");
  const consumed = new Set<string>();
  const names = new Set(bodyBindings.map((b) => b.name));
  for (const binding of bodyBindings) {
    const value = pairsField(binding, pairs, root, propertySchema(root, binding.field), consumed, names);
    if (value === INVALID) problems.push({ field: binding.field, message: `${binding.field} is not valid percent-encoded text` });
    else if (value === REPEATED) problems.push({ field: binding.field, message: `${binding.field} was sent more than once; it takes one value` });
    else if (value !== undefined) setField(input, binding.field, value);
  }
  for (const [k, v] of pairs) {
    const key = unescapeText(k) ?? k;
    if (!consumed.has(key) && !Object.hasOwn(input, key)) setField(input, key, unescapeText(v) ?? v);
  }
}

/**
 * A multipart/form-data body, as the SDK sends one: each field a part (an array of scalars one part
 * per item, an object a JSON part), a file field's bytes back as base64 text; a whole-body field
 * gathers every part.
 */
function decodeParts(op: DecodeOperation, parts: readonly FormPart[], input: Record<string, unknown>): void {
  const root = op.input.schema;
  const target: Record<string, unknown> = op.http.body !== null ? {} : input;
  const schemaOf = (name: string): unknown =>
    op.http.body !== null ? asObject(asObject(resolveRef(root, propertySchema(root, op.http.body)))?.properties)?.[name] : propertySchema(root, name);
  const byName = new Map<string, FormPart[]>();
  for (const part of parts) byName.set(part.name, [...(byName.get(part.name) ?? []), part]);
  for (const [name, named] of byName) {
    const schema = schemaOf(name);
    const valueOf = (part: FormPart, itemSchema: unknown): unknown => {
      if ("bytes" in part) {
        // A file part: JSON when it says so, else the bytes as base64 text (how the SDK takes a file field).
        if (/^application\/json\b/i.test(part.type)) return parseJson(part.bytes.toString("utf8"));
        return part.bytes.toString("base64");
      }
      return coerceText(part.text, root, itemSchema);
    };
    if (typesOf(root, schema).has("array")) setField(target, name, named.map((p) => valueOf(p, itemsSchema(root, schema))));
    else setField(target, name, valueOf(named[0]!, schema));
  }
  if (op.http.body !== null) setField(input, op.http.body, target);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `a=1; b=2` (the Cookie header) as raw pairs. */
function cookiePairs(header: string | undefined): RawPair[] {
  if (header === undefined) return [];
  return header
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const at = part.indexOf("=");
      return at < 0 ? [part, ""] : [part.slice(0, at), part.slice(at + 1)];
    });
}

/**
 * One query-like field (query parameter, cookie, form body field) from raw pairs, by its style:
 * form with explode (repeated keys; an object's own keys), form without explode, spaceDelimited and
 * pipeDelimited (one value, delimited), deepObject (`name[key]`). An object without a declared style is
 * JSON text (contractgen's own protocol). `consumed` collects the keys read; `others` are keys that
 * belong to other fields (never read as an exploded object's keys).
 */
function pairsField(binding: WireBinding, pairs: readonly RawPair[], root: JsonSchema, schema: unknown, consumed: Set<string>, others: ReadonlySet<string>): unknown {
  const { style, explode } = effectiveStyle(binding);
  const declared = binding.style !== undefined || binding.explode !== undefined;
  const types = typesOf(root, schema);
  const decoded = pairs.map(([k, v]) => [unescapeText(k) ?? k, v] as const);
  if (style === "deepObject") {
    const prefix = `${binding.name}[`;
    const mine = decoded.filter(([k]) => k.startsWith(prefix));
    if (mine.length === 0) return undefined;
    const object: Record<string, unknown> = {};
    const properties = asObject(asObject(resolveRef(root, schema))?.properties);
    for (const [key, raw] of mine) {
      consumed.add(key);
      const path = [...key.slice(binding.name.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!);
      const text = unescapeText(raw);
      if (text === null) return INVALID;
      if (path.length === 1) setField(object, path[0]!, coerceText(text, root, properties?.[path[0]!]));
      else setDeep(object, path, text);
    }
    return object;
  }
  const values = decoded.filter(([k]) => k === binding.name).map(([, v]) => v);
  if (types.has("array")) {
    if (values.length === 0) return undefined;
    consumed.add(binding.name);
    const items = itemsSchema(root, schema);
    const raws = explode ? values : values.flatMap((v) => (v === "" ? [] : v.split(delimiter(style))));
    const texts = raws.map(unescapeText);
    return texts.some((t) => t === null) ? INVALID : texts.map((t) => coerceText(t!, root, items));
  }
  if (types.has("object") && declared) {
    const properties = asObject(asObject(resolveRef(root, schema))?.properties) ?? {};
    if (explode) {
      // The object's own keys travel as keys of their own: read the ones its schema names.
      const own = decoded.filter(([k]) => Object.hasOwn(properties, k) && !others.has(k));
      if (own.length === 0) return undefined;
      const object: Record<string, unknown> = {};
      for (const [k, v] of own) {
        consumed.add(k);
        const text = unescapeText(v);
        if (text === null) return INVALID;
        setField(object, k, coerceText(text, root, properties[k]));
      }
      return object;
    }
    if (values.length === 0) return undefined;
    consumed.add(binding.name);
    if (values.length > 1) return REPEATED;
    const parts = values[0]! === "" ? [] : values[0]!.split(delimiter(style)).map(unescapeText);
    if (parts.some((p) => p === null)) return INVALID;
    return keyValues(parts as string[], root, properties);
  }
  if (values.length === 0) return undefined;
  consumed.add(binding.name);
  if (values.length > 1) return REPEATED;
  const text = unescapeText(values[0]!);
  return text === null ? INVALID : coerceText(text, root, schema);
}

/** `[k1, v1, k2, v2, …]` as an object typed by its properties. */
function keyValues(parts: readonly string[], root: JsonSchema, properties: SchemaObject): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = 0; i + 1 < parts.length; i += 2) setField(object, parts[i]!, coerceText(parts[i + 1]!, root, properties[parts[i]!]));
  return object;
}

/** A deepObject value below the first level: nested objects of text (arrays by index stay keyed objects). */
function setDeep(object: Record<string, unknown>, path: readonly string[], text: string): void {
  let node = object;
  for (const segment of path.slice(0, -1)) {
    const next = Object.hasOwn(node, segment) ? node[segment] : undefined;
    if (next === null || typeof next !== "object") setField(node, segment, {});
    node = node[segment] as Record<string, unknown>;
  }
  setField(node, path.at(-1)!, text);
}

/** A path parameter by its style (simple, label, matrix), from the raw segment. */
function pathField(binding: WireBinding, raw: string, root: JsonSchema, schema: unknown): unknown {
  const { style, explode } = effectiveStyle(binding);
  const name = binding.name;
  let text = raw;
  if (style === "label") text = text.startsWith(".") ? text.slice(1) : text;
  if (style === "matrix") {
    // `;name=v` (scalars, unexploded arrays and objects), `;name=a;name=b` (exploded arrays), `;k=v;k2=v2` (exploded objects).
    const parts = text.split(";").filter((p) => p !== "");
    const types = typesOf(root, schema);
    if (explode && types.has("array")) {
      const items = parts.map((p) => p.slice(p.indexOf("=") + 1)).map(unescapeText);
      return items.some((i) => i === null) ? INVALID : items.map((i) => coerceText(i!, root, itemsSchema(root, schema)));
    }
    if (explode && types.has("object")) {
      const properties = asObject(asObject(resolveRef(root, schema))?.properties) ?? {};
      const object: Record<string, unknown> = {};
      for (const p of parts) {
        const at = p.indexOf("=");
        const key = unescapeText(at < 0 ? p : p.slice(0, at));
        const value = unescapeText(at < 0 ? "" : p.slice(at + 1));
        if (key === null || value === null) return INVALID;
        setField(object, key, coerceText(value, root, properties[key]));
      }
      return object;
    }
    const first = parts[0] ?? "";
    text = first === name || first.startsWith(`${name}=`) || first.startsWith(`${encodeURIComponent(name)}=`) ? first.slice(first.indexOf("=") + 1 || first.length) : first;
  }
  const value = delimitedField(binding, text, unescapeText, root, schema, style === "label" && explode ? /\./g : /,/g);
  return value;
}

/**
 * A simple-style value (path segment, header): arrays split on commas (a label path with explode: on
 * dots); objects with a declared style as `k,v,…` or, exploded, `k=v,…`; scalars as they are.
 * `decode` turns each piece into text (percent-decoding for paths, none for headers).
 */
function delimitedField(binding: WireBinding, text: string, decode: (t: string) => string | null, root: JsonSchema, schema: unknown, split: RegExp = /,/g): unknown {
  const { explode } = effectiveStyle(binding);
  const declared = binding.style !== undefined || binding.explode !== undefined;
  const types = typesOf(root, schema);
  if (types.has("array")) {
    const pieces = (text === "" ? [] : text.split(split)).map(decode);
    return pieces.some((p) => p === null) ? INVALID : pieces.map((p) => coerceText(p!, root, itemsSchema(root, schema)));
  }
  if (types.has("object") && declared) {
    const properties = asObject(asObject(resolveRef(root, schema))?.properties) ?? {};
    const pieces = (text === "" ? [] : text.split(split)).map(decode);
    if (pieces.some((p) => p === null)) return INVALID;
    if (!explode) return keyValues(pieces as string[], root, properties);
    const object: Record<string, unknown> = {};
    for (const piece of pieces as string[]) {
      const at = piece.indexOf("=");
      const key = at < 0 ? piece : piece.slice(0, at);
      setField(object, key, coerceText(at < 0 ? "" : piece.slice(at + 1), root, properties[key]));
    }
    return object;
  }
  const whole = decode(text);
  return whole === null ? INVALID : coerceText(whole, root, schema);
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
