/**
 * Compact forms of the schemas a generated MCP server lists. Every transformation keeps what the schema
 * accepts: local definitions are written in place where that is shorter, a `$ref` beside the same `type`
 * becomes the definition itself, and annotations the tool already states elsewhere are served once.
 * Anything the rewrite cannot prove equivalent (a reference that is not `#/$defs/<name>`, a definition
 * below the root with its own `$id`, anchors or definitions, a recursive type) is left as written.
 */
import { MAX_SCHEMA_DEPTH } from "../../contract/load.js";
import { type SchemaObject, defineOwn, forEachSubschema, isSchemaObject, reviseSchema, SUBSCHEMA_KIND } from "../../contract/schema-walk.js";
import { escapePointerSegment } from "../../contract/source.js";

type JsonObject = { readonly [key: string]: unknown };

const DEFS = "#/$defs/";
/** Keywords that change how references resolve: a definition holding one is never moved. */
const SCOPE_KEYWORDS = ["$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$defs", "definitions", "$schema"];

const refOf = (name: string) => `${DEFS}${escapePointerSegment(name)}`;

/** What compaction needs of one definition, found in one walk: every tool that reaches a shared type shares its object. */
interface DefinitionFacts {
  /** The nodes holding a `$ref`, by reference string (in walk order). */
  readonly sites: ReadonlyMap<string, readonly SchemaObject[]>;
  /** Some node, the definition's own included, opens a scope of its own or holds a `$dynamicRef`. */
  readonly scoped: boolean;
}

/** Sites and scope of a subtree; `root` (a schema root) may hold scope keywords itself. */
function factsOf(schema: unknown, root?: SchemaObject): DefinitionFacts {
  const sites = new Map<string, SchemaObject[]>();
  let scoped = false;
  forEachSubschema(schema, (node) => {
    if (typeof node.$ref === "string") {
      const list = sites.get(node.$ref);
      if (list) list.push(node);
      else sites.set(node.$ref, [node]);
    }
    if (typeof node.$dynamicRef === "string" || (node !== root && SCOPE_KEYWORDS.some((k) => k in node))) scoped = true;
  });
  return { sites, scoped };
}

/** Whether every reference of a schema root is to one of its definitions, and no node below the root opens a scope. */
function selfContained(schema: SchemaObject): boolean {
  const refs = new Set(Object.keys(isSchemaObject(schema.$defs) ? schema.$defs : {}).map(refOf));
  const facts = factsOf(schema, schema);
  return !facts.scoped && [...facts.sites.keys()].every((ref) => refs.has(ref));
}

/** A `$ref` site that the definition can replace: the reference alone, or beside the same `type` the definition declares. */
function replaceable(site: SchemaObject, def: SchemaObject): boolean {
  const keys = Object.keys(site);
  if (keys.length === 1) return true;
  return keys.length === 2 && "type" in site && typeof site.type === "string" && site.type === def.type;
}

/** Definitions reachable from themselves (recursive types stay references). */
function recursiveDefinitions(edges: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const recursive = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...(edges.get(n) ?? []));
    }
  }
  return recursive;
}

/**
 * Writes local definitions in place where that costs fewer characters than referring to them (always
 * for a definition used once), and drops the definitions nothing refers to any more. Equivalent by
 * construction; returns a schema unchanged when it cannot show equivalence.
 *
 * One inliner serves every tool of a contract. A shared type reaches hundreds of tools as the same
 * (read-only) object, so what is learnt of a definition object is kept: its reference sites, its
 * height, and its final form for each way the definitions it refers to were decided. Results share
 * unchanged nodes with their input.
 */
export class DefinitionInliner {
  private readonly facts = new WeakMap<object, DefinitionFacts>();
  /** Final forms of a definition object, by signature (see inline). */
  private readonly finals = new WeakMap<object, Map<string, unknown>>();
  private readonly ids = new WeakMap<object, number>();
  private readonly lengths = new WeakMap<object, number>();
  private readonly heights = new WeakMap<object, number>();
  private readonly signatureIds = new Map<string, number>();
  private nextId = 0;

