/**
 * OpenAPI Schema Objects (3.0 dialect or 3.1 = JSON Schema 2020-12) → contract schemas (2020-12).
 * Component schemas become `$ref: "#/types/<Name>"`; any other local reference is inlined (cycles and
 * depth bounded). Keywords the format cannot keep are dropped and reported, never silently.
 */
import { MAX_SCHEMA_DEPTH } from "../../contract/load.js";
import { ImportRefusal } from "./refusal.js";
import type { ReviewKind } from "./review.js";

/** `$ref`s followed in a row before giving up (bare chains longer than this were refused while reading). */
export const MAX_REF_CHAIN = 32;

const KNOWN_FORMATS = new Set([
  "date", "time", "date-time", "iso-time", "iso-date-time", "duration", "uri", "uri-reference", "uri-template", "url",
  "email", "hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer", "json-pointer-uri-fragment",
  "relative-json-pointer", "byte", "int32", "int64", "float", "double", "password", "binary",
]);

/** 2020-12 keywords kept as they are (values copied). */
const PLAIN = new Set([
  "type", "enum", "const", "multipleOf", "maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems",
  "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "dependentRequired", "title",
  "description", "default", "deprecated", "readOnly", "writeOnly", "examples", "contentEncoding", "contentMediaType",
]);
const ONE = ["additionalProperties", "propertyNames", "items", "contains", "not", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"];
const MANY = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "dependentSchemas", "$defs"];
const TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** Set an own property, even `__proto__` (plain assignment would change the prototype instead). */
export function put(o: object, key: string, value: unknown): void {
  // Only `__proto__` is an accessor on Object.prototype; every other key is assigned (a fast property).
  if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else (o as Record<string, unknown>)[key] = value;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function own(o: JsonObject, key: string): Json | undefined {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/**
 * A deep copy of a JSON value whose keys are all own data properties (no prototype tricks).
 * Recursive: what it copies was read under the YAML depth limit (256), and the contract's depth is
 * checked before it is written.
 */
export function copyJson(v: unknown): Json {
  if (Array.isArray(v)) return v.map((x) => copyJson(x));
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) put(out, k, copyJson(v[k]));
    return out;
  }
  // JSON.parse reads 1e400 as Infinity, which JSON cannot hold: kept as the YAML reader keeps it, a string.
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  return typeof v === "string" || typeof v === "boolean" ? v : null;
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function pointerOf(...segments: Array<string | number>): string {
  return segments.map((s) => `/${escapePointer(String(s))}`).join("");
}

/** Resolve a local `#/…` reference inside the document; undefined when it names nothing. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return doc;
  if (!fragment.startsWith("/")) return undefined;
  let node: unknown = doc;
  for (const raw of fragment.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && Object.prototype.hasOwnProperty.call(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

export interface SchemaContext {
  readonly doc: unknown;
  /** "3.0" keeps `nullable`, boolean exclusive bounds and `example` in mind. */
  readonly dialect: "3.0" | "3.1";
  /** components.schemas name → contract type name. */
  readonly typeNames: ReadonlyMap<string, string>;
  /**
   * The type a reference that is not a component schema becomes, or undefined to inline it. Called
   * with `recursive` when the reference is met again inside its own target.
   */
  readonly typeForRef?: (ref: string, recursive: boolean) => string | undefined;
  readonly review: (kind: ReviewKind, pointer: string, message: string) => void;
  /** Told the pointer of each schema `x-contract` read (the import reports those it never reads). */
  readonly onContractExtension?: (pointer: string) => void;
  /** Told each key path a schema's `x-contract` at `pointer` sets (to locate it: `pointer/x-contract/…`). */
  readonly onSchemaPatch?: (pointer: string, path: readonly string[]) => void;
}

const COMPONENT_SCHEMA = /^#\/components\/schemas\/([^/]+)$/;

/** The component schema a `$ref` names directly, if any. */
export function componentName(ref: string): string | undefined {
  const m = COMPONENT_SCHEMA.exec(ref);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!).replace(/~1/g, "/").replace(/~0/g, "~");
  } catch {
    return undefined;
  }
}

/** Convert one schema found at `pointer` (a JSON pointer into the OpenAPI document). */
export function convertSchema(ctx: SchemaContext, node: unknown, pointer: string): Json {
  return convert(ctx, node, pointer, 0, new Set());
}

