/**
 * Compact forms of the schemas a generated MCP server lists. Every transformation keeps what the schema
 * accepts: local definitions are written in place where that is shorter, a `$ref` beside the same `type`
 * becomes the definition itself, and annotations the tool already states elsewhere are served once.
 * Anything the rewrite cannot prove equivalent (a reference that is not `#/$defs/<name>`, a definition
 * below the root with its own `$id`, anchors or definitions, a recursive type) is left as written.
 */
import { MAX_SCHEMA_DEPTH } from "../../spec/load.js";
import { type SchemaObject, defineOwn, findDeepSchema, forEachSubschema, isSchemaObject, mapSchema, walkSchema } from "../../spec/schema-walk.js";
import { escapePointerSegment } from "../../spec/source.js";

type JsonObject = { readonly [key: string]: unknown };

const DEFS = "#/$defs/";
/** Keywords that change how references resolve: a definition holding one is never moved. */
const SCOPE_KEYWORDS = ["$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$defs", "definitions", "$schema"];

const refOf = (name: string) => `${DEFS}${escapePointerSegment(name)}`;

/**
 * The definitions of a schema root by their reference string, or null when some reference is not one
 * of them or some subschema below the root opens a scope of its own (then `#/$defs/…` may mean another
 * document there).
 */
function definitionRefs(schema: SchemaObject): Map<string, string> | null {
  const defs = isSchemaObject(schema.$defs) ? schema.$defs : {};
  const byRef = new Map(Object.keys(defs).map((name) => [refOf(name), name]));
  let foreign = false;
  // No pointers needed (these walks run over every tool's schemas): the root is told by identity.
  forEachSubschema(schema, (node) => {
    if (typeof node.$ref === "string" && !byRef.has(node.$ref)) foreign = true;
    if (typeof node.$dynamicRef === "string" || (node !== schema && SCOPE_KEYWORDS.some((k) => k in node))) foreign = true;
  });
  return foreign ? null : byRef;
}

/** Schema nodes that hold a `$ref`, per definition name. */
function referenceSites(schema: SchemaObject, byRef: Map<string, string>): Map<string, SchemaObject[]> {
  const sites = new Map<string, SchemaObject[]>();
  forEachSubschema(schema, (node) => {
    const name = typeof node.$ref === "string" ? byRef.get(node.$ref) : undefined;
    if (name === undefined) return;
    const list = sites.get(name);
    if (list) list.push(node);
    else sites.set(name, [node]);
  });
  return sites;
}

/** A `$ref` site that the definition can replace: the reference alone, or beside the same `type` the definition declares. */
function replaceable(site: SchemaObject, def: SchemaObject): boolean {
  const keys = Object.keys(site);
  if (keys.length === 1) return true;
  return keys.length === 2 && "type" in site && typeof site.type === "string" && site.type === def.type;
}

/** Definitions reachable from themselves (recursive types stay references). */
function recursiveDefinitions(defs: SchemaObject, byRef: Map<string, string>): Set<string> {
  const edges = new Map<string, Set<string>>();
  for (const [name, def] of Object.entries(defs)) {
    const out = new Set<string>();
    forEachSubschema(def, (node) => {
      const target = typeof node.$ref === "string" ? byRef.get(node.$ref) : undefined;
      if (target !== undefined) out.add(target);
    });
    edges.set(name, out);
  }
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
 * Write local definitions in place where that costs fewer characters than referring to them (always for
 * a definition used once), and drop the definitions nothing refers to any more. Equivalent by
 * construction; null-safe: returns the schema unchanged when it cannot show equivalence.
 */
export function inlineDefinitions(schema: JsonObject): JsonObject {
  const root = schema as SchemaObject;
  if (!isSchemaObject(root.$defs)) return schema;
  const defs = root.$defs;
  const byRef = definitionRefs(root);
  if (!byRef) return schema;
  const sites = referenceSites(root, byRef);
  const recursive = recursiveDefinitions(defs, byRef);
  const candidates = new Set(
    Object.entries(defs)
      .filter(([name, def]) => isSchemaObject(def) && !recursive.has(name) && (sites.get(name) ?? []).every((site) => replaceable(site, def)))
      .map(([name]) => name),
  );
  // Definitions in their final form (their own references resolved first), memoised: the graph is acyclic here.
  const done = new Map<string, SchemaObject>();
  const inlined = new Set<string>();
  const finalDef = (name: string): SchemaObject => {
    const cached = done.get(name);
    if (cached) return cached;
    const result = mapSchema(defs[name], substitute) as SchemaObject;
    done.set(name, result);
    return result;
  };
  const decide = (name: string): boolean => {
    if (!candidates.has(name)) return false;
    const uses = (sites.get(name) ?? []).length;
    const size = JSON.stringify(finalDef(name)).length;
    const kept = uses * JSON.stringify({ $ref: refOf(name) }).length + JSON.stringify({ [name]: finalDef(name) }).length - 1;
    return uses * size <= kept;
  };
  const decisions = new Map<string, boolean>();
  const inline = (name: string): boolean => {
    if (!decisions.has(name)) decisions.set(name, decide(name));
    return decisions.get(name)!;
  };
  function substitute(node: SchemaObject): SchemaObject {
    const name = typeof node.$ref === "string" ? byRef!.get(node.$ref) : undefined;
    if (name === undefined || !inline(name)) return node;
    inlined.add(name);
    return finalDef(name);
  }
  const { $defs: _defs, ...body } = root;
  const out = mapSchema(body, substitute) as SchemaObject;
  const remaining: SchemaObject = {};
  for (const name of Object.keys(defs)) if (!inline(name)) defineOwn(remaining, name, finalDef(name));
  if (Object.keys(remaining).length > 0) defineOwn(out, "$defs", remaining);
  // Moving definitions in place can nest deeper than any input schema may: then keep the references.
  if (findDeepSchema(out, "", MAX_SCHEMA_DEPTH) !== undefined) return schema;
  return out;
}

/** Annotation keywords a schema can lose without changing what it accepts. */
const ANNOTATIONS = ["description", "title"];

/**
 * An output schema without the annotations the tool already serves word for word (in its description
 * or input schema): a reader sees each sentence once, and validation is unchanged.
 */
export function withoutServedAnnotations(schema: JsonObject, served: ReadonlySet<string>): JsonObject {
  return mapSchema(schema, (node) => {
    if (!ANNOTATIONS.some((k) => typeof node[k] === "string" && served.has(node[k] as string))) return node;
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(node)) if (!(ANNOTATIONS.includes(k) && typeof v === "string" && served.has(v))) defineOwn(out, k, v);
    return out;
  }) as JsonObject;
}

/** The annotation texts a schema serves, and those of the tool description's paragraphs. */
export function servedTexts(description: string, schema: JsonObject): Set<string> {
  const texts = new Set<string>(description.split("\n\n"));
  walkSchema(schema, "", (node) => {
    for (const k of ANNOTATIONS) if (typeof node[k] === "string") texts.add(node[k] as string);
  });
  return texts;
}

/**
 * Two object schemas as one choice with shared definitions, when their definitions agree name for name
 * and every reference is to them; null otherwise (the caller then scopes each under its own `$id`).
 */
export function mergedChoice(a: JsonObject, b: JsonObject): JsonObject | null {
  const branches = [a as SchemaObject, b as SchemaObject];
  // Below the new root, a branch's own `$id` or anchors would change what its references mean.
  if (branches.some((s) => definitionRefs(s) === null || SCOPE_KEYWORDS.some((k) => k !== "$defs" && k in s))) return null;
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