  inline(schema: JsonObject): JsonObject {
    const root = schema as SchemaObject;
    if (!isSchemaObject(root.$defs)) return schema;
    const defs = root.$defs;
    const names = Object.keys(defs);
    const byRef = new Map(names.map((name) => [refOf(name), name]));
    const { $defs: _defs, ...body } = root;
    // Every reference must be to one of the root's definitions, and no node below the root may open
    // a scope (then `#/$defs/…` could mean another document there).
    const parts = [factsOf(body, body), ...names.map((name) => this.factsOf(defs[name]))];
    if (parts.some((f) => f.scoped || [...f.sites.keys()].some((ref) => !byRef.has(ref)))) return schema;
    const sites = new Map<string, SchemaObject[]>();
    for (const part of parts) {
      for (const [ref, nodes] of part.sites) {
        const name = byRef.get(ref)!;
        // The root as a site keeps its `$defs`: a reference beside definitions is not replaceable.
        const list = nodes.map((node) => (node === body ? root : node));
        sites.set(name, [...(sites.get(name) ?? []), ...list]);
      }
    }
    const edges = new Map(names.map((name) => [name, new Set([...this.factsOf(defs[name]).sites.keys()].map((ref) => byRef.get(ref)!))]));
    const recursive = recursiveDefinitions(edges);
    const candidates = new Set(
      names.filter((name) => {
        const def = defs[name];
        return isSchemaObject(def) && !recursive.has(name) && (sites.get(name) ?? []).every((site) => replaceable(site, def));
      }),
    );

    const decisions = new Map<string, boolean>();
    const signatures = new Map<string, number>();
    const inline = (name: string): boolean => {
      let decided = decisions.get(name);
      if (decided === undefined) decisions.set(name, (decided = candidates.has(name) && this.worthInlining(name, sites.get(name)?.length ?? 0, finalDef(name))));
      return decided;
    };
    // A definition's final form depends on its own object and, for each definition it refers to, on
    // whether that one is written in place and (then) its final form: the signature says exactly that.
    const signature = (name: string): number => {
      let id = signatures.get(name);
      if (id !== undefined) return id;
      const def = defs[name];
      let text = isSchemaObject(def) ? String(this.idOf(def)) : JSON.stringify(def) ?? "";
      for (const ref of isSchemaObject(def) ? this.factsOf(def).sites.keys() : []) {
        const target = byRef.get(ref)!;
        if (inline(target)) text += `|${ref}=${signature(target)}`;
      }
      id = this.signatureIds.get(text);
      if (id === undefined) this.signatureIds.set(text, (id = this.signatureIds.size));
      signatures.set(name, id);
      return id;
    };
    const substitute = (node: SchemaObject): SchemaObject => {
      const name = typeof node.$ref === "string" ? byRef.get(node.$ref) : undefined;
      return name === undefined || !inline(name) ? node : (finalDef(name) as SchemaObject);
    };
    const finalDef = (name: string): unknown => {
      const def = defs[name];
      if (!isSchemaObject(def)) return def;
      let forms = this.finals.get(def);
      if (forms === undefined) this.finals.set(def, (forms = new Map()));
      const key = String(signature(name));
      if (!forms.has(key)) forms.set(key, reviseSchema(def, substitute));
      return forms.get(key);
    };

    let out = reviseSchema(body, substitute) as SchemaObject;
    // A root that is only a reference (beside the same `type`) to a definition nothing else uses is
    // that definition: `{type: object, $ref: T, $defs: {T: …}}` is served as T itself.
    const rootName = typeof out.$ref === "string" ? byRef.get(out.$ref) : undefined;
    const rootDef = rootName !== undefined ? finalDef(rootName) : undefined;
    const rootInPlace =
      rootName !== undefined &&
      !inline(rootName) &&
      sites.get(rootName)?.length === 1 &&
      isSchemaObject(rootDef) &&
      Object.keys(out).every((k) => k === "$ref" || (k === "type" && out.type === rootDef.type)) &&
      // MCP clients parse a root's `properties` into a plain object, losing a property named `__proto__`.
      !(isSchemaObject(rootDef.properties) && Object.hasOwn(rootDef.properties, "__proto__"));
    if (rootInPlace) out = rootDef as SchemaObject;
    const remaining: SchemaObject = {};
    for (const name of names) if (!inline(name) && !(rootInPlace && name === rootName)) defineOwn(remaining, name, finalDef(name));
    // A copy: `out` may be a shared final form (a root that is only a reference).
    const result: SchemaObject = { ...out };
    if (Object.keys(remaining).length > 0) defineOwn(result, "$defs", remaining);
    // Moving definitions in place can nest deeper than any input schema may: then keep the references.
    if (this.height(result, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH) return schema;
    return result;
  }

  /** Whether writing a definition at each of its `uses` costs no more than one `$defs` entry and `uses` references. */
  private worthInlining(name: string, uses: number, final: unknown): boolean {
    const size = this.jsonLength(final);
    const kept = uses * JSON.stringify({ $ref: refOf(name) }).length + JSON.stringify({ [name]: 0 }).length - 1 + size;
    return uses * size <= kept;
  }

  private factsOf(def: unknown): DefinitionFacts {
    if (!isSchemaObject(def)) return factsOf(def);
    let facts = this.facts.get(def);
    if (facts === undefined) this.facts.set(def, (facts = factsOf(def)));
    return facts;
  }

  private idOf(node: object): number {
    let id = this.ids.get(node);
    if (id === undefined) this.ids.set(node, (id = this.nextId++));
    return id;
  }

  private jsonLength(value: unknown): number {
    if (!isSchemaObject(value)) return (JSON.stringify(value) ?? "").length;
    let length = this.lengths.get(value);
    if (length === undefined) this.lengths.set(value, (length = JSON.stringify(value).length));
    return length;
  }

  /**
   * Levels of subschemas in a schema, itself included (findDeepSchema's count), or some number above
   * `budget` as soon as it is known to exceed it. Exact heights are kept per node: inlined definitions
   * are shared, so each is measured once.
   */
  private height(node: unknown, budget: number): number {
    if (!isSchemaObject(node)) return 0;
    const known = this.heights.get(node);
    if (known !== undefined) return known;
    if (budget <= 0) return 1;
    let max = 0;
    for (const key of Object.keys(node)) {
      const kind = SUBSCHEMA_KIND.get(key);
      if (kind === undefined) continue;
      const value = node[key];
      const children = kind === "single" ? [value] : kind === "list" ? (Array.isArray(value) ? value : []) : isSchemaObject(value) ? Object.values(value) : [];
      for (const child of children) {
        const h = this.height(child, budget - 1);
        if (h > budget - 1) return h + 1;
        if (h > max) max = h;
      }
    }
    this.heights.set(node, max + 1);
    return max + 1;
  }
}

/** DefinitionInliner.inline for one schema. */
export function inlineDefinitions(schema: JsonObject): JsonObject {
  return new DefinitionInliner().inline(schema);
}

/**
 * Two object schemas as one choice with shared definitions, when their definitions agree name for name
 * and every reference is to them; null otherwise (the caller then scopes each under its own `$id`).
 */
export function mergedChoice(a: JsonObject, b: JsonObject): JsonObject | null {
  const branches = [a as SchemaObject, b as SchemaObject];
  // Below the new root, a branch's own `$id` or anchors would change what its references mean.
  if (branches.some((s) => !selfContained(s) || SCOPE_KEYWORDS.some((k) => k !== "$defs" && k in s))) return null;
  const merged: SchemaObject = {};
  for (const s of branches) {
    const defs = isSchemaObject(s.$defs) ? s.$defs : {};
    for (const [name, def] of Object.entries(defs)) {
      if (Object.hasOwn(merged, name) && JSON.stringify(merged[name]) !== JSON.stringify(def)) return null;
      defineOwn(merged, name, def);
    }
  }
  const bodies = branches.map((s) => {
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(s)) if (k !== "$defs") defineOwn(out, k, v);
    return out;
  });
  const sorted: SchemaObject = {};
  for (const name of Object.keys(merged).sort()) defineOwn(sorted, name, merged[name]);
  return { type: "object", anyOf: bodies, ...(Object.keys(sorted).length > 0 ? { $defs: sorted } : {}) };
}

