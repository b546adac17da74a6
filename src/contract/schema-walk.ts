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

/** Schema keywords by kind of value: one subschema, a list of them, a map of them. */
export const SUBSCHEMA_KIND: ReadonlyMap<string, "single" | "list" | "map"> = new Map([
  ...SINGLE.map((k) => [k, "single"] as const),
  ...LIST.map((k) => [k, "list"] as const),
  ...MAP.map((k) => [k, "map"] as const),
]);

export type SchemaObject = Record<string, unknown>;

export function isSchemaObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Visit a schema and every subschema (depth first, keyword order as above), with JSON pointers
 * relative to `base` and the nesting depth (the schema itself is 1). Data-valued keywords (enum,
 * const, default, examples) are never entered, so a `$ref` key inside example data is not mistaken
 * for a reference. Iterative: input depth never grows the call stack. `visit` returning false skips
 * the node's subschemas.
 */
export function walkSchema(
  schema: unknown,
  base: string,
  visit: (node: SchemaObject, pointer: string, depth: number) => void | boolean,
): void {
  visitSchemas(schema, base, (node, at, depth) => visit(node, at(), depth));
}

/** A node met by visitSchemas: its pointer is its parent's plus `key` (and `name`), built when asked for. */
interface Place {
  readonly node: unknown;
  readonly parent: Place | undefined;
  readonly key: string;
  readonly name: string | number | undefined;
  readonly depth: number;
  pointer?: string;
}

/** Rank of each subschema keyword in walkSchema's order. */
const KEYWORD_RANK: ReadonlyMap<string, number> = new Map([...SINGLE, ...LIST, ...MAP].map((k, i) => [k, i]));

/**
 * walkSchema, with each node's pointer built only when `at()` is called: checks that look at every
 * node and report at few of them skip a string per node.
 */
export function visitSchemas(
  schema: unknown,
  base: string,
  visit: (node: SchemaObject, at: () => string, depth: number) => void | boolean,
): void {
  // Up to the nearest place whose pointer is known, then down (iterative: no recursion on depth).
  const pointerOf = (place: Place): string => {
    const chain: Place[] = [];
    let known: Place = place;
    while (known.pointer === undefined) {
      chain.push(known);
      known = known.parent!;
    }
    let pointer = known.pointer;
    for (let i = chain.length - 1; i >= 0; i--) {
      const p = chain[i]!;
      pointer = p.pointer = p.name === undefined ? joinPointer(pointer, p.key) : joinPointer(pointer, p.key, p.name);
    }
    return pointer;
  };
  const stack: Place[] = [{ node: schema, parent: undefined, key: "", name: undefined, depth: 1, pointer: base }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const { node, depth } = place;
    if (!isSchemaObject(node)) continue;
    if (visit(node, () => pointerOf(place), depth) === false) continue;
    // The node's own subschema keywords, in walk order (nodes have few keys; probing every keyword costs more).
    const keys = Object.keys(node).filter((k) => KEYWORD_RANK.has(k));
    if (keys.length > 1) keys.sort((a, b) => KEYWORD_RANK.get(a)! - KEYWORD_RANK.get(b)!);
    // Pushed in reverse (last keyword, last entry first) so they pop in keyword order.
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k]!;
      const value = node[key];
      const kind = SUBSCHEMA_KIND.get(key);
      if (kind === "single") stack.push({ node: value, parent: place, key, name: undefined, depth: depth + 1 });
      else if (kind === "list") {
        if (Array.isArray(value)) for (let i = value.length - 1; i >= 0; i--) stack.push({ node: value[i], parent: place, key, name: i, depth: depth + 1 });
      } else if (isSchemaObject(value)) {
        const names = Object.keys(value);
        for (let i = names.length - 1; i >= 0; i--) stack.push({ node: value[names[i]!], parent: place, key, name: names[i]!, depth: depth + 1 });
      }
    }
  }
}

/** Pointer of the first subschema nested deeper than `limit` levels (the schema itself is level 1), if any. */
export function findDeepSchema(schema: unknown, base: string, limit: number): string | undefined {
  // Almost every schema is shallow: check depth alone first, build pointers only to name a deep one.
  if (schemaDepth(schema, limit) <= limit) return undefined;
  let found: string | undefined;
  walkSchema(schema, base, (_, pointer, depth) => {
    if (found !== undefined) return false;
    if (depth > limit) {
      found = pointer;
      return false;
    }
    return true;
  });
  return found;
}

