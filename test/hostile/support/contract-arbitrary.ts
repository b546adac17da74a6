/**
 * fast-check arbitraries for random **valid** contracts: 1–6 operations with names from a hostile
 * alphabet (reserved words, CLI words, digit-lowercase), random input/output schemas of bounded
 * depth, and effects/idempotency/preview/pagination combinations that the format allows. Text
 * fields carry breakout payloads. Validity is by construction; names are deduplicated by a key
 * stricter than the real word splitting, so collisions do not make contracts invalid.
 */
import fc from "fast-check";
import { camelCase, CLIENT_MEMBERS } from "../../../src/model/naming.js";

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
const FIELD_NAMES = ["id", "name", "help", "set_help", "no_cache", "version", "input", "output", "constructor", "__proto__", "toString", "then", "value", "valueOf", "*/", "${x}", "a b", "é", "`", "q", "count", "oauth2client", "is_ok", "Type"];
const TYPE_NAMES = ["Note", "constructor", "toString", "import", "hook", "Then", "Prototype", "Oauth2client", "A1"];

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

const ERROR_CODES = ["INVALID_FIELD", "NOT_FOUND", "CONSTRUCTOR", "CONFLICT_X"];
const ERROR_DEFS: Record<string, Obj> = {
  INVALID_FIELD: { class: "invalid_input", action: "fix_field", http: 400 },
  NOT_FOUND: { class: "not_found", action: "verify_identifier", http: 404 },
  CONSTRUCTOR: { class: "conflict", action: "reread_and_replan", http: 409 },
  CONFLICT_X: { class: "conflict", action: "stop_and_surface", http: 409 },
};
const BEHAVIOUR_FIELDS = ["path_id", "idempotency_key", "dry_run", "confirm_token", "cursor", "limit"];

const opShape = (depth: number, ctx: Ctx): fc.Arbitrary<OpShape> =>
  fc.record({
    name: opName(ctx),
    kind: fc.constantFrom("read" as const, "mutating" as const),
    idempotent: fc.constantFrom("natural" as const, "none" as const, "key" as const),
    destructive: fc.boolean(),
    preview: fc.boolean(),
    paginate: fc.boolean(),
    pathParam: fc.boolean(),
    input: objectSchema(depth, 4, ctx, BEHAVIOUR_FIELDS),
    output: objectSchema(depth, 4, ctx, ["items", "next_cursor"]),
    errors: fc.array(fc.boolean(), { minLength: ERROR_CODES.length, maxLength: ERROR_CODES.length }),
    summary: summaryText,
    description: hostileText,
    method: fc.constantFrom("POST", "PUT", "PATCH", "DELETE"),
    toolset: fc.boolean(),
  });

function buildOperation(s: OpShape, index: number, ctx: Ctx): Obj {
  const input = structuredClone(s.input) as Obj & { properties: Obj; required?: string[] };
  const output = structuredClone(s.output) as Obj & { properties: Obj; required?: string[] };
  const required = new Set(input.required ?? []);
  const op: Obj = { summary: s.summary, description: s.description };
  if (s.toolset) op.toolset = "group";
  let path = `/r${index}`;
  if (s.pathParam) {
    path += "/{path_id}";
    input.properties.path_id = { type: "string" };
    required.add("path_id");
  }
  if (s.kind === "read") {
    op.effects = { kind: "read" };
    op.http = { method: "GET", path };
    if (s.paginate) {
      input.properties.cursor = { type: "string" };
      input.properties.limit = { type: "integer", minimum: 1, maximum: 50, default: 10 };
      output.properties.items = { type: "array", items: { type: "object", properties: { id: { type: "string" } } } };
      output.properties.next_cursor = { type: ["string", "null"] };
      if (ctx.pageItemsRequired) output.required = [...new Set([...(output.required ?? []), "items"])];
      op.pagination = { cursor: "cursor", nextCursor: "next_cursor", items: "items", limit: { field: "limit", default: 10, max: 50 } };
    }
  } else {
    op.effects = { kind: "mutating", idempotent: s.idempotent, destructive: s.destructive };
    op.http = { method: s.method, path };
    if (s.idempotent === "key") {
      input.properties.idempotency_key = { type: "string", format: "uuid" };
      required.add("idempotency_key");
      op.idempotency = { key: "idempotency_key", retention: "24h", mismatchError: "CONFLICT_X" };
    }
    if (s.preview) {
      input.properties.dry_run = { type: "boolean", default: true };
      input.properties.confirm_token = { type: "string" };
      op.preview = { dryRun: "dry_run", default: true, confirmToken: "confirm_token", ttl: "10m", invalidTokenError: "CONSTRUCTOR" };
      // A preview needs no key (idempotency-key-blocks-preview): the key is required to execute only.
      required.delete("idempotency_key");
    }
  }
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
    })
    .map((r) => {
      const contract: Obj = {
        contract: "prop-test",
        version: "1.0.0",
        title: r.title,
        description: r.description,
        changelog: [{ version: "1.0.0", date: "2026-01-01", summary: r.changelog }],
        transport: { http: { baseUrl: "http://127.0.0.1:1" }, ...(r.auth ? { auth: { type: "bearer", tokenEnv: "PROP_TEST_TOKEN" } } : {}) },
        toolsets: { group: { description: r.toolsetDescription } },
        errors: Object.fromEntries(ERROR_CODES.map((c) => [c, { ...ERROR_DEFS[c]!, description: r.errorDescription }])),
        operations: Object.fromEntries(r.ops.map((s, i) => [s.name, buildOperation(s, i, ctx)])),
      };
      if (r.types.length) {
        contract.types = Object.fromEntries(r.types);
        // Reference every type from the first operation's output, so they reach the emitters.
        const first = Object.values(contract.operations as Obj)[0] as Obj & { output: Obj & { properties: Obj } };
        first.output.properties = { ...first.output.properties, ...Object.fromEntries(r.types.map(([n], i) => [`ref_${i}`, { $ref: `#/types/${n}` }])) };
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