function convert(ctx: SchemaContext, node: unknown, pointer: string, depth: number, inlining: Set<string>): Json {
  if (typeof node === "boolean") return node;
  if (!isObject(node)) {
    ctx.review("keyword-dropped", pointer, "A schema that is neither an object nor a boolean was replaced by {}.");
    return {};
  }
  // The contract's own limit (checked again on the contract, where wrappers such as nullable's anyOf count too).
  if (depth >= MAX_SCHEMA_DEPTH) {
    throw new ImportRefusal("openapi-schema-depth-limit", pointer, `This schema is nested more than ${MAX_SCHEMA_DEPTH} subschemas deep; a contract's schemas nest at most ${MAX_SCHEMA_DEPTH}.`);
  }
  const out: JsonObject = {};
  const ref = own(node, "$ref");
  if (typeof ref === "string") {
    const name = componentName(ref);
    const target = name === undefined ? resolvePointer(ctx.doc, ref) : undefined;
    const typeName = name !== undefined ? ctx.typeNames.get(name) : target !== undefined ? ctx.typeForRef?.(ref, inlining.has(ref)) : undefined;
    if (typeName !== undefined) {
      put(out, "$ref", `#/types/${typeName}`);
    } else {
      // Not a whole component schema, and used once: inline its target (recursion through it becomes {}).
      if (target === undefined || inlining.has(ref) || inlining.size >= MAX_REF_CHAIN) {
        ctx.review("ref-unresolved", pointer, target === undefined ? `$ref ${JSON.stringify(ref)} names nothing in the bundled document.` : `$ref ${JSON.stringify(ref)} recurses into itself and is not a component schema; replaced by {}.`);
        return {};
      }
      const inner = new Set(inlining).add(ref);
      // In 3.0 siblings of $ref are ignored; in 3.1 they apply alongside it, so the target goes one level down.
      const wrapped = ctx.dialect !== "3.0" && Object.keys(node).length > 1;
      const inlined = convert(ctx, target, ref.slice(1), wrapped ? depth + 1 : depth, inner);
      if (!wrapped) return inlined;
      put(out, "allOf", [inlined]);
    }
    if (ctx.dialect === "3.0") {
      // OpenAPI 3.0 ignores every sibling of $ref, except that tools honour `nullable` and `description`
      // (and the contract's own `x-unit` and `x-contract`, which say what the reference means here).
      const desc = own(node, "description");
      if (typeof desc === "string" && desc !== "") put(out, "description", desc);
      contractExtensions(ctx, node, out, pointer);
      if (own(node, "nullable") === true) return { anyOf: [out, { type: "null" }] };
      return out;
    }
  }
  const nullable = own(node, "nullable") === true;
  for (const key of Object.keys(node)) {
    const value = node[key];
    const at = `${pointer}/${escapePointer(key)}`;
    if (key === "$ref" || key === "nullable") continue;
    if (key === "x-unit") {
      put(out, key, copyJson(value)); // a contract schema keyword
      continue;
    }
    if (key === "x-extensible-enum") {
      // The values a string is known to take, the set left open (a contract schema keyword).
      if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string") && new Set(value).size === value.length) put(out, key, copyJson(value));
      else ctx.review("keyword-dropped", at, `x-extensible-enum ${JSON.stringify(value).slice(0, 80)} is not a list of distinct strings; dropped.`);
      continue;
    }
    if (key === "x-sunset") {
      // A field's sunset (a contract schema keyword, as a date): it implies deprecation.
      const date = sunsetDate(value);
      if (date === null) ctx.review("sunset-unreadable", at, `x-sunset ${JSON.stringify(value)} is not a date: deprecated without a sunset.`);
      else put(out, key, date);
      if (own(node, "deprecated") === undefined) put(out, "deprecated", true);
      continue;
    }
    if (key.startsWith("x-")) continue; // vendor annotations: generators drop them anyway (counted once per document); x-contract is merged below
    if (key === "type") {
      const types = (Array.isArray(value) ? value : [value]).filter((t): t is string => typeof t === "string" && TYPES.has(t));
      const all = Array.isArray(value) ? value.length : 1;
      if (types.length !== all) ctx.review("keyword-dropped", at, `type ${JSON.stringify(value)} is not a JSON Schema type; ${types.length > 0 ? "kept the valid ones" : "dropped"}.`);
      if (types.length === 1) put(out, "type", types[0]);
      else if (types.length > 1) put(out, "type", types);
      continue;
    }
    if (key === "format") {
      if (typeof value === "string" && KNOWN_FORMATS.has(value)) put(out, "format", value);
      else ctx.review("keyword-dropped", at, `format ${JSON.stringify(value)} is not checked by the generated validators; dropped.`);
      continue;
    }
    if (key === "pattern") {
      if (typeof value === "string" && compiles(value)) put(out, "pattern", value);
      else ctx.review("keyword-dropped", at, `pattern ${JSON.stringify(value)} is not an ECMAScript (u flag) regular expression; dropped.`);
      continue;
    }
    if (key === "required") {
      if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
        const distinct = [...new Set(value as string[])];
        if (distinct.length > 0) put(out, "required", distinct);
      } else ctx.review("keyword-dropped", at, "required is not a list of property names; dropped.");
      continue;
    }
    if ((key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof value === "boolean") {
      // 3.0: a boolean flag on minimum/maximum; 2020-12: the bound itself.
      const bound = own(node, key === "exclusiveMinimum" ? "minimum" : "maximum");
      if (value && typeof bound === "number" && Number.isFinite(bound)) put(out, key, bound);
      continue;
    }
    if (key === "exclusiveMinimum" || key === "exclusiveMaximum") {
      if (typeof value === "number" && Number.isFinite(value)) put(out, key, value);
      else ctx.review("keyword-dropped", at, `${key} ${JSON.stringify(value)} is not a finite number; dropped.`);
      continue;
    }
    if ((key === "minimum" || key === "maximum") && own(node, key === "minimum" ? "exclusiveMinimum" : "exclusiveMaximum") === true) continue;
    if (key === "example") {
      if (own(node, "examples") === undefined) put(out, "examples", [copyJson(value)]);
      continue;
    }
    if (key === "examples" && !Array.isArray(value)) {
      ctx.review("keyword-dropped", at, "examples is not a list; dropped.");
      continue;
    }
    if (key === "enum") {
      if (!Array.isArray(value) || value.length === 0) {
        ctx.review("keyword-dropped", at, "enum is not a non-empty list; dropped.");
        continue;
      }
      const values = value.map((v) => copyJson(v));
      if (nullable && !values.includes(null)) values.push(null);
      put(out, "enum", values);
      continue;
    }
    if (PLAIN.has(key)) {
      const wrong = plainValueProblem(key, value);
      if (wrong !== undefined) ctx.review("keyword-dropped", at, `${key} ${wrong}; dropped.`);
      else put(out, key, copyJson(value));
      continue;
    }
    if (key === "$dynamicRef" || key === "$recursiveRef") {
      // Resolved by where the schema is used, at validation time: nothing the contract can express.
      ctx.review("ref-unresolved", at, `${key} ${JSON.stringify(value)} cannot be followed (it depends on the schemas around its use); the values it describes are not checked.`);
      continue;
    }
    if (ONE.includes(key)) {
      if (key === "items" && Array.isArray(value)) {
        put(out, "prefixItems", value.map((v, i) => convert(ctx, v, `${at}/${i}`, depth + 1, inlining)));
        continue;
      }
      put(out, key, convert(ctx, value, at, depth + 1, inlining));
      continue;
    }
    if (MANY.includes(key)) {
      if (!Array.isArray(value) || value.length === 0) {
        ctx.review("keyword-dropped", at, `${key} is not a non-empty list; dropped.`);
        continue;
      }
      put(out, key, value.map((v, i) => convert(ctx, v, `${at}/${i}`, depth + 1, inlining)));
      continue;
    }
    if (MAP.includes(key)) {
      if (!isObject(value)) {
        ctx.review("keyword-dropped", at, `${key} is not a mapping; dropped.`);
        continue;
      }
      if (key === "patternProperties") {
        const props: JsonObject = {};
        for (const p of Object.keys(value)) {
          if (compiles(p)) put(props, p, convert(ctx, value[p], `${at}/${escapePointer(p)}`, depth + 1, inlining));
          else ctx.review("keyword-dropped", `${at}/${escapePointer(p)}`, `patternProperties key ${JSON.stringify(p)} is not an ECMAScript regular expression; dropped.`);
        }
        put(out, key, props);
        continue;
      }
      const props: JsonObject = {};
      for (const p of Object.keys(value)) put(props, p, convert(ctx, value[p], `${at}/${escapePointer(p)}`, depth + 1, inlining));
      put(out, key, props);
      continue;
    }
    ctx.review("keyword-dropped", at, `${key} is not a JSON Schema 2020-12 keyword the contract keeps; dropped.`);
  }
  contractExtensions(ctx, node, out, pointer, false);
  const schema = annotatedReference(out) ?? out;
  if (nullable) return nullableOf(schema);
  return schema;
}