/** 2020-12 keywords a draft-07 validator ignores or reads otherwise (there, a schema holding one may accept other values). */
const DRAFT07_DIVERGENT = ["prefixItems", "unevaluatedProperties", "unevaluatedItems", "dependentRequired", "dependentSchemas", "minContains", "maxContains", "$dynamicRef", "$dynamicAnchor", "$anchor"];

/**
 * An output schema as the official MCP TypeScript client's draft-07 validator can read it without
 * refusing a result that 2020-12 accepts. Where a draft-07 reading would be stricter, the schema is
 * made exact or weaker (the server has validated the result against the contract's own schema):
 * - A tuple: `items` after `prefixItems` applies to every item in draft-07, not only to those after
 *   the prefix. `items: false` becomes `maxItems` (the same rule in 2020-12); another `items` becomes
 *   `anyOf` of itself and the prefix schemas, which every item of a valid result satisfies.
 * - `contains` with `minContains: 0` accepts any array in 2020-12; draft-07 would ask for one match:
 *   the three keywords go.
 * - Draft-07 ignores the other 2020-12 keywords, which makes a schema weaker, except where being
 *   weaker refuses more: inside `not`, an `if`, or one branch of a `oneOf`. A `not` over such a
 *   subschema goes, such an `if`/`then`/`else` becomes `anyOf` of its branches, and such a `oneOf`
 *   becomes `anyOf` (each weaker, never stricter). Local references are followed to decide.
 */
