/**
 * fast-check arbitraries for random **valid** contracts: 1–6 operations with names from a hostile
 * alphabet (reserved words, CLI words, digit-lowercase), random input/output schemas of bounded
 * depth, and effects/idempotency/preview/pagination combinations that the format allows. Text
 * fields carry breakout payloads. Validity is by construction; names are deduplicated by a key
 * stricter than the real word splitting, so collisions do not make contracts invalid.
 *
 * Hostile names (Object.prototype members, comment closers, quotes, backticks, `${}`, non-ASCII)
 * reach every name position the format has, as far as its patterns allow: input, output and
 * preview-output properties, error details properties, shared type names and `$defs` keys, the
 * behaviour fields (path parameter, idempotency key, dry-run, confirm token, cursor, limit, next
 * cursor, items), header-bound and query-listed fields, toolset names, error codes, `mcp.name`,
 * `cli.name` and `x-` extension keys.
 */
import fc from "fast-check";
import { camelCase, CLIENT_MEMBERS, kebabCase } from "../../../src/model/naming.js";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

/** Text that tries to leave any literal or comment it is written into. */
const PAYLOADS = [
  "*/ CANARY_C(); /*",
  "${CANARY_T}",
  "`; CANARY_B(); `",
  '"); CANARY_D("',
  "'); CANARY_S('",
  "a\u2028CANARY_LS()",
  "</script>",
  "[x](javascript:CANARY_L())",
  "\u202eRLO",
  "NUL\u0000",
  "CR\rCANARY_CR()",
  "{{CANARY_HBS}}",
  "\\",
  "",
];
export const hostileText: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...PAYLOADS), fc.string({ maxLength: 12 }));
/** One line, at most 200 characters: operation summaries. */
const summaryText = fc.tuple(fc.constantFrom(...PAYLOADS.filter((p) => !/[\r\n\u2028]/.test(p))), fc.string({ maxLength: 20 })).map(([a, b]) => `Op ${a} ${b}`.replace(/[\r\n]/g, " ").trim());

const OP_WORDS = ["get", "list", "note", "constructor", "to", "string", "then", "prototype", "value", "of", "import", "class", "default", "new", "delete", "help", "completion", "version", "oauth2client", "x1", "id", "proto", "has", "own"];
const FIELD_NAMES = [
  "id", "name", "help", "set_help", "no_cache", "version", "input", "output", "constructor", "__proto__", "toString", "then", "value", "valueOf",
  "hasOwnProperty", "isPrototypeOf", "__defineGetter__", "*/", "${x}", "a b", "é", "`", '"dq"', "'sq'", "back\\slash", "名前", "q", "count", "oauth2client", "is_ok", "Type",
];
const TYPE_NAMES = ["Note", "constructor", "toString", "valueOf", "hasOwnProperty", "import", "hook", "Then", "Prototype", "Oauth2client", "A1"];
/** Names for an operation's behaviour fields (drawn distinct by nameKey). A path parameter takes only those without `/`, `{` or `}`. */
const BEHAVIOUR_NAMES = ["path_id", "idempotency_key", "dry_run", "confirm_token", "cursor", "limit", "next_cursor", "items", "constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "then", "*/", "${k}", "é", '"bq"'];
/** Toolset names (identifiers: `^[A-Za-z][A-Za-z0-9_-]*$`). */
const TOOLSET_NAMES = ["group", "constructor", "toString", "hasOwnProperty", "valueOf"];
/** `mcp.name` (`^[A-Za-z0-9._-]{1,128}$`) and `cli.name` (`^[a-z][a-z0-9-]*$`) overrides. */
const TOOL_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "a.b-c"];
const COMMAND_NAMES = ["constructor", "to-string", "has-own-property", "value-of", "proto"];

/** Object.prototype members: the names most likely to reach a plain-object key somewhere. */
export const PROTOTYPE_NAMES: readonly string[] = Object.getOwnPropertyNames(Object.prototype);
const DIGIT_LOWERCASE_NAMES = ["oauth2client"];
/** What one contractArbitrary() call leaves out or forces; threaded through every builder. */
interface Ctx {
  readonly excluded: ReadonlySet<string>;
  readonly pageItemsRequired: boolean;
}
const allowed = (ctx: Ctx, names: readonly string[]) => names.filter((n) => !ctx.excluded.has(n));