/**
 * The contract's own keywords on an OpenAPI schema: `x-unit` kept, and `x-contract` (schema keywords
 * of the contract format, `x-unit` or `description` say) merged into the converted schema as an
 * RFC 7396 merge patch. A non-mapping `x-contract` is reported and ignored.
 */
function contractExtensions(ctx: SchemaContext, node: JsonObject, out: JsonObject, pointer: string, unit = true): void {
  const u = own(node, "x-unit");
  if (unit && u !== undefined) put(out, "x-unit", copyJson(u));
  const patch = own(node, "x-contract");
  if (patch === undefined) return;
  ctx.onContractExtension?.(`${pointer}/x-contract`);
  if (!isObject(patch)) {
    ctx.review("x-contract-invalid", `${pointer}/x-contract`, "x-contract on a schema is not a mapping of schema keywords; ignored.");
    return;
  }
  mergePatch(out, patch, ctx.onSchemaPatch === undefined ? undefined : (path) => ctx.onSchemaPatch!(pointer, path));
}

/**
 * RFC 7396 JSON Merge Patch, in place: objects merge recursively, `null` deletes a key, anything else
 * (arrays, scalars) replaces. Writes go through `put`, so a `__proto__` or `constructor` key is data.
 * `set` is told the path of every key the patch sets: each leaf, and each object it creates.
 */
