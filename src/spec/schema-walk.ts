import { joinPointer } from "./source.js";

/** JSON Schema 2020-12 keywords whose value is one subschema. */
const SINGLE = [
  "additionalProperties", "items", "contains", "not", "if", "then", "else", "propertyNames",
  "unevaluatedItems", "unevaluatedProperties", "contentSchema",
] as const;
/** Keywords whose value is an array of subschemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value maps names to subschemas. */
const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;

export type SchemaObject = Record<string, unknown>;

export function isSchemaObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Visit a schema and every subschema (depth first, keyword order as above), with JSON pointers
 * relative to `base`. Data-valued keywords (enum, const, default, examples) are never entered, so a
 * `$ref` key inside example data is not mistaken for a reference.
 */
export function walkSchema(schema: unknown, base: string, visit: (node: SchemaObject, pointer: string) => void): void {
  if (!isSchemaObject(schema)) return;
  visit(schema, base);
  for (const key of SINGLE) {
    if (key in schema) walkSchema(schema[key], joinPointer(base, key), visit);
  }
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((s, i) => walkSchema(s, joinPointer(base, key, i), visit));
  }
  for (const key of MAP) {
    const map = schema[key];
    if (isSchemaObject(map)) for (const [name, s] of Object.entries(map)) walkSchema(s, joinPointer(base, key, name), visit);
  }
}

/**
 * Rebuild a schema, letting `rewrite` replace any (sub)schema object after its children were rebuilt;
 * `pointer` is where the original node sits. Data keywords are deep-copied untouched.
 */
export function mapSchema(
  schema: unknown,
  base: string,
  rewrite: (node: SchemaObject, pointer: string) => SchemaObject,
): unknown {
  if (!isSchemaObject(schema)) return structuredCloneJson(schema);
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    let next: unknown;
    const at = joinPointer(base, key);
    if ((SINGLE as readonly string[]).includes(key)) next = mapSchema(value, at, rewrite);
    else if ((LIST as readonly string[]).includes(key) && Array.isArray(value)) {
      next = value.map((s, i) => mapSchema(s, joinPointer(at, i), rewrite));
    } else if ((MAP as readonly string[]).includes(key) && isSchemaObject(value)) {
      const m: SchemaObject = {};
      for (const [name, s] of Object.entries(value)) defineOwn(m, name, mapSchema(s, joinPointer(at, name), rewrite));
      next = m;
    } else next = structuredCloneJson(value);
    defineOwn(out, key, next);
  }
  return rewrite(out, base);
}

/** Assign an own property even when the key is "__proto__". */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment keeps objects fast; only "__proto__" needs defineProperty to stay an own property.
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function structuredCloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structuredCloneJson);
  if (isSchemaObject(value)) {
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(value)) defineOwn(out, k, structuredCloneJson(v));
    return out;
  }
  return value;
}