const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
/** Stricter than the real collision rule: case and separators ignored. */
const nameKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

const opName = (ctx: Ctx) =>
  fc.tuple(fc.array(fc.constantFrom(...allowed(ctx, OP_WORDS)), { minLength: 1, maxLength: 3 }), fc.constantFrom("_", "-", "camel"))
  .map(([words, sep]) => (sep === "camel" ? words[0]! + words.slice(1).map(cap).join("") : words.join(sep)))
  // `then`, `constructor`, … cannot be client methods: validate refuses them (operation-name-reserved), so a valid contract never has one.
  .filter((name) => !CLIENT_MEMBERS.has(camelCase(name)));

const leaf: fc.Arbitrary<Obj> = fc.oneof(
  fc.record({ type: fc.constant("string"), description: hostileText }),
  fc.constant({ type: "string", format: "uuid" }),
  fc.constant({ type: "integer", minimum: 0, maximum: 100 }),
  fc.constant({ type: "number" }),
  fc.constant({ type: "boolean" }),
  fc.uniqueArray(hostileText, { minLength: 1, maxLength: 4 }).map((e) => ({ type: "string", enum: e })),
  hostileText.map((c) => ({ const: c })),
  hostileText.map((d) => ({ type: "string", default: d })),
);

function schema(depth: number, ctx: Ctx): fc.Arbitrary<Obj> {
  if (depth <= 0) return leaf;
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: schema(depth - 1, ctx).map((items) => ({ type: "array", items })) },
    { weight: 1, arbitrary: objectSchema(depth - 1, 3, ctx) },
  );
}

/** An object schema with unique (by key) property names and a random required subset. */
function objectSchema(depth: number, maxProps: number, ctx: Ctx, reserved: readonly string[] = []): fc.Arbitrary<Obj> {
  const taken = new Set(reserved.map(nameKey));
  return fc
    .tuple(
      fc.uniqueArray(fc.tuple(fc.constantFrom(...allowed(ctx, FIELD_NAMES)), schema(depth, ctx)), { maxLength: maxProps, selector: ([n]) => nameKey(n) }),
      fc.array(fc.boolean(), { minLength: maxProps, maxLength: maxProps }),
      fc.boolean(),
      hostileText,
    )
    .map(([props, req, closed, description]) => {
      const kept = props.filter(([n]) => !taken.has(nameKey(n)));
      const out: Obj = { type: "object", description, properties: Object.fromEntries(kept) };
      const required = kept.filter((_, i) => req[i]).map(([n]) => n);
      if (required.length) out.required = required;
      if (closed) out.additionalProperties = false;
      return out;
    });
}

interface OpShape {
  name: string;
  /** Behaviour field names: path parameter, key, dry-run, confirm token, cursor, limit, next cursor, items. */
  fields: string[];
  previewOutput: Obj;
  headerBound: boolean;
  mcpName: string | null;
  cliName: string | null;
  kind: "read" | "mutating";
  idempotent: "natural" | "none" | "key";
  destructive: boolean;
  preview: boolean;
  paginate: boolean;
  pathParam: boolean;
  input: Obj;
  output: Obj;
  errors: boolean[];
  summary: string;
  description: string;
  method: string;
  toolset: boolean;
}

const ERROR_CODES = ["INVALID_FIELD", "NOT_FOUND", "CONSTRUCTOR", "CONFLICT_X", "HAS_OWN_PROPERTY", "TO_STRING"];
const ERROR_DEFS: ReadonlyMap<string, Obj> = new Map([
  ["INVALID_FIELD", { class: "invalid_input", action: "fix_field", http: 400 }],
  ["NOT_FOUND", { class: "not_found", action: "verify_identifier", http: 404 }],
  ["CONSTRUCTOR", { class: "conflict", action: "reread_and_replan", http: 409 }],
  ["CONFLICT_X", { class: "conflict", action: "stop_and_surface", http: 409 }],
  ["HAS_OWN_PROPERTY", { class: "permission", action: "stop_and_surface", http: 403 }],
  ["TO_STRING", { class: "transient", action: "retry_same_key", http: 503 }],
]);