export function mergePatch(target: JsonObject, patch: JsonObject, set?: (path: readonly string[]) => void, path: readonly string[] = []): void {
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    const at = [...path, key];
    if (value === null) {
      if (Object.prototype.hasOwnProperty.call(target, key)) delete target[key];
      continue;
    }
    if (isObject(value)) {
      let inner = own(target, key);
      if (!isObject(inner)) {
        inner = {};
        put(target, key, inner);
        set?.(at);
      }
      mergePatch(inner, value, set, at);
      continue;
    }
    put(target, key, copyJson(value));
    set?.(at);
  }
}

const COUNT_KEYWORDS = new Set(["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"]);
const BOUND_KEYWORDS = new Set(["maximum", "minimum"]);
const FLAG_KEYWORDS = new Set(["uniqueItems", "deprecated", "readOnly", "writeOnly"]);
const TEXT_KEYWORDS = new Set(["title", "description", "contentEncoding", "contentMediaType"]);

/** What is wrong with a copied keyword's value for JSON Schema 2020-12 (so `validate` would refuse it), if anything. */
function plainValueProblem(key: string, value: unknown): string | undefined {
  if (COUNT_KEYWORDS.has(key)) return typeof value === "number" && Number.isInteger(value) && value >= 0 ? undefined : `${JSON.stringify(value)} is not a count (a whole number, 0 or more)`;
  if (BOUND_KEYWORDS.has(key)) return typeof value === "number" && Number.isFinite(value) ? undefined : `${JSON.stringify(value)} is not a finite number`;
  if (key === "multipleOf") return typeof value === "number" && Number.isFinite(value) && value > 0 ? undefined : `${JSON.stringify(value)} is not a number above 0`;
  if (FLAG_KEYWORDS.has(key)) return typeof value === "boolean" ? undefined : `${JSON.stringify(value)} is not true or false`;
  if (TEXT_KEYWORDS.has(key)) return typeof value === "string" ? undefined : "is not a string";
  if (key === "dependentRequired") {
    const ok = isObject(value) && Object.keys(value).every((k) => Array.isArray(value[k]) && (value[k] as unknown[]).every((n) => typeof n === "string") && new Set(value[k] as unknown[]).size === (value[k] as unknown[]).length);
    return ok ? undefined : "is not a mapping of property names to lists of distinct names";
  }
  return undefined;
}