export function draft07Tolerant(schema: JsonObject): JsonObject {
  const root = schema as SchemaObject;
  const defs = isSchemaObject(root.$defs) ? root.$defs : {};
  const byRef = new Map(Object.keys(defs).map((name) => [refOf(name), name]));
  const divergentDefs = new Map<string, boolean>();
  const divergent = (node: unknown): boolean => {
    let found = false;
    forEachSubschema(node, (n) => {
      if (found) return;
      if (DRAFT07_DIVERGENT.some((k) => Object.hasOwn(n, k))) found = true;
      else if (typeof n.$ref === "string") {
        const name = byRef.get(n.$ref);
        if (name === undefined) return;
        if (!divergentDefs.has(name)) {
          divergentDefs.set(name, false); // a cycle reached again adds nothing
          divergentDefs.set(name, divergent(defs[name]));
        }
        found = divergentDefs.get(name)!;
      }
    });
    return found;
  };
  // Top-down, so each decision reads the contract's subschema as written, before any rewrite below it.
  const rewrite = (node: unknown, depth: number): unknown => {
    if (!isSchemaObject(node) || depth > MAX_SCHEMA_DEPTH) return node;
    let out: SchemaObject = node;
    if (Object.hasOwn(out, "not") && divergent(out.not)) {
      const { not: _not, ...rest } = out;
      out = rest;
    }
    if (Object.hasOwn(out, "if") && divergent(out.if)) {
      const { if: _if, then: thenBranch, else: elseBranch, ...rest } = out;
      // Either branch may apply: anyOf of the two (a missing branch accepts everything: nothing is left).
      out = thenBranch !== undefined && elseBranch !== undefined ? { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { anyOf: [thenBranch, elseBranch] }] } : rest;
    }
    if (Array.isArray(out.oneOf) && out.oneOf.some(divergent)) {
      const { oneOf, ...rest } = out;
      out = { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), { anyOf: oneOf }] };
    }
    const prefix = out.prefixItems;
    if (Array.isArray(prefix) && Object.hasOwn(out, "items") && out.items !== true) {
      const { items, ...rest } = out;
      out = items === false ? { ...rest, maxItems: typeof rest.maxItems === "number" ? Math.min(rest.maxItems, prefix.length) : prefix.length } : { ...rest, items: { anyOf: [items, ...prefix] } };
    }
    if (out.minContains === 0 && Object.hasOwn(out, "contains")) {
      const { contains: _contains, minContains: _min, maxContains: _max, ...rest } = out;
      out = rest;
    }
    const result: SchemaObject = {};
    for (const [key, value] of Object.entries(out)) {
      const kind = SUBSCHEMA_KIND.get(key);
      if (kind === "single") defineOwn(result, key, rewrite(value, depth + 1));
      else if (kind === "list" && Array.isArray(value)) defineOwn(result, key, value.map((v) => rewrite(v, depth + 1)));
      else if (kind === "map" && isSchemaObject(value)) {
        const map: SchemaObject = {};
        for (const [name, sub] of Object.entries(value)) defineOwn(map, name, rewrite(sub, depth + 1));
        defineOwn(result, key, map);
      } else defineOwn(result, key, value);
    }
    return result;
  };
  return rewrite(schema, 0) as JsonObject;
}

