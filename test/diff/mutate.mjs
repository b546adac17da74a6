/**
 * Random, reproducible mutations of contract documents, for the "nothing silent" invariant of the
 * diff (issue 24 item 5): models differ ⇒ at least one finding; models equal ⇒ none.
 *
 * Plain JavaScript (no build step) so that both the vitest property test
 * (test/diff/nothing-silent.test.ts) and scripts/silent-report.mjs use the very same mutations.
 * Parsing and diffing are passed in (`Engine`): the test gives the sources, the script dist/.
 *
 * A mutation works on the plain JS value of the YAML document (the `yaml` package), changes one
 * place, and reports what it did: kind, op (add/remove/change/reorder/noop), the JSON pointer of
 * the place, and the value before and after. Every choice comes from a seeded PRNG (Rng), so
 * (file, kind, seed) reproduces a mutation exactly.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";

// ---------------------------------------------------------------------------------------------
// Randomness

/** mulberry32: small, fast, seeded; good enough to pick places and values. */
export class Rng {
  constructor(seed) {
    this.s = seed >>> 0;
  }
  next() {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n) {
    return Math.floor(this.next() * n);
  }
  pick(list) {
    return list[this.int(list.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  shuffle(list) {
    const a = [...list];
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

const clone = (v) => (v === undefined ? undefined : structuredClone(v));
const isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const esc = (s) => String(s).replace(/~/g, "~0").replace(/\//g, "~1");
export const pointer = (path) => (path.length === 0 ? "" : "/" + path.map(esc).join("/"));

function getAt(doc, path) {
  let v = doc;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = v[seg];
  }
  return v;
}

/** Sets (or, with value undefined, deletes) the value at path; returns the value before. */
function setAt(doc, path, value) {
  let parent = doc;
  for (const seg of path.slice(0, -1)) {
    if (parent[seg] === null || typeof parent[seg] !== "object") {
      if (value === undefined) return undefined;
      parent[seg] = {};
    }
    parent = parent[seg];
  }
  const key = path[path.length - 1];
  const before = clone(parent[key]);
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else parent[key] = value;
  return before;
}

const change = (kind, op, path, before, after) => ({ kind, op, pointer: pointer(path), before, after });

/** Writes `after` at path (undefined: delete) and describes it. */
function write(doc, kind, path, after, op) {
  const before = setAt(doc, path, clone(after));
  return change(kind, op ?? (before === undefined ? "add" : after === undefined ? "remove" : "change"), path, before, after);
}

// ---------------------------------------------------------------------------------------------
// Schema positions

/** Keywords whose value is a map of name → schema. */
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "dependentSchemas"];
/** Keywords whose value is one schema. */
const SCHEMA_ONE = ["items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contains", "propertyNames", "if", "then", "else", "not", "contentSchema"];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = ["prefixItems", "allOf", "anyOf", "oneOf"];

/** Where the document writes schemas: types, operation input/output, preview output, error details. */
export function schemaRoots(doc) {
  const roots = [];
  for (const name of Object.keys(isObj(doc.types) ? doc.types : {})) roots.push(["types", name]);
  for (const [id, op] of Object.entries(isObj(doc.operations) ? doc.operations : {})) {
    if (!isObj(op)) continue;
    if ("input" in op) roots.push(["operations", id, "input"]);
    if ("output" in op) roots.push(["operations", id, "output"]);
    if (isObj(op.preview) && "output" in op.preview) roots.push(["operations", id, "preview", "output"]);
  }
  for (const [code, e] of Object.entries(isObj(doc.errors) ? doc.errors : {})) if (isObj(e) && "details" in e) roots.push(["errors", code, "details"]);
  return roots;
}

/** Every object schema of the document, at any depth, with its path. */
export function schemaNodes(doc) {
  const out = [];
  const walk = (node, path, depth) => {
    if (!isObj(node) || depth > 24) return;
    out.push({ path, node });
    for (const k of SCHEMA_MAPS) if (isObj(node[k])) for (const name of Object.keys(node[k])) walk(node[k][name], [...path, k, name], depth + 1);
    for (const k of SCHEMA_ONE) walk(node[k], [...path, k], depth + 1);
    for (const k of SCHEMA_LISTS) if (Array.isArray(node[k])) node[k].forEach((sub, i) => walk(sub, [...path, k, i], depth + 1));
  };
  for (const root of schemaRoots(doc)) walk(getAt(doc, root), root, 0);
  return out;
}

const TYPES = ["string", "integer", "number", "boolean", "object", "array", "null"];
const propNames = (node) => (isObj(node.properties) ? Object.keys(node.properties) : []);
const mainType = (node) => (Array.isArray(node.type) ? node.type.find((t) => t !== "null") : node.type);

/** A value of the node's type, for default / const / examples / enum. */
function valueFor(node, rng, variant = 0) {
  switch (mainType(node)) {
    case "integer":
      return rng.int(50) + 1 + variant;
    case "number":
      return rng.int(50) + 0.5 + variant;
    case "boolean":
      return variant % 2 === 0;
    case "array":
      return [variant];
    case "object":
      return { m: variant };
    case "null":
      return null;
    default:
      if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[(rng.int(node.enum.length) + variant) % node.enum.length];
      return `m${rng.int(1000)}_${variant}`;
  }
}

/** A different value of the same JSON type. */
function tweak(v, rng) {
  if (typeof v === "number") return Number.isInteger(v) ? rng.pick([v + 1, v * 2 + 1, Math.max(0, v - 1) === v ? v + 2 : v - 1]) : Math.round((v * 2 + 0.25) * 100) / 100;
  if (typeof v === "string") return v + rng.pick(["_x", "x", " (changed)"]);
  if (typeof v === "boolean") return !v;
  if (Array.isArray(v)) return v.length > 0 && rng.chance(0.5) ? v.slice(1) : [...v, typeof v[0] === "number" ? 99 : "added"];
  if (isObj(v)) return { ...v, m_added: 1 };
  return "changed";
}

/** A small schema. */
const smallSchema = (rng) => rng.pick([{ type: "string" }, { type: "integer", minimum: 0 }, { type: "boolean" }, { type: "string", maxLength: 10 }, { const: "fixed" }]);

/** A changed schema (boolean flipped, type changed, or a keyword added). */
function changeSchema(old, rng) {
  if (typeof old === "boolean") return rng.chance(0.5) ? !old : smallSchema(rng);
  const choice = rng.int(3);
  if (choice === 0) return rng.pick([true, false]);
  if (choice === 1) return { ...old, type: rng.pick(TYPES.filter((t) => t !== old.type)) };
  return { ...old, description: "Changed subschema." };
}

/** Change a list: add a member, remove one, or reorder. */
function changeList(old, rng, fresh) {
  const r = rng.int(3);
  if (r === 0 || old.length < 2) return [...old, fresh];
  if (r === 1) return old.filter((_, i) => i !== rng.int(old.length));
  return [...old].reverse();
}

/** Per keyword: the value to add where absent, and a changed value where present. */
const KEYWORDS = {
  type: {
    add: (n, rng) => (rng.chance(0.3) ? [rng.pick(TYPES.slice(0, 6)), "null"] : rng.pick(TYPES)),
    change: (old, n, rng) => {
      if (Array.isArray(old)) return old.includes("null") && rng.chance(0.5) ? old.filter((t) => t !== "null") : rng.pick(TYPES.filter((t) => !old.includes(t)));
      return rng.chance(0.5) ? [old, old === "null" ? "string" : "null"] : rng.pick(TYPES.filter((t) => t !== old));
    },
  },
  enum: {
    add: (n, rng) => [valueFor(n, rng, 0), valueFor(n, rng, 1)],
    change: (old, n, rng) => changeList(old, rng, typeof old[0] === "number" ? Math.max(0, ...old.filter((x) => typeof x === "number")) + 1 : `new_${rng.int(100)}`),
  },
  const: { add: (n, rng) => valueFor(n, rng), change: (old, n, rng) => tweak(old, rng) },
  minimum: { add: (n, rng) => rng.pick([0, 1, 10]), change: (old, n, rng) => tweak(old, rng) },
  maximum: { add: (n, rng) => rng.pick([100, 1000, 50]), change: (old, n, rng) => tweak(old, rng) },
  exclusiveMinimum: { add: (n, rng) => rng.pick([0, 1]), change: (old, n, rng) => tweak(old, rng) },
  exclusiveMaximum: { add: (n, rng) => rng.pick([100, 1000]), change: (old, n, rng) => tweak(old, rng) },
  multipleOf: { add: (n, rng) => rng.pick([0.01, 1, 2, 5]), change: (old, n, rng) => rng.pick([0.01, 0.5, 1, 2, 5].filter((x) => x !== old)) },
  minLength: { add: (n, rng) => rng.pick([1, 2, 3]), change: (old, n, rng) => tweak(old, rng) },
  maxLength: { add: (n, rng) => rng.pick([10, 64, 255]), change: (old, n, rng) => tweak(old, rng) },
  pattern: { add: (n, rng) => rng.pick(["^[a-z_]+$", "^x", "[0-9]"]), change: (old, n, rng) => rng.pick([old + "x", "^[A-Za-z0-9_]*$"]) },
  format: { add: (n, rng) => rng.pick(["email", "uuid", "date-time", "uri", "date"]), change: (old, n, rng) => rng.pick(["email", "uuid", "date-time", "uri", "date", "ipv4"].filter((f) => f !== old)) },
  minItems: { add: (n, rng) => rng.pick([1, 2]), change: (old, n, rng) => tweak(old, rng) },
  maxItems: { add: (n, rng) => rng.pick([10, 100]), change: (old, n, rng) => tweak(old, rng) },
  uniqueItems: { add: (n, rng) => rng.pick([true, false]), change: (old) => !old },
  contains: { add: (n, rng) => smallSchema(rng), change: (old, n, rng) => changeSchema(old, rng) },
  minContains: { add: (n, rng) => rng.pick([0, 1, 2]), change: (old, n, rng) => tweak(old, rng) },
  maxContains: { add: (n, rng) => rng.pick([3, 10]), change: (old, n, rng) => tweak(old, rng) },
  prefixItems: { add: (n, rng) => [smallSchema(rng), smallSchema(rng)], change: (old, n, rng) => changeList(old, rng, smallSchema(rng)) },
  items: { add: (n, rng) => (rng.chance(0.2) ? false : smallSchema(rng)), change: (old, n, rng) => changeSchema(old, rng) },
  minProperties: { add: (n, rng) => rng.pick([1, 2]), change: (old, n, rng) => tweak(old, rng) },
  maxProperties: { add: (n, rng) => rng.pick([5, 20]), change: (old, n, rng) => tweak(old, rng) },
  required: {
    add: (n, rng) => [propNames(n).length > 0 ? rng.pick(propNames(n)) : "id"],
    change: (old, n, rng) => {
      const optional = propNames(n).filter((p) => !old.includes(p));
      const r = rng.int(3);
      if (r === 0 && optional.length > 0) return [...old, rng.pick(optional)];
      if (r === 1 && old.length > 0) return old.filter((_, i) => i !== rng.int(old.length));
      return old.length > 1 ? [...old].reverse() : [...old, "m_new"];
    },
  },
  dependentRequired: {
    add: (n, rng) => {
      const ps = propNames(n);
      return ps.length >= 2 ? { [ps[0]]: [ps[1]] } : { a: ["b"] };
    },
    change: (old, n, rng) => {
      const keys = Object.keys(old);
      if (keys.length > 0 && rng.chance(0.5)) return { ...old, [keys[0]]: [...old[keys[0]], "m_new"] };
      return keys.length > 1 ? Object.fromEntries(Object.entries(old).slice(1)) : { ...old, m_other: ["m_new"] };
    },
  },
  dependentSchemas: {
    add: (n, rng) => {
      const ps = propNames(n);
      return { [ps[0] ?? "a"]: { required: [ps[1] ?? "b"] } };
    },
    change: (old, n, rng) => {
      const keys = Object.keys(old);
      return rng.chance(0.5) && keys.length > 0 ? { ...old, [keys[0]]: changeSchema(old[keys[0]], rng) } : { ...old, m_other: { required: ["m_new"] } };
    },
  },
  propertyNames: { add: (n, rng) => rng.pick([{ pattern: "^[a-z_]+$" }, { maxLength: 40 }]), change: (old, n, rng) => changeSchema(old, rng) },
  patternProperties: {
    add: (n, rng) => ({ "^x_": smallSchema(rng) }),
    change: (old, n, rng) => {
      const keys = Object.keys(old);
      const r = rng.int(3);
      if (r === 0 && keys.length > 0) return { ...old, [keys[0]]: changeSchema(old[keys[0]], rng) };
      if (r === 1 && keys.length > 0) return Object.fromEntries(Object.entries(old).slice(1));
      return { ...old, "^m_": smallSchema(rng) };
    },
  },
  additionalProperties: { add: (n, rng) => rng.pick([false, true, { type: "string" }]), change: (old, n, rng) => changeSchema(old, rng) },
  unevaluatedItems: { add: (n, rng) => rng.pick([false, true, { type: "string" }]), change: (old, n, rng) => changeSchema(old, rng) },
  unevaluatedProperties: { add: (n, rng) => rng.pick([false, true, { type: "string" }]), change: (old, n, rng) => changeSchema(old, rng) },
  if: {
    add: (n, rng) => {
      const p = propNames(n)[0] ?? "kind";
      return { properties: { [p]: { const: valueFor(n.properties?.[p] ?? {}, rng) } }, required: [p] };
    },
    change: (old, n, rng) => changeSchema(old, rng),
  },
  then: { add: (n, rng) => ({ required: [rng.pick(propNames(n).length ? propNames(n) : ["id"])] }), change: (old, n, rng) => changeSchema(old, rng) },
  else: { add: (n, rng) => ({ required: [rng.pick(propNames(n).length ? propNames(n) : ["id"])] }), change: (old, n, rng) => changeSchema(old, rng) },
  not: { add: (n, rng) => rng.pick([{ type: "null" }, { const: "forbidden" }]), change: (old, n, rng) => changeSchema(old, rng) },
  allOf: { add: (n, rng) => [smallSchema(rng)], change: (old, n, rng) => changeList(old, rng, { description: "Added member." }) },
  anyOf: { add: (n, rng) => [smallSchema(rng), { type: "null" }], change: (old, n, rng) => changeList(old, rng, smallSchema(rng)) },
  oneOf: { add: (n, rng) => [smallSchema(rng), { type: "null" }], change: (old, n, rng) => changeList(old, rng, smallSchema(rng)) },
  contentMediaType: { add: (n, rng) => rng.pick(["application/json", "image/png"]), change: (old, n, rng) => rng.pick(["text/plain", "application/pdf"].filter((x) => x !== old)) },
  contentEncoding: { add: (n, rng) => rng.pick(["base64", "base32"]), change: (old, n, rng) => rng.pick(["base64", "base64url", "quoted-printable"].filter((x) => x !== old)) },
  contentSchema: { add: (n, rng) => ({ type: "object" }), change: (old, n, rng) => changeSchema(old, rng) },
  readOnly: { add: (n, rng) => rng.pick([true, false]), change: (old) => !old },
  writeOnly: { add: (n, rng) => rng.pick([true, false]), change: (old) => !old },
  deprecated: { add: (n, rng) => rng.pick([true, false]), change: (old) => !old },
  default: { add: (n, rng) => valueFor(n, rng), change: (old, n, rng) => tweak(old, rng) },
  examples: { add: (n, rng) => [valueFor(n, rng)], change: (old, n, rng) => (Array.isArray(old) ? [...old, valueFor(n, rng, 1)] : [valueFor(n, rng)]) },
  title: { add: () => "A title", change: (old, n, rng) => tweak(String(old), rng) },
  description: { add: () => "A description.", change: (old, n, rng) => tweak(String(old), rng) },
  "x-unit": { add: (n, rng) => rng.pick(["cents", "seconds", "bytes"]), change: (old, n, rng) => rng.pick(["cents", "dollars", "seconds", "ms", "bytes"].filter((u) => u !== old)) },
  $comment: { add: () => "A comment.", change: (old, n, rng) => tweak(String(old), rng) },
  properties: {
    add: (n, rng) => ({ m_field: smallSchema(rng) }),
    change: (old, n, rng) => {
      const keys = Object.keys(old);
      const r = rng.int(3);
      if (r === 0 || keys.length === 0) return { ...old, [`m_field${rng.int(10)}`]: smallSchema(rng) };
      const victim = rng.pick(keys);
      if (r === 1) return Object.fromEntries(Object.entries(old).filter(([k]) => k !== victim));
      // Renamed property, same schema.
      return Object.fromEntries(Object.entries(old).map(([k, v]) => [k === victim ? `${k}_renamed` : k, v]));
    },
  },
  $ref: {
    add: null,
    change: (old, n, rng, doc) => {
      const others = Object.keys(isObj(doc.types) ? doc.types : {}).map((t) => `#/types/${t}`).filter((r) => r !== old);
      return others.length > 0 ? rng.pick(others) : undefined;
    },
  },
};

/** One mutation kind per keyword: add it where absent, change or remove it where present. */
function keywordKind(keyword) {
  const gen = KEYWORDS[keyword];
  const name = `schema.${keyword}`;
  return {
    name,
    group: "schema",
    apply(doc, rng) {
      const nodes = schemaNodes(doc);
      const having = nodes.filter((n) => Object.hasOwn(n.node, keyword));
      const candidates = gen.add ? nodes : having;
      if (candidates.length === 0) return null;
      const target = having.length > 0 && (rng.chance(0.6) || !gen.add) ? rng.pick(having) : rng.pick(candidates);
      const path = [...target.path, keyword];
      if (Object.hasOwn(target.node, keyword)) {
        const before = target.node[keyword];
        let after = rng.chance(0.3) ? undefined : gen.change(clone(before), target.node, rng, doc);
        if (after !== undefined && same(after, before)) after = undefined;
        return write(doc, name, path, after, after === undefined ? "remove" : "change");
      }
      return write(doc, name, path, gen.add(target.node, rng, doc), "add");
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Non-schema places

const ENUMS = {
  method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
  idempotent: ["natural", "key", "none"],
  class: ["invalid_input", "not_found", "conflict", "permission", "unauthenticated", "rate_limited", "transient", "internal"],
  action: ["fix_field", "verify_identifier", "reread_and_replan", "reconcile", "stop_and_surface", "reauthenticate", "retry_after", "retry_same_key"],
  scope: ["caller", "tenant", "global"],
  in: ["header", "query", "cookie"],
  style: ["form", "spaceDelimited", "pipeDelimited", "deepObject", "simple"],
  contentType: ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"],
};
const STATUSES = [200, 201, 202, 204, 400, 401, 403, 404, 409, 410, 412, 422, 429, 500, 502, 503, 504];
/** Keys below which a leaf mutation does not go: schema positions have their own kinds. */
const SCHEMA_KEYS = new Set(["input", "output", "details"]);

/** Scalar values written under each key anywhere in the document (for plausible replacements). */
function valuesByKey(doc) {
  const out = new Map();
  const walk = (v, key) => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (isObj(v)) for (const [k, x] of Object.entries(v)) walk(x, k);
    else if (key !== undefined && (typeof v === "string" || typeof v === "number")) {
      if (!out.has(key)) out.set(key, new Set());
      out.get(key).add(v);
    }
  };
  walk(doc, undefined);
  return out;
}

/** Another plausible value for the scalar `old` written under `key`. */
function otherScalar(key, old, path, doc, rng) {
  if (typeof old === "boolean") return !old;
  if (key === "kind" && path.includes("effects")) return old === "read" ? "mutating" : "read";
  if (ENUMS[key] && typeof old === "string") return rng.pick(ENUMS[key].filter((x) => x !== old));
  if (typeof old === "number") {
    if (old >= 100 && old < 600 && Number.isInteger(old) && (key === "http" || key === "successStatus" || /^\d+$/.test(key))) return rng.pick(STATUSES.filter((s) => s !== old));
    return tweak(old, rng);
  }
  // Names of things the document declares: another declared one keeps the contract valid.
  const declared = /(^e|E)rror$/.test(key) ? Object.keys(doc.errors ?? {}) : ["readWith", "pollWith", "undo", "replacement"].includes(key) ? Object.keys(doc.operations ?? {}) : key === "toolset" ? Object.keys(doc.toolsets ?? {}) : [];
  if (declared.filter((v) => v !== old).length > 0 && rng.chance(0.7)) return rng.pick(declared.filter((v) => v !== old));
  const seen = [...(valuesByKey(doc).get(key) ?? [])].filter((v) => v !== old && typeof v === typeof old);
  if (seen.length > 0 && rng.chance(0.5)) return rng.pick(seen);
  if (typeof old !== "string") return tweak(old, rng);
  const duration = /^(\d+)(ms|s|m|h|d)$/.exec(old);
  if (duration) return `${Number(duration[1]) * 2}${duration[2]}`;
  const semver = /^(\d+)\.(\d+)\.(\d+)$/.exec(old);
  if (semver) return rng.pick([`${semver[1]}.${semver[2]}.${Number(semver[3]) + 1}`, `${semver[1]}.${Number(semver[2]) + 1}.0`, `${Number(semver[1]) + 1}.0.0`]);
  if (/^\d{4}-\d\d-\d\d$/.test(old)) return old.slice(0, 8) + (old.endsWith("28") ? "27" : "28");
  if (old.startsWith("/")) return old + "/m";
  if (old.startsWith("http")) return old.replace(/\/?$/, "/v2");
  if (/^[A-Z][A-Z0-9_]*$/.test(old)) return old + "_X";
  if (/^[a-z][a-z0-9_]*$/.test(old)) return old + "_x";
  if (/^[A-Za-z][A-Za-z0-9_.:-]*$/.test(old)) return old + "-x";
  return old + " (changed)";
}

/** Leaves below `root`: scalars and lists of scalars, not descending into schema positions. */
function leaves(doc, root) {
  const out = [];
  const walk = (v, path) => {
    if (Array.isArray(v)) {
      if (v.every((x) => !isObj(x) && !Array.isArray(x))) out.push(path);
      else v.forEach((x, i) => walk(x, [...path, i]));
    } else if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) if (!SCHEMA_KEYS.has(k)) walk(x, [...path, k]);
    } else out.push(path);
  };
  walk(getAt(doc, root), root);
  return out;
}

/** Mutate one leaf: change it (lists: add, remove or reorder a member), or remove it. */
function mutateLeaf(doc, kind, path, rng) {
  const old = getAt(doc, path);
  const key = String([...path].reverse().find((s) => typeof s === "string"));
  if (rng.chance(0.15) && typeof path[path.length - 1] === "string") return write(doc, kind, path, undefined, "remove");
  if (Array.isArray(old)) {
    const seen = [...(valuesByKey(doc).get(key) ?? [])].filter((v) => !old.includes(v));
    const r = rng.int(3);
    if (r === 0 && seen.length > 0) return write(doc, kind, path, [...old, rng.pick(seen)], "change");
    if (r === 1 && old.length > 0) return write(doc, kind, path, old.filter((_, i) => i !== rng.int(old.length)), "change");
    if (old.length > 1) return write(doc, kind, path, [...old].reverse(), "reorder");
    return write(doc, kind, path, [...old, typeof old[0] === "number" ? 299 : "m_added"], "change");
  }
  return write(doc, kind, path, otherScalar(key, old, path, doc, rng), "change");
}

/** Paths of operations' `field` (all operations when field is null). */
const opAreas = (field) => (doc) =>
  Object.entries(isObj(doc.operations) ? doc.operations : {})
    .filter(([, op]) => isObj(op) && (field === null || field in op))
    .map(([id]) => (field === null ? ["operations", id] : ["operations", id, field]));
const rootArea = (field) => (doc) => (field in doc ? [[field]] : []);
const mapEntries = (field) => (doc) => Object.keys(isObj(doc[field]) ? doc[field] : {}).map((k) => [field, k]);

/**
 * A kind that mutates a random leaf of one of `areas(doc)`, or (with `adds`) writes a field that
 * may be absent: adds(doc, rng) → [path, value] options.
 */
function leafKind(name, areas, adds) {
  return {
    name,
    group: "contract",
    apply(doc, rng) {
      const addOptions = adds ? adds(doc, rng).filter(([path, value]) => !same(getAt(doc, path), value)) : [];
      const all = areas(doc).flatMap((a) => leaves(doc, a));
      if (addOptions.length > 0 && (all.length === 0 || rng.chance(0.3))) {
        const [path, value] = rng.pick(addOptions);
        return write(doc, name, path, value);
      }
      if (all.length === 0) return null;
      // Half the time a number or boolean when there is one: most strings of these places name
      // fields or codes, and a changed name is mostly an invalid contract (discarded).
      const plain = all.filter((p) => ["number", "boolean"].includes(typeof getAt(doc, p)));
      return mutateLeaf(doc, name, rng.pick(plain.length > 0 && rng.chance(0.5) ? plain : all), rng);
    },
  };
}

const ops = (doc) => Object.entries(isObj(doc.operations) ? doc.operations : {}).filter(([, op]) => isObj(op));
/** For each operation, add `value(op, id)` at `field` (path below the operation). */
const perOp = (field, value) => (doc, rng) => ops(doc).map(([id, op]) => [["operations", id, ...field], value(op, id, rng)]);

const CONTRACT_KINDS = [
  leafKind("contract.version", rootArea("version")),
  leafKind("contract.title", rootArea("title"), (doc) => [[["title"], "Another title"]]),
  leafKind("contract.description", rootArea("description"), (doc) => [[["description"], "Another description."]]),
  leafKind("contract.changelog", rootArea("changelog")),
  leafKind("contract.budget", rootArea("budget"), () => [[["budget", "maxTools"], 40], [["budget", "catalogTokens"], 90000]]),
  leafKind("contract.transport", rootArea("transport"), () => [
    [["transport", "http", "timeout"], "45s"],
    [["transport", "http", "baseUrlEnv"], "M_BASE_URL"],
  ]),
  leafKind("contract.toolsets", rootArea("toolsets"), () => [[["toolsets", "m_tools"], { description: "Added toolset." }]]),
  leafKind("contract.x-extension", (doc) => Object.keys(doc).filter((k) => k.startsWith("x-")).map((k) => [k]), () => [[["x-m-note"], "added"]]),
  leafKind("errors.entry", mapEntries("errors"), (doc) => [
    ...Object.keys(isObj(doc.errors) ? doc.errors : {}).flatMap((code) => [
      [["errors", code, "description"], "Changed meaning."],
      [["errors", code, "since"], String(doc.version)],
      [["errors", code, "wire"], code.toLowerCase()],
    ]),
    [["errors", "M_ADDED_ERROR"], { class: "conflict", action: "stop_and_surface", http: 409 }],
  ]),
  {
    name: "errors.remove",
    group: "contract",
    apply(doc, rng) {
      const codes = Object.keys(isObj(doc.errors) ? doc.errors : {});
      if (codes.length === 0) return null;
      const code = rng.pick(codes);
      // Also drop it from every operation's list, so that the removal stays valid.
      for (const [, op] of ops(doc)) if (Array.isArray(op.errors)) op.errors = op.errors.filter((c) => c !== code);
      return write(doc, "errors.remove", ["errors", code], undefined, "remove");
    },
  },
  {
    name: "types.entry",
    group: "contract",
    apply(doc, rng) {
      const names = Object.keys(isObj(doc.types) ? doc.types : {});
      if (names.length > 0 && rng.chance(0.5)) return write(doc, "types.entry", ["types", rng.pick(names)], undefined, "remove");
      if (!isObj(doc.types)) doc.types = {};
      return write(doc, "types.entry", ["types", `MAdded${rng.int(100)}`], smallSchema(rng), "add");
    },
  },
  {
    name: "operations.entry",
    group: "contract",
    apply(doc, rng) {
      const list = ops(doc);
      if (list.length === 0) return null;
      const [id, op] = rng.pick(list);
      const r = rng.int(3);
      if (r === 0 && list.length > 1) return write(doc, "operations.entry", ["operations", id], undefined, "remove");
      const copy = clone(op);
      if (isObj(copy.mcp)) delete copy.mcp.name;
      if (isObj(copy.cli)) delete copy.cli.name;
      if (isObj(copy.http) && typeof copy.http.path === "string") copy.http.path += "/m-copy";
      if (r === 1) {
        // Renamed: same operation under another key.
        const entries = Object.entries(doc.operations).map(([k, v]) => (k === id ? [`${id}_renamed`, copy] : [k, v]));
        const before = clone(op);
        doc.operations = Object.fromEntries(entries);
        return change("operations.entry", "rename", ["operations", id], before, { [`${id}_renamed`]: "(same operation)" });
      }
      return write(doc, "operations.entry", ["operations", `${id}_copy`], copy, "add");
    },
  },
  leafKind("op.summary", opAreas("summary")),
  leafKind("op.description", opAreas("description"), perOp(["description"], () => "Another description.")),
  leafKind("op.toolset-scopes", (doc) => [...opAreas("toolset")(doc), ...opAreas("scopes")(doc)], perOp(["scopes"], () => ["m.scope:write"])),
  leafKind("op.deprecated", opAreas("deprecated"), (doc) => perOp(["deprecated"], () => ({ since: String(doc.version) }))(doc)),
  leafKind("op.http", opAreas("http"), perOp(["http", "successStatus"], (op) => (op.http?.method === "POST" ? 202 : 201))),
  leafKind("op.effects", opAreas("effects"), (doc, rng) => [
    ...perOp(["effects", "openWorld"], (op) => !(op.effects?.openWorld === true))(doc, rng),
    ...perOp(["effects", "destructive"], (op) => !(op.effects?.destructive === true))(doc, rng),
    ...perOp(["effects", "reversible"], (op) => !(op.effects?.reversible !== false))(doc, rng),
  ]),
  {
    name: "op.errors",
    group: "contract",
    apply(doc, rng) {
      const codes = Object.keys(isObj(doc.errors) ? doc.errors : {});
      const list = ops(doc).filter(([, op]) => Array.isArray(op.errors));
      if (list.length === 0) return null;
      const [id, op] = rng.pick(list);
      const path = ["operations", id, "errors"];
      const missing = codes.filter((c) => !op.errors.includes(c));
      const r = rng.int(3);
      if (r === 0 && missing.length > 0) return write(doc, "op.errors", path, [...op.errors, rng.pick(missing)], "add member");
      if (r === 1 && op.errors.length > 0) return write(doc, "op.errors", path, op.errors.filter((_, i) => i !== rng.int(op.errors.length)), "remove member");
      return write(doc, "op.errors", path, [...op.errors].reverse(), "reorder");
    },
  },
  leafKind("op.idempotency", opAreas("idempotency")),
  leafKind("op.preview", opAreas("preview")),
  leafKind("op.pagination", opAreas("pagination"), (doc) =>
    ops(doc)
      .filter(([, op]) => isObj(op.pagination) && isObj(op.pagination.limit))
      .map(([id, op]) => [["operations", id, "pagination", "limit", "default"], Math.max(1, Math.min(10, Number(op.pagination.limit.max ?? 10)) - (op.pagination.limit.default === 10 ? 1 : 0))]),
  ),
  leafKind("op.preconditions", opAreas("preconditions")),
  leafKind("op.target-outcomes", (doc) => [...opAreas("target")(doc), ...opAreas("outcomes")(doc)]),
  leafKind("op.filters-projection-task", (doc) => [...opAreas("filters")(doc), ...opAreas("projection")(doc), ...opAreas("task")(doc)]),
  leafKind("op.auth", opAreas("auth"), perOp(["auth"], () => [])),
  leafKind("op.mcp", opAreas("mcp"), (doc, rng) => [
    ...perOp(["mcp", "title"], (op, id) => `Title of ${id}`)(doc, rng),
    ...perOp(["mcp", "name"], (op, id) => `${id}_tool`)(doc, rng),
    ...perOp(["mcp", "expose"], (op) => op.mcp?.expose === false)(doc, rng),
  ]),
  leafKind("op.cli", opAreas("cli"), perOp(["cli", "name"], (op, id) => `${id.replace(/_/g, "-")}-cmd`)),
  leafKind("op.x-extension", (doc) => ops(doc).flatMap(([id, op]) => Object.keys(op).filter((k) => k.startsWith("x-")).map((k) => ["operations", id, k])), perOp(["x-m-note"], () => "added")),
];

// ---------------------------------------------------------------------------------------------
// No-op mutations: the document is written differently, the contract means the same.

/** Lists whose order means nothing (see canonicalModel): reordering them is a no-op. */
const SET_LIKE_DOC_KEYS = new Set(["required", "enum", "scopes", "filters", "states", "selectable", "identity"]);

function shuffleKeys(v, rng) {
  if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, rng));
  if (!isObj(v)) return v;
  return Object.fromEntries(rng.shuffle(Object.entries(v)).map(([k, x]) => [k, shuffleKeys(x, rng)]));
}

const NOOP_KINDS = [
  { name: "noop.reformat", group: "noop", apply: () => change("noop.reformat", "noop", [], "(as written)", "(yaml.stringify)") },
  {
    name: "noop.reorder-keys",
    group: "noop",
    apply(doc, rng) {
      const shuffled = shuffleKeys(doc, rng);
      for (const k of Object.keys(doc)) delete doc[k];
      Object.assign(doc, shuffled);
      return change("noop.reorder-keys", "noop", [], "(document order)", "(every mapping's keys shuffled)");
    },
  },
  {
    name: "noop.reorder-sets",
    group: "noop",
    apply(doc, rng) {
      const places = [];
      const walk = (v, path) => {
        if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
        else if (isObj(v))
          for (const [k, x] of Object.entries(v)) {
            if (SET_LIKE_DOC_KEYS.has(k) && Array.isArray(x) && x.length > 1) places.push([...path, k]);
            walk(x, [...path, k]);
          }
      };
      walk(doc, []);
      // The errors list of an operation is a set too.
      for (const [id, op] of ops(doc)) if (Array.isArray(op.errors) && op.errors.length > 1) places.push(["operations", id, "errors"]);
      if (places.length === 0) return null;
      const path = rng.pick(places);
      return write(doc, "noop.reorder-sets", path, [...getAt(doc, path)].reverse(), "noop");
    },
  },
];

export const SCHEMA_KEYWORDS = Object.keys(KEYWORDS);
export const KINDS = [...SCHEMA_KEYWORDS.map(keywordKind), ...CONTRACT_KINDS, ...NOOP_KINDS];

/** Formatting options per no-op reformat, chosen by seed. */
const DUMP_OPTIONS = [{}, { indent: 4, lineWidth: 0 }, { defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" }, { collectionStyle: "flow" }];

/** Whether `kind` finds a place to mutate in `doc` with `seed` (cheaper than mutate: nothing is written out). */
export function applies(doc, kind, seed) {
  return kind.apply(clone(doc), new Rng(seed)) !== null;
}

/** Applies `kind` with `seed` to a copy of `doc`: the mutation and the new document's text, or null. */
export function mutate(doc, kind, seed) {
  const copy = clone(doc);
  const rng = new Rng(seed);
  const mutation = kind.apply(copy, rng);
  if (mutation === null) return null;
  const options = kind.name === "noop.reformat" ? DUMP_OPTIONS[seed % DUMP_OPTIONS.length] : {};
  return { mutation, text: stringifyYaml(copy, { aliasDuplicateObjects: false, ...options }) };
}

// ---------------------------------------------------------------------------------------------
// Model equality

/**
 * Keys of the model whose lists are sets: their order means nothing to the contract. Schema
 * `required`, `enum` and `type` lists (JSON Schema gives their order no meaning); an operation's
 * `scopes`, `filters`, `errors`, outcome `states`, projection `selectable`/`identity`; and the
 * document-order lists of types, errors, operations, toolsets, credential schemes and HTTP
 * bindings (each member is named, so order is only where it was written); and the members of
 * `allOf`/`anyOf`/`oneOf` (validation gives their order no meaning; the diff matches them by identity).
 */
const SET_KEYS = new Set(["allOf", "anyOf", "oneOf", "required", "enum", "type", "scopes", "filters", "errors", "states", "selectable", "identity", "types", "operations", "toolsets", "schemes", "bindings"]);

/**
 * The model as canonical JSON: object keys sorted, `loc` (source positions) left out, set-like
 * lists sorted, and the members of each credential alternative sorted (`require`, operation
 * `auth`: all of one alternative's credentials are sent, in no order). An operation's `auth` of
 * null (none of its own) is replaced by the contract's `require`, which it means. Everything else, derived
 * facts included, is part of the contract's meaning: two documents with equal canonical models
 * generate the same SDK, CLI and MCP server up to ordering.
 */
export function canonicalModel(model) {
  // An operation without its own `auth` needs the contract's alternatives (model/types.ts operationAuth).
  const require = model.transport?.auth?.require;
  model = { ...model, operations: model.operations.map((op) => (op.auth === null && require !== undefined ? { ...op, auth: require } : op)) };
  const canon = (v, key) => {
    if (Array.isArray(v)) {
      let items = v.map((x) => canon(x));
      if ((key === "require" || key === "auth") && items.every((x) => Array.isArray(x))) items = items.map((alt) => [...alt].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)));
      if (SET_KEYS.has(key)) items = [...items].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
      return items;
    }
    if (!isObj(v)) return v;
    const out = {};
    for (const k of Object.keys(v).sort()) if (k !== "loc") out[k] = canon(v[k], k);
    return out;
  };
  return JSON.stringify(canon(model, undefined));
}

/** The first place two canonical models differ, for messages. */
export function firstDifference(a, b, path = "") {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], `${path}/${esc(k)}`);
      if (d) return d;
    }
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}/${i}`);
      if (d) return d;
    }
  }
  return { path: path || "/", before: a, after: b };
}

// ---------------------------------------------------------------------------------------------
// Corpus and one checked case

/**
 * Every contract (YAML with top-level `contract` and `operations`) of specs/, examples/ and
 * test/fixtures/valid/, test/diff/base.yaml, and every diff rule fixture's base and revision.
 */
export function corpusFiles(root = ".") {
  const files = [];
  const yamlUnder = (dir) => {
    if (!existsSync(join(root, dir))) return;
    for (const name of readdirSync(join(root, dir)).sort()) {
      const rel = join(dir, name);
      if (statSync(join(root, rel)).isDirectory()) yamlUnder(rel);
      else if (/\.ya?ml$/.test(name)) {
        try {
          const doc = parseYaml(readFileSync(join(root, rel), "utf8"));
          if (isObj(doc) && typeof doc.contract === "string" && isObj(doc.operations)) files.push(rel);
        } catch {
          // Not a contract.
        }
      }
    }
  };
  yamlUnder("specs");
  yamlUnder("examples");
  // The valid fixtures and the diff's own base contract.
  yamlUnder("test/fixtures/valid");
  if (existsSync(join(root, "test/diff/base.yaml"))) files.push("test/diff/base.yaml");
  const rules = join(root, "test/diff/rules");
  for (const dir of readdirSync(rules).sort()) for (const f of ["base.yaml", "revision.yaml"]) if (existsSync(join(rules, dir, f))) files.push(join("test/diff/rules", dir, f));
  return files;
}

/**
 * Engine: { parse(path, text) → { model?, source?, diagnostics }, diff(before, after) → report,
 * allFindings(findings) → findings }. Loads each corpus file once, keeping those that parse
 * without errors.
 */
export function loadCorpus(engine, root = ".") {
  const out = [];
  for (const file of corpusFiles(root)) {
    const text = readFileSync(join(root, file), "utf8");
    const base = engine.parse(file, text);
    if (!base.model || base.diagnostics.some((d) => d.severity === "error")) continue;
    out.push({ file, text, doc: parseYaml(text), base, canon: canonicalModel(base.model) });
  }
  return out;
}

/**
 * Mutates `entry` with `kind` and `seed`, and checks the invariant. Status:
 * "n/a" (the kind has no place in this file), "invalid" (the mutated contract has errors:
 * discarded), "differ" / "equal" (invariant held), "silent" (models differ, no finding),
 * "false" (models equal, findings).
 */
export function checkCase(engine, entry, kind, seed) {
  const mutated = mutate(entry.doc, kind, seed);
  if (mutated === null) return { status: "n/a", file: entry.file, kind: kind.name, seed };
  const { mutation, text } = mutated;
  const after = engine.parse(entry.file, text);
  const base = { file: entry.file, kind: kind.name, seed, mutation };
  if (!after.model || after.diagnostics.some((d) => d.severity === "error")) {
    return { ...base, status: "invalid", errors: after.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code}: ${d.message}`).slice(0, 3) };
  }
  const canon = canonicalModel(after.model);
  const differ = canon !== entry.canon;
  const report = engine.diff({ model: entry.base.model, source: entry.base.source, label: entry.file }, { model: after.model, source: after.source, label: `${entry.file} (mutated)` });
  const findings = engine.allFindings(report.findings);
  const status = differ ? (findings.length > 0 ? "differ" : "silent") : findings.length > 0 ? "false" : "equal";
  return {
    ...base,
    status,
    differ,
    modelDifference: differ ? firstDifference(JSON.parse(entry.canon), JSON.parse(canon)) : null,
    findings: findings.map((f) => `${f.rule}${f.operation ? ` (${f.operation})` : ""}: ${f.message}`),
  };
}

const show = (v) => (v === undefined ? "(absent)" : JSON.stringify(v)?.slice(0, 300));

/** A failure message a developer can reproduce from. */
export function describeCase(r) {
  const m = r.mutation;
  const lines = [
    `${r.status === "silent" ? "SILENT: the models differ but the diff reported nothing" : "FALSE FINDING: the models are equal but the diff reported something"}`,
    `  file:     ${r.file}`,
    `  mutation: ${m.kind} ${m.op} at ${m.pointer || "/"} (seed ${r.seed})`,
    `  before:   ${show(m.before)}`,
    `  after:    ${show(m.after)}`,
  ];
  if (r.modelDifference) lines.push(`  model differs first at ${r.modelDifference.path}: ${show(r.modelDifference.before)} → ${show(r.modelDifference.after)}`);
  for (const f of r.findings.slice(0, 5)) lines.push(`  finding:  ${f}`);
  lines.push(`  reproduce: checkCase(engine, <${r.file}>, KINDS.find(k => k.name === "${m.kind}"), ${r.seed}) in test/diff/mutate.mjs`);
  return lines.join("\n");
}
