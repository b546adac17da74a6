import type { ContractModel, JsonSchema } from "../../model/types.js";
import { defineOwn, forEachSubschema, mapSchema, type SchemaObject } from "../../contract/schema-walk.js";
import { defText } from "../shared/def-pool.js";
import { escapeInvisible } from "../shared/literals.js";
import { jsonLines } from "../shared/json-lines.js";

/** Export name of the validator of one schema slot of an operation. */
export function validatorName(camel: string, slot: "Input" | "Output" | "Preview"): string {
  return `validate${camel.charAt(0).toUpperCase()}${camel.slice(1)}${slot}`;
}

/** Name of an error code's `details` schema in `sdk/schemas.json` (a colon: no validator name has one). */
export function errorDetailsSchemaName(code: string): string {
  return `errorDetails:${code}`;
}

/**
 * `sdk/schemas.json`: the schema of every input, output and preview, and of every error's details, for the runtime to compile with
 * ajv when an operation first validates (runtime/validation.ts). Each shared type is stored once,
 * under its own `$id`, and referenced from the operations' schemas, so it is compiled once per
 * process however many operations reach it; operations whose schemas are equal (an output that is
 * just `$ref: Item`, an empty input) share one entry. Compiling at generation time instead
 * (ajv standalone code) took most of a GitHub-size generate and wrote 10 MB of JavaScript that
 * every process loaded whole, for the few operations it calls.
 */
export function emitSchemaData(model: ContractModel): string {
  const shared = new SharedDefs();
  // Validator name → the key of its schema: equal schemas are stored once.
  const validators: Record<string, string> = Object.create(null);
  const schemas: Record<string, unknown> = Object.create(null);
  const keys = new Map<string, string>();
  const add = (name: string, schema: JsonSchema) => {
    const extracted = shared.extract(schema);
    const text = JSON.stringify(extracted);
    let key = keys.get(text);
    if (key === undefined) {
      key = name;
      keys.set(text, key);
      schemas[key] = extracted;
    }
    validators[name] = key;
  };
  for (const op of model.operations) {
    add(validatorName(op.names.camel, "Input"), op.input.schema);
    add(validatorName(op.names.camel, "Output"), op.output.schema);
    if (op.preview?.output) add(validatorName(op.names.camel, "Preview"), op.preview.output.schema);
  }
  for (const error of model.errors) if (error.details) add(errorDetailsSchemaName(error.code), error.details.schema);
  const data = { types: shared.schemas(), schemas, validators };
  // A shared type, schema or validator a line.
  return `${escapeInvisible(jsonLines(data, 2))}\n`;
}

const DEFS_REF = "#/$defs/";
const SHARED_ID = "urn:contractgen:type:";

/**
 * The `$defs` of the model's bundled schemas, pooled: a def is the same shared type in two schemas
 * when its name and everything it reaches (names and contents) are the same, so two schemas that
 * bundled different targets under one name (`Money` from two files) keep two entries.
 */
class SharedDefs {
  /** Closure key → pooled schema (with `$id`), in first-seen order. */
  private readonly byKey = new Map<string, { id: string; schema: Record<string, unknown> | null }>();
  private readonly ids = new Set<string>();

  /** The schema without its `$defs`, every `#/$defs/<name>` rewritten to the pooled type's `$id`. */
  extract(schema: JsonSchema): unknown {
    if (!isObject(schema) || !isObject(schema.$defs)) return schema;
    const defs = new Map<string, unknown>(Object.entries(schema.$defs));
    const ids = new Map<string, string>();
    const closures = new Map<string, string>();
    for (const name of defs.keys()) {
      const key = closureKey(name, defs);
      closures.set(name, key);
      ids.set(name, this.idFor(name, key));
    }
    const rewrite = (s: unknown) => rewriteRefs(s, ids);
    for (const [name, def] of defs) {
      const entry = this.byKey.get(closures.get(name)!)!;
      if (entry.schema === null) entry.schema = { $id: entry.id, ...(rewrite(def) as Record<string, unknown>) };
    }
    const root: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema)) if (k !== "$defs") defineOwn(root, k, v);
    return rewrite(root);
  }

  schemas(): Array<Record<string, unknown>> {
    return [...this.byKey.values()].map((e) => e.schema!);
  }

  private idFor(name: string, key: string): string {
    const known = this.byKey.get(key);
    if (known) return known.id;
    let id = `${SHARED_ID}${encodeURIComponent(name)}`;
    for (let i = 2; this.ids.has(id); i++) id = `${SHARED_ID}${encodeURIComponent(name)}~${i}`;
    this.ids.add(id);
    this.byKey.set(key, { id, schema: null });
    return id;
  }
}