/**
 * Keywords that annotate and never decide what a schema accepts: JSON Schema's meta-data vocabulary,
 * OpenAPI's documentation keywords, and extensions (`x-…`).
 */
const NON_VALIDATING = new Set(["description", "title", "examples", "example", "default", "deprecated", "readOnly", "writeOnly", "$comment", "externalDocs", "xml", "discriminator"]);

/**
 * An output schema as clients use it: to validate results. Every annotation goes (what a field means
 * is said to the model by the description and the input schema, and to programs by the SDK's types);
 * what the schema accepts is unchanged.
 */
export function validationOnly(schema: JsonObject, shared: WeakMap<object, unknown> = new WeakMap()): JsonObject {
  const strip = (value: unknown) =>
    reviseSchema(value, (node) => {
      if (!Object.keys(node).some((k) => NON_VALIDATING.has(k) || k.startsWith("x-"))) return node;
      const out: SchemaObject = {};
      for (const [k, v] of Object.entries(node)) if (!NON_VALIDATING.has(k) && !k.startsWith("x-")) defineOwn(out, k, v);
      return out;
    });
  const root = schema as SchemaObject;
  if (!isSchemaObject(root.$defs)) return strip(root) as JsonObject;
  // A shared type reaches many tools as one object: stripped once (`shared` spans a catalogue), so
  // the tools keep sharing it and the definition inliner's knowledge of it.
  const defs: SchemaObject = {};
  for (const [name, def] of Object.entries(root.$defs)) {
    let stripped = isSchemaObject(def) ? shared.get(def) : def;
    if (stripped === undefined) shared.set(def as object, (stripped = strip(def)));
    defineOwn(defs, name, stripped);
  }
  const { $defs: _defs, ...body } = root;
  return { ...(strip(body) as SchemaObject), $defs: defs };
}

/** The JSON type of an enum or const value, as `type` names it (an integral number is also a `number`). */
function valueFits(value: unknown, type: string): boolean {
  if (type === "integer") return typeof value === "number" && Number.isInteger(value);
  if (type === "number") return typeof value === "number";
  if (type === "null") return value === null;
  if (type === "array") return Array.isArray(value);
  if (type === "object") return value !== null && typeof value === "object" && !Array.isArray(value);
  return typeof value === type;
}

/** Whether a node's `type` (one name) is one that every value its `enum` or `const` allows already has. */
function typeImplied(node: SchemaObject): boolean {
  const values = Array.isArray(node.enum) ? (node.enum as unknown[]) : Object.hasOwn(node, "const") ? [node.const] : null;
  return typeof node.type === "string" && values !== null && values.length > 0 && values.every((v) => valueFits(v, node.type as string));
}

/**
 * A validation schema in fewer characters, accepting the same values: a `type` implied by the node's
 * `enum` or `const` goes, and so does a branch's `type` that the node holding the `anyOf`/`oneOf`
 * already requires.
 */