/** `schema` without the properties whose names collide (by nameKey) with `taken`, and without them in `required`. */
function without(schema: Obj & { properties: Obj; required?: string[] }, taken: readonly string[]): void {
  const keys = new Set(taken.map(nameKey));
  const kept = Object.entries(schema.properties).filter(([n]) => !keys.has(nameKey(n)));
  schema.properties = Object.fromEntries(kept);
  if (schema.required) {
    const required = schema.required.filter((n) => kept.some(([k]) => k === n));
    if (required.length) schema.required = required;
    else delete schema.required;
  }
}

/** Eight behaviour field names, distinct by nameKey; the first (the path parameter) has no `/`, `{` or `}`. */
const behaviourNames = (ctx: Ctx): fc.Arbitrary<string[]> =>
  fc
    .uniqueArray(fc.constantFrom(...allowed(ctx, BEHAVIOUR_NAMES)), { minLength: 9, maxLength: 9, selector: nameKey })
    .map((names) => {
      const path = names.findIndex((n) => !/[/{}]/.test(n));
      return [names[path]!, ...names.filter((_, i) => i !== path)].slice(0, 8);
    });

const opShape = (depth: number, ctx: Ctx): fc.Arbitrary<OpShape> =>
  fc.record({
    name: opName(ctx),
    fields: behaviourNames(ctx),
    previewOutput: objectSchema(depth, 3, ctx),
    headerBound: fc.boolean(),
    mcpName: fc.option(fc.constantFrom(...allowed(ctx, TOOL_NAMES)), { nil: null }),
    cliName: fc.option(fc.constantFrom(...allowed(ctx, COMMAND_NAMES)), { nil: null }),
    kind: fc.constantFrom("read" as const, "mutating" as const),
    idempotent: fc.constantFrom("natural" as const, "none" as const, "key" as const),
    destructive: fc.boolean(),
    preview: fc.boolean(),
    paginate: fc.boolean(),
    pathParam: fc.boolean(),
    input: objectSchema(depth, 4, ctx),
    output: objectSchema(depth, 4, ctx),
    errors: fc.array(fc.boolean(), { minLength: ERROR_CODES.length, maxLength: ERROR_CODES.length }),
    summary: summaryText,
    description: hostileText,
    method: fc.constantFrom("POST", "PUT", "PATCH", "DELETE"),
    toolset: fc.boolean(),
  });

/** Set an own property (a name such as `__proto__` must stay a key, not swap the prototype). */
function put(target: Obj, name: string, value: Json): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

