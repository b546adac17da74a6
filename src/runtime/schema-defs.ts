import { readFileSync } from "node:fs";
/**
 * A file that holds many bundled schemas (sdk/contract.json, the MCP tools' schemas) stores each `$defs`
 * entry once, in a list, and writes its index in its place (emit/shared/def-pool.ts). This puts the
 * entries back: objects are shared, never copied, so a shared type is one object however many
 * schemas reach it, and serialising a schema (an MCP tools/list) still writes it whole.
 */
export function linkSchemaDefs<T>(schema: T, defs: readonly unknown[], file: string): T {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const indexes = (schema as Record<string, unknown>).$defs;
  if (indexes === null || typeof indexes !== "object" || Array.isArray(indexes)) return schema;
  // Null prototype: a definition may be named like an Object.prototype member ("__proto__" included).
  const linked: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, index] of Object.entries(indexes as Record<string, unknown>)) {
    const def = typeof index === "number" ? defs[index] : undefined;
    if (def === undefined) throw new Error(`${file}: $defs entry ${JSON.stringify(name)} names no stored definition (${String(index)}): regenerate the package.`);
    linked[name] = def;
  }
  return { ...schema, $defs: linked };
}

/** `sdk/schemas.json` as the SDK's generator writes it (runtime/validation.ts reads it too). */
interface StoredSchemaData {
  /** Shared types, each once, identified by `$id`. */
  readonly types: ReadonlyArray<Record<string, unknown>>;
  readonly schemas: Readonly<Record<string, unknown>>;
  /** Validator name → schema key. */
  readonly validators: Readonly<Record<string, string>>;
}

/**
 * The SDK's stored schemas (`sdk/schemas.json`), each given back as one self-contained schema: the shared types it reaches
 * (by `$id`) become its `$defs` again, so everything that reads a bundled schema (validation, request
 * decoding) reads it as before.
 */
export class StoredSchemas {
  private readonly types: ReadonlyMap<string, Record<string, unknown>>;
  private readonly linked = new Map<string, unknown>();

  /** The stored schemas of a package (its `sdk/schemas.json`). */
  static read(file: URL): StoredSchemas {
    return new StoredSchemas(JSON.parse(readFileSync(file, "utf8")) as StoredSchemaData, file.pathname);
  }

  constructor(
    private readonly data: StoredSchemaData,
    private readonly file: string,
  ) {
    this.types = new Map(data.types.map((t) => [String(t.$id), t]));
  }

  /** The schema a validator of the SDK checks, self-contained (its shared types as `$defs`). */
  bundled(validator: string): unknown {
    const key = Object.hasOwn(this.data.validators, validator) ? this.data.validators[validator] : undefined;
    const schema = key !== undefined && Object.hasOwn(this.data.schemas, key) ? this.data.schemas[key] : undefined;
    if (schema === undefined) throw new Error(`${this.file} has no schema for ${validator}: regenerate the package.`);
    // The shared types it reaches (an explicit queue: no recursion on input depth).
    const reached: string[] = [];
    const seen = new Set<string>();
    const queue: unknown[] = [schema];
    while (queue.length > 0) {
      const node = queue.pop();
      if (node === null || typeof node !== "object") continue;
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string" && this.types.has(v) && !seen.has(v)) {
          seen.add(v);
          reached.push(v);
          queue.push(this.types.get(v));
        } else if (v !== null && typeof v === "object") queue.push(v);
      }
    }
    if (reached.length === 0) return schema;
    // Null prototype: a definition may be named like an Object.prototype member ("__proto__" included).
    const $defs = Object.create(null) as Record<string, unknown>;
    for (const id of reached.sort()) $defs[defName(id)] = this.linkedType(id);
    return { ...(relinked(schema, this.types) as Record<string, unknown>), $defs };
  }

  /** A shared type as a `$defs` entry, built once: every schema that reaches it holds the same object. */
  private linkedType(id: string): unknown {
    let linked = this.linked.get(id);
    if (linked === undefined) {
      const { $id: _id, ...type } = this.types.get(id)!;
      linked = relinked(type, this.types);
      this.linked.set(id, linked);
    }
    return linked;
  }
}

const SHARED_TYPE_ID = "urn:contractgen:type:";

/** A shared type's `$defs` name: the name its `$id` was made from (with its ~n when two types shared one). */
function defName(id: string): string {
  const encoded = id.startsWith(SHARED_TYPE_ID) ? id.slice(SHARED_TYPE_ID.length) : id;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** A copy of `value` with every `$ref` to a shared type's `$id` pointed at its `#/$defs/` entry (property order kept). */
function relinked(value: unknown, types: ReadonlyMap<string, unknown>): unknown {
  const pointer = (id: string) => `#/$defs/${defName(id).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  const root: { value?: unknown } = {};
  const stack: Array<{ from: unknown; into: Record<string, unknown> | unknown[]; key: string | number }> = [{ from: value, into: root as Record<string, unknown>, key: "value" }];
  while (stack.length > 0) {
    const { from, into, key } = stack.pop()!;
    let copy: unknown = from;
    if (Array.isArray(from)) {
      const array: unknown[] = [];
      from.forEach((item, i) => stack.push({ from: item, into: array, key: i }));
      copy = array;
    } else if (from !== null && typeof from === "object") {
      const object: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(from)) {
        // Every key first, in its order (the children fill theirs in later).
        const own = k === "$ref" && typeof v === "string" && types.has(v) ? pointer(v) : v;
        Object.defineProperty(object, k, { value: own, enumerable: true, writable: true, configurable: true });
        if (own === v && v !== null && typeof v === "object") stack.push({ from: v, into: object, key: k });
      }
      copy = object;
    }
    if (Array.isArray(into)) into[key as number] = copy;
    else Object.defineProperty(into, key, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return root.value;
}