export function withoutRedundantTypes(schema: JsonObject): JsonObject {
  return reviseSchema(schema, (node) => {
    let out = node;
    if (typeImplied(out)) {
      const { type: _type, ...rest } = out;
      out = rest;
    }
    const type = out.type;
    for (const key of ["anyOf", "oneOf"] as const) {
      const branches = out[key];
      if (typeof type !== "string" || !Array.isArray(branches) || !branches.some((b) => isSchemaObject(b) && b.type === type)) continue;
      out = { ...out, [key]: branches.map((b) => (isSchemaObject(b) && b.type === type ? Object.fromEntries(Object.entries(b).filter(([k]) => k !== "type")) : b)) };
    }
    return out;
  }) as JsonObject;
}

/**
 * An input schema as the model reads it, the same accepted values in fewer tokens: extension keywords
 * go, a unit (`x-unit`) is said in words in the field's description, and a `type` that every `enum` or
 * `const` value already has is not repeated.
 */
export function modelFacing(schema: JsonObject): JsonObject {
  return reviseSchema(schema, (node) => {
    const unit = typeof node["x-unit"] === "string" ? (node["x-unit"] as string) : null;
    const impliedType = typeImplied(node);
    if (unit === null && !impliedType && !Object.keys(node).some((k) => k.startsWith("x-"))) return node;
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith("x-") || (k === "type" && impliedType)) continue;
      defineOwn(out, k, v);
    }
    if (unit !== null) {
      const said = typeof out.description === "string" ? out.description : "";
      if (!said.toLowerCase().includes(unit.toLowerCase())) defineOwn(out, "description", said === "" ? `In ${unit}.` : `${said} (in ${unit})`);
    }
    return out;
  }) as JsonObject;
}

/**
 * A schema whose local definitions are kept, in the order a breadth-first walk from the root reaches
 * them, while the whole stays within `maxChars` of JSON; a reference to a definition left out loses
 * its `$ref` (it then accepts any value its siblings accept: weaker, never refusing a valid one). So a
 * tool that reaches a web of shared types (Stripe's expandable objects reach 560 of them) serves its
 * own shape and its nearest types, not the transitive closure. null when even the root alone is larger.
 * Unchanged when within the limit, or when references leave the root's own `$defs`.
 */
export function boundedDefinitions(schema: JsonObject, maxChars: number): JsonObject | null {
  const whole = JSON.stringify(schema).length;
  if (whole <= maxChars) return schema;
  const root = schema as SchemaObject;
  const defs = isSchemaObject(root.$defs) ? root.$defs : {};
  const { $defs: _defs, ...body } = root;
  const byRef = new Map(Object.keys(defs).map((name) => [refOf(name), name]));
  const bodyFacts = factsOf(body, body);
  if (bodyFacts.scoped || [...bodyFacts.sites.keys()].some((ref) => !byRef.has(ref))) return whole <= maxChars ? schema : null;
  let size = JSON.stringify(body).length + '"$defs":{},'.length;
  if (size > maxChars) return null;
  const kept = new Set<string>();
  const queue = [...bodyFacts.sites.keys()].map((ref) => byRef.get(ref)!);
  const seen = new Set(queue);
  while (queue.length > 0) {
    const name = queue.shift()!;
    const cost = JSON.stringify({ [name]: defs[name] }).length;
    if (size + cost > maxChars) continue;
    size += cost;
    kept.add(name);
    for (const ref of factsOf(defs[name]).sites.keys()) {
      const next = byRef.get(ref);
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  const cut = (node: SchemaObject): SchemaObject => {
    if (typeof node.$ref !== "string" || kept.has(byRef.get(node.$ref) ?? "")) return node;
    const { $ref: _ref, ...rest } = node;
    return rest;
  };
  const out = { ...(reviseSchema(body, cut) as SchemaObject) };
  const keptDefs: SchemaObject = {};
  for (const name of Object.keys(defs)) if (kept.has(name)) defineOwn(keptDefs, name, reviseSchema(defs[name], cut));
  if (kept.size > 0) defineOwn(out, "$defs", keptDefs);
  return out;
}