/** A closure key, with what it was made from: it holds for another schema's `$defs` that name the same objects. */
interface ClosureMemo {
  readonly name: string;
  /** Every def reached (the def itself included), with the object each name held. */
  readonly members: ReadonlyArray<readonly [string, unknown]>;
  /** `#/$defs/…` names referred to that were not defs there (a def of that name would join the closure). */
  readonly absent: readonly string[];
  readonly key: string;
}
/** Per def object: operations share the objects of the types they reach, so a key is built once per type, not per operation. */
const closureMemos = new WeakMap<object, ClosureMemo[]>();
/** Memos kept per def object: a type is named alike in nearly every schema that reaches it. */
const MEMOS_PER_DEF = 4;

/** The def's name with the names and contents of every def it reaches, sorted: its identity. */
function closureKey(name: string, defs: ReadonlyMap<string, unknown>): string {
  const def = defs.get(name);
  const memos = typeof def === "object" && def !== null ? closureMemos.get(def) : undefined;
  for (const memo of memos ?? []) {
    if (memo.name === name && memo.members.every(([n, o]) => defs.get(n) === o) && memo.absent.every((n) => !defs.has(n))) return memo.key;
  }
  const seen = new Set<string>([name]);
  const absent = new Set<string>();
  const queue = [name];
  while (queue.length > 0) {
    forEachRef(defs.get(queue.shift()!), (ref) => {
      const target = ref.startsWith(DEFS_REF) ? ref.slice(DEFS_REF.length) : null;
      if (target === null) return;
      if (!defs.has(target)) absent.add(target);
      else if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    });
  }
  // The text JSON.stringify([name, [[n, def], …]]) would give, from each def's text.
  const members = [...seen].sort().map((n) => `[${JSON.stringify(n)},${defText(defs.get(n))}]`);
  const key = `[${JSON.stringify(name)},[${members.join(",")}]]`;
  if (typeof def === "object" && def !== null) {
    const list = memos ?? [];
    if (list.length < MEMOS_PER_DEF) list.push({ name, members: [...seen].map((n) => [n, defs.get(n)] as const), absent: [...absent], key });
    if (!memos) closureMemos.set(def, list);
  }
  return key;
}

function rewriteRefs(schema: unknown, ids: ReadonlyMap<string, string>): unknown {
  return mapSchema(schema, (node) => {
    const ref = node.$ref;
    if (typeof ref !== "string" || !ref.startsWith(DEFS_REF)) return node;
    const id = ids.get(ref.slice(DEFS_REF.length));
    if (id === undefined) return node;
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(node)) defineOwn(out, k, k === "$ref" ? id : v);
    return out;
  });
}

/** The $refs of each def object, found once: operations share the objects of the types they reach. */
const defRefs = new WeakMap<object, string[]>();
function forEachRef(schema: unknown, visit: (ref: string) => void): void {
  if (typeof schema !== "object" || schema === null) return;
  let refs = defRefs.get(schema);
  if (refs === undefined) {
    const found: string[] = [];
    forEachSubschema(schema, (node) => {
      if (typeof node.$ref === "string") found.push(node.$ref);
    });
    defRefs.set(schema, (refs = found));
  }
  for (const ref of refs) visit(ref);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