/** Keywords that describe a value without constraining it. */
const ANNOTATIONS: ReadonlySet<string> = new Set(["title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples"]);
const onlyAnnotations = (o: JsonObject, except?: string) => Object.keys(o).every((k) => k === except || ANNOTATIONS.has(k));

/**
 * OpenAPI 3.0 ignores the siblings of `$ref`, so documents describe a reference by wrapping it:
 * `allOf: [{$ref: X}, {description: …}]`. In 2020-12 `$ref` takes siblings, so that is `{$ref: X,
 * description: …}`: the same schema, read (and typed) as X rather than as an intersection. The
 * outer node's annotations win over a branch's.
 */
function annotatedReference(schema: JsonObject): JsonObject | undefined {
  const branches = own(schema, "allOf");
  if (!Array.isArray(branches) || !onlyAnnotations(schema, "allOf")) return undefined;
  const refs = branches.filter((b) => isObject(b) && typeof own(b, "$ref") === "string");
  if (refs.length !== 1 || !branches.every((b) => isObject(b) && onlyAnnotations(b, b === refs[0] ? "$ref" : undefined))) return undefined;
  const out: JsonObject = {};
  put(out, "$ref", own(refs[0] as JsonObject, "$ref"));
  for (const source of [schema, ...(branches as JsonObject[])]) {
    for (const key of Object.keys(source)) if (ANNOTATIONS.has(key) && own(out, key) === undefined) put(out, key, own(source, key));
  }
  return out;
}

/** OpenAPI 3.0 `nullable: true` in 2020-12 terms. */
function nullableOf(schema: JsonObject): JsonObject {
  const type = own(schema, "type");
  if (typeof type === "string") {
    if (type !== "null") put(schema, "type", [type, "null"]);
    return schema;
  }
  if (Array.isArray(type)) {
    if (!type.includes("null")) put(schema, "type", [...type, "null"]);
    return schema;
  }
  if (own(schema, "enum") !== undefined) return schema; // null was added to the enum
  return { anyOf: [schema, { type: "null" }] };
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * A shallow look at what a schema is, through `$ref`s and `allOf` (bounded): its types, its
 * top-level properties (name → original schema) and whether it is an array. Used to decide bodies
 * and pagination, never to emit.
 */
export interface Shape {
  readonly types: ReadonlySet<string>;
  readonly properties: ReadonlyMap<string, unknown>;
  readonly required: ReadonlySet<string>;
  /** Composed with anyOf/oneOf/not, or open in a way that makes merging unsafe. */
  readonly composed: boolean;
  readonly items?: unknown;
}

export function shapeOf(doc: unknown, node: unknown, depth = 0): Shape {
  const types = new Set<string>();
  const properties = new Map<string, unknown>();
  const required = new Set<string>();
  let composed = false;
  let items: unknown;
  const visit = (n: unknown, d: number) => {
    if (d > MAX_REF_CHAIN || !isObject(n)) return;
    const ref = own(n, "$ref");
    if (typeof ref === "string") {
      visit(resolvePointer(doc, ref), d + 1);
      return;
    }
    const t = own(n, "type");
    for (const x of Array.isArray(t) ? t : [t]) if (typeof x === "string") types.add(x);
    const props = own(n, "properties");
    if (isObject(props)) for (const k of Object.keys(props)) if (!properties.has(k)) properties.set(k, props[k]);
    const req = own(n, "required");
    if (Array.isArray(req)) for (const r of req) if (typeof r === "string") required.add(r);
    if (own(n, "items") !== undefined) items = own(n, "items");
    if (own(n, "anyOf") !== undefined || own(n, "oneOf") !== undefined || own(n, "not") !== undefined || own(n, "if") !== undefined) composed = true;
    const all = own(n, "allOf");
    if (Array.isArray(all)) for (const sub of all) visit(sub, d + 1);
  };
  visit(node, depth);
  if (properties.size > 0 && types.size === 0) types.add("object");
  return { types, properties, required, composed, items };
}

/** A sunset as YYYY-MM-DD from a date, a date-time or an HTTP date; null when it is none of these. */
export function sunsetDate(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  if (typeof value !== "string" || value.trim() === "") return null;
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ? null : text;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}