/** Call `visit` on a schema and every subschema (the nodes walkSchema visits, in no set order): no pointers, no copies. */
export function forEachSubschema(schema: unknown, visit: (node: SchemaObject) => void): void {
  schemaDepth(schema, Infinity, visit);
}

/** Nesting depth of a schema as walkSchema counts it, stopping once past `limit`. Iterative, no pointers. */
function schemaDepth(schema: unknown, limit: number, visit?: (node: SchemaObject) => void): number {
  let max = 0;
  const nodes: unknown[] = [schema];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (!isSchemaObject(node)) continue;
    visit?.(node);
    if (depth > max) max = depth;
    if (max > limit) return max;
    // A node's own keys, not every keyword probed: order does not matter here, and nodes have few keys.
    for (const key of Object.keys(node)) {
      const kind = SUBSCHEMA_KIND.get(key);
      if (kind === undefined) continue;
      const value = node[key];
      if (kind === "single") {
        nodes.push(value);
        depths.push(depth + 1);
      } else if (kind === "list") {
        if (!Array.isArray(value)) continue;
        for (const s of value) {
          nodes.push(s);
          depths.push(depth + 1);
        }
      } else if (isSchemaObject(value)) {
        for (const s of Object.values(value)) {
          nodes.push(s);
          depths.push(depth + 1);
        }
      }
    }
  }
  return max;
}

/**
 * Rebuild a schema, letting `rewrite` replace any (sub)schema object after its children were rebuilt.
 * Data keywords are deep-copied untouched. Recursive: only called on schemas that passed the schema
 * depth limit (and data within the YAML depth limit).
 */
export function mapSchema(schema: unknown, rewrite: (node: SchemaObject) => SchemaObject): unknown {
  if (!isSchemaObject(schema)) return structuredCloneJson(schema);
  const out: SchemaObject = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    const kind = SUBSCHEMA_KIND.get(key);
    let next: unknown;
    if (kind === "single") next = mapSchema(value, rewrite);
    else if (kind === "list" && Array.isArray(value)) next = value.map((s) => mapSchema(s, rewrite));
    else if (kind === "map" && isSchemaObject(value)) {
      const m: SchemaObject = {};
      for (const name of Object.keys(value)) defineOwn(m, name, mapSchema(value[name], rewrite));
      next = m;
    } else next = structuredCloneJson(value);
    defineOwn(out, key, next);
  }
  return rewrite(out);
}

/**
 * mapSchema without copies: a node whose subschemas all came back unchanged is passed to `revise`
 * as it is, and a node `revise` returns unchanged is shared with the input. Data keywords are shared,
 * never copied. For read-only schemas (the model's are frozen), where most nodes survive a rewrite.
 */
export function reviseSchema(schema: unknown, revise: (node: SchemaObject) => SchemaObject): unknown {
  if (!isSchemaObject(schema)) return schema;
  const keys = Object.keys(schema);
  let out: SchemaObject | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = schema[key];
    const kind = SUBSCHEMA_KIND.get(key);
    let next: unknown = value;
    if (kind === "single") next = reviseSchema(value, revise);
    else if (kind === "list" && Array.isArray(value)) {
      const list = value.map((s) => reviseSchema(s, revise));
      if (list.some((s, j) => s !== value[j])) next = list;
    } else if (kind === "map" && isSchemaObject(value)) {
      let map: SchemaObject | undefined;
      const names = Object.keys(value);
      for (let j = 0; j < names.length; j++) {
        const revised = reviseSchema(value[names[j]!], revise);
        if (map === undefined && revised !== value[names[j]!]) {
          map = {};
          for (let k = 0; k < j; k++) defineOwn(map, names[k]!, value[names[k]!]);
        }
        if (map !== undefined) defineOwn(map, names[j]!, revised);
      }
      if (map !== undefined) next = map;
    }
    if (out === undefined && next !== value) {
      out = {};
      for (let k = 0; k < i; k++) defineOwn(out, keys[k]!, schema[keys[k]!]);
    }
    if (out !== undefined) defineOwn(out, key, next);
  }
  return revise(out ?? schema);
}

/** Assign an own property even when the key is "__proto__". */
export function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment keeps objects fast; only "__proto__" needs defineProperty to stay an own property.
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Deep copy of plain data; recursive, bounded by the YAML depth limit every input passes. */
export function structuredCloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(structuredCloneJson);
  if (isSchemaObject(value)) {
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(value)) defineOwn(out, k, structuredCloneJson(v));
    return out;
  }
  return value;
}