function buildOperation(s: OpShape, index: number, ctx: Ctx, toolset: string): Obj {
  const input = structuredClone(s.input) as Obj & { properties: Obj; required?: string[] };
  const output = structuredClone(s.output) as Obj & { properties: Obj; required?: string[] };
  const [pathId, key, dryRun, confirmToken, cursor, limit, nextCursor, items] = s.fields as [string, string, string, string, string, string, string, string];
  // The behaviour fields' names are taken, whichever of them this operation uses.
  without(input, [pathId, key, dryRun, confirmToken, cursor, limit]);
  without(output, [nextCursor, items]);
  const required = new Set(input.required ?? []);
  const op: Obj = { summary: s.summary, description: s.description, "x-__proto__": { polluted: true }, "x-constructor": { prototype: { polluted: true } } };
  if (s.toolset) op.toolset = toolset;
  let path = `/r${index}`;
  if (s.pathParam) {
    path += `/{${pathId}}`;
    put(input.properties, pathId, { type: "string" });
    required.add(pathId);
  }
  const http: Obj = {};
  if (s.kind === "read") {
    op.effects = { kind: "read" };
    Object.assign(http, { method: "GET", path });
    if (s.paginate) {
      put(input.properties, cursor, { type: "string" });
      put(input.properties, limit, { type: "integer", minimum: 1, maximum: 50, default: 10 });
      put(output.properties, items, { type: "array", items: { type: "object", properties: { id: { type: "string" } } } });
      put(output.properties, nextCursor, { type: ["string", "null"] });
      if (ctx.pageItemsRequired) output.required = [...new Set([...(output.required ?? []), items])];
      op.pagination = { cursor, nextCursor, items, limit: { field: limit, default: 10, max: 50 } };
    }
  } else {
    op.effects = { kind: "mutating", idempotent: s.idempotent, destructive: s.destructive };
    Object.assign(http, { method: s.method, path });
    if (s.idempotent === "key") {
      put(input.properties, key, { type: "string", format: "uuid" });
      required.add(key);
      op.idempotency = { key, retention: "24h", mismatchError: "CONFLICT_X" };
      // The key travels in a header, under a field name from the hostile alphabet.
      if (s.headerBound) http.headers = Object.fromEntries([[key, "Idempotency-Key"]]);
    }
    if (s.preview) {
      put(input.properties, dryRun, { type: "boolean", default: true });
      put(input.properties, confirmToken, { type: "string" });
      const previewOutput = structuredClone(s.previewOutput) as Obj & { properties: Obj; required?: string[] };
      without(previewOutput, [confirmToken]);
      put(previewOutput.properties, confirmToken, { type: "string" });
      previewOutput.required = [...(previewOutput.required ?? []), confirmToken];
      op.preview = { dryRun, default: true, confirmToken, ttl: "10m", invalidTokenError: "CONSTRUCTOR", output: previewOutput };
      // A preview needs no key (idempotency-key-blocks-preview): the key is required to execute only.
      required.delete(key);
    }
    // A body field moved to the query string keeps its hostile name there.
    const first = Object.keys(input.properties).find((n) => ![pathId, key, dryRun, confirmToken].includes(n));
    if (first !== undefined && !s.headerBound) http.query = [first];
  }
  op.http = http;
  if (s.mcpName !== null) op.mcp = { name: s.mcpName };
  if (s.cliName !== null) op.cli = { name: s.cliName };
  if (required.size) input.required = [...required];
  op.input = input;
  op.output = output;
  const errors = ERROR_CODES.filter((_, i) => s.errors[i]);
  if (op.idempotency && !errors.includes("CONFLICT_X")) errors.push("CONFLICT_X");
  if (op.preview && !errors.includes("CONSTRUCTOR")) errors.push("CONSTRUCTOR");
  if (errors.length) op.errors = errors;
  return op;
}

export interface ContractOptions {
  readonly maxOperations?: number;
  readonly schemaDepth?: number;
  /** Leave Object.prototype member names out of every name alphabet (while a known defect stands). */
  readonly withoutPrototypeNames?: boolean;
  /** Leave names with a digit followed by lower case (oauth2client) out (while a known defect stands). */
  readonly withoutDigitLowercaseNames?: boolean;
  /** Always list a paginated output's items field in `required` (while a known defect stands). */
  readonly pageItemsRequired?: boolean;
}

/** A random valid contract as a plain object (stringify it with `yaml`). */
export function contractArbitrary(options: ContractOptions = {}): fc.Arbitrary<Obj> {
  const depth = options.schemaDepth ?? 2;
  const ctx: Ctx = {
    excluded: new Set([...(options.withoutPrototypeNames ? PROTOTYPE_NAMES : []), ...(options.withoutDigitLowercaseNames ? DIGIT_LOWERCASE_NAMES : [])]),
    pageItemsRequired: options.pageItemsRequired ?? false,
  };
  return fc
    .record({
      ops: fc.uniqueArray(opShape(depth, ctx), { minLength: 1, maxLength: options.maxOperations ?? 6, selector: (o) => nameKey(o.name) }),
      title: hostileText,
      description: hostileText,
      changelog: hostileText,
      toolsetDescription: hostileText,
      errorDescription: hostileText,
      types: fc.uniqueArray(fc.tuple(fc.constantFrom(...allowed(ctx, TYPE_NAMES)), schema(depth, ctx)), { maxLength: 3, selector: ([n]) => n }),
      auth: fc.boolean(),
      toolset: fc.constantFrom(...allowed(ctx, TOOLSET_NAMES)),
      // Error details: objects whose property names come from the hostile alphabet (null: none declared).
      details: fc.array(fc.option(objectSchema(1, 3, ctx), { nil: null }), { minLength: ERROR_CODES.length, maxLength: ERROR_CODES.length }),
    })
    .map((r) => {
      // Overrides that would make two tools or two commands one are left out (a valid contract).
      const tools = new Set(r.ops.map((o) => o.name));
      const commands = new Set(r.ops.map((o) => kebabCase(o.name)));
      const ops = r.ops.map((o) => {
        const mcpName = o.mcpName !== null && !tools.has(o.mcpName) ? o.mcpName : null;
        const cliName = o.cliName !== null && !commands.has(o.cliName) ? o.cliName : null;
        if (mcpName !== null) tools.add(mcpName);
        if (cliName !== null) commands.add(cliName);
        return { ...o, mcpName, cliName };
      });
      const errors = ERROR_CODES.map((c, i): [string, Obj] => {
        const details = r.details[i];
        return [c, { ...ERROR_DEFS.get(c)!, description: r.errorDescription, ...(details ? { details } : {}) }];
      });
      const contract: Obj = {
        contract: "prop-test",
        version: "1.0.0",
        title: r.title,
        description: r.description,
        changelog: [{ version: "1.0.0", date: "2026-01-01", summary: r.changelog }],
        transport: { http: { baseUrl: "http://127.0.0.1:1" }, ...(r.auth ? { auth: { type: "bearer", tokenEnv: "PROP_TEST_TOKEN" } } : {}) },
        toolsets: Object.fromEntries([[r.toolset, { description: r.toolsetDescription }]]),
        errors: Object.fromEntries(errors),
        operations: Object.fromEntries(ops.map((s, i) => [s.name, buildOperation(s, i, ctx, r.toolset)])),
        "x-__proto__": { polluted: true },
        "x-constructor": { prototype: { polluted: true } },
      };
      const operations = contract.operations as Obj;
      const first = Object.values(operations)[0] as Obj & { output: Obj & { properties: Obj } };
      const firstName = Object.keys(operations)[0]!;
      // Local definitions named like Object.prototype members, referenced from the output.
      const localDefs = allowed(ctx, ["constructor", "toString"]);
      if (localDefs.length) {
        first.output.$defs = Object.fromEntries(localDefs.map((n) => [n, { type: "string", description: `local ${n}` }]));
        first.output.properties = { ...first.output.properties, ...Object.fromEntries(localDefs.map((n, i) => [`def_${i}`, { $ref: `#/operations/${firstName}/output/$defs/${n}` }])) };
      }
      if (r.types.length) {
        contract.types = Object.fromEntries(r.types);
        // Reference every type from the first operation's output, so they reach the emitters, and
        // the first from an error's details, so errors.ts refers to types.ts.
        first.output.properties = { ...first.output.properties, ...Object.fromEntries(r.types.map(([n], i) => [`ref_${i}`, { $ref: `#/types/${n}` }])) };
        const withDetails = (contract.errors as Record<string, Obj>)[ERROR_CODES[0]!]!;
        const details = (withDetails.details as (Obj & { properties: Obj }) | undefined) ?? { type: "object", properties: {} };
        details.properties = { ...details.properties, shared_ref: { $ref: `#/types/${r.types[0]![0]}` } };
        withDetails.details = details;
      }
      return contract;
    });
}

/** Light edits for the diff: each leaves a contract the validator may or may not accept. */
export const contractMutation: fc.Arbitrary<(c: Obj) => void> = fc.oneof(
  hostileText.map((t) => (c: Obj) => {
    c.description = t;
  }),
  fc.constant((c: Obj) => {
    const ops = c.operations as Obj;
    const names = Object.keys(ops);
    if (names.length > 1) delete ops[names[names.length - 1]!];
  }),
  fc.tuple(fc.constantFrom(...FIELD_NAMES), leaf).map(([name, s]) => (c: Obj) => {
    const op = Object.values(c.operations as Obj)[0] as { input: { properties: Obj } };
    op.input.properties = { ...op.input.properties, [`added_${nameKey(name) || "x"}`]: s };
  }),
  fc.constant((c: Obj) => {
    const op = Object.values(c.operations as Obj)[0] as { output: { properties: Obj } };
    for (const k of Object.keys(op.output.properties)) if (!k.startsWith("ref_") && k !== "items" && k !== "next_cursor") op.output.properties[k] = { type: "boolean" };
  }),
  fc.constant((c: Obj) => {
    c.version = "2.0.0";
    (c.changelog as Json[]).unshift({ version: "2.0.0", date: "2026-02-01", summary: "Next." });
  }),
  fc.constant((c: Obj) => {
    for (const op of Object.values(c.operations as Obj) as Obj[]) delete op.errors;
  }),
);
