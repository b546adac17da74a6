import { defineOwn, isSchemaObject, mapSchema, type SchemaObject, SUBSCHEMA_KIND } from "../../contract/schema-walk.js";

/**
 * A copy of a JSON Schema 2020-12 schema rewritten into the dialect json-schema-to-typescript
 * understands (draft-07 plus `$defs`), for typing only: validators are compiled from the original.
 *
 * The emitted type must accept every value the schema accepts. Where a keyword has an exact
 * draft-07 spelling it is translated (`prefixItems` → tuple `items` + `additionalItems`,
 * `dependentRequired`/`dependentSchemas` → "absent, or present with …" unions, closed
 * `unevaluated*` → `additional*`); where it cannot be typed exactly the constraint is dropped or
 * widened (`if`/`then`/`else` → `then` or `else`, `contains`, `$dynamicRef`), never narrowed.
 */
export function typingSchema(schema: unknown, finish: (node: SchemaObject) => SchemaObject = (node) => node): unknown {
  const out = mapSchema(schema, (node) => rewrite(node, finish));
  // The generator reads a titled schema without type keywords as an object; it allows any value.
  if (isSchemaObject(out) && Object.keys(out).every((k) => DOCUMENTATION.includes(k))) out.tsType = "unknown";
  return out;
}

/** Keywords that only identify, annotate or anchor a schema: nothing to type. */
const DROPPED = ["$anchor", "$dynamicAnchor", "$dynamicRef", "$comment", "$schema", "$vocabulary", "$id", "contains", "minContains", "maxContains"];

/** Annotations that document the schema as a whole. */
const DOCUMENTATION = ["description", "x-unit", "x-sunset", "default", "deprecated"];

/** In-place applicators: with any of them, what `unevaluated*` sees depends on other subschemas. */
const APPLICATORS = ["allOf", "anyOf", "oneOf", "if", "then", "else", "not", "dependentSchemas", "$ref", "$dynamicRef"];

/** Dependencies (dependentRequired and dependentSchemas entries) typed per object at most; more are widened away. */
export const DEPENDENCY_LIMIT = 3;

/** Tuples longer than this (prefixItems, minItems, maxItems) are typed as arrays of their items. */
export const TUPLE_LIMIT = 10;

/** Rewritten nodes typed as a tuple union, or holding one: the generator repeats their text. */
const EXPANDING = new WeakSet<SchemaObject>();

/** Whether any direct subschema of a (2020-12) node satisfies `test`. */
function someSubschema(node: SchemaObject, test: (s: SchemaObject) => boolean): boolean {
  for (const key of Object.keys(node)) {
    const kind = SUBSCHEMA_KIND.get(key);
    const value = node[key];
    if (kind === "single" ? isSchemaObject(value) && test(value) : kind === "list" ? Array.isArray(value) && value.some((s) => isSchemaObject(s) && test(s)) : kind === "map" && isSchemaObject(value) && Object.values(value).some((s) => isSchemaObject(s) && test(s))) return true;
  }
  return false;
}

/**
 * Keep the generator's tuple typing of an array (draft-07 form: `items` a list, `minItems`,
 * `maxItems`) within bounds, and say whether it still expands. A tuple type spells its item types
 * once per length it allows, and tuples nested in tuples multiply that: no contract size bounded the
 * output (a 2,000-entry prefixItems made 16 MB of types, 24 nested `minItems: 1` arrays 3 GB). So a
 * tuple has at most TUPLE_LIMIT leading items (the generator itself stops `maxItems` more than 20
 * past `minItems`) and none holds another (`inner`); any other array is typed as an array of its
 * items — wider than the schema, never narrower — with its counts kept in the comment, as the
 * generator words them.
 */
function boundTuple(out: SchemaObject, inner: boolean): boolean {
  const prefix = Array.isArray(out.items) ? (out.items as unknown[]) : null;
  const widen = prefix !== null && prefix.length > 0 && (inner || prefix.length > TUPLE_LIMIT);
  if (widen) {
    const rest = out.additionalItems;
    out.items = { anyOf: rest === false ? prefix : [...prefix, rest ?? {}] };
    delete out.additionalItems;
  }
  const counted = "minItems" in out || "maxItems" in out;
  if (counted && (widen || inner || (typeof out.minItems === "number" && out.minItems > TUPLE_LIMIT))) {
    const notes = ["minItems", "maxItems"].filter((k) => k in out).map((k) => `@${k} ${String(out[k])}`);
    out.description = typeof out.description === "string" && out.description !== "" ? `${out.description}\n\n${notes.join("\n")}` : notes.join("\n");
    delete out.minItems;
    delete out.maxItems;
  }
  return (Array.isArray(out.items) && out.items.length > 0) || (typeof out.minItems === "number" && out.minItems > 0) || typeof out.maxItems === "number";
}

/** `node` in the generator's dialect; `finish` is applied to every schema object this makes from it. */
function rewrite(node: SchemaObject, finish: (node: SchemaObject) => SchemaObject): SchemaObject {
  const inner = someSubschema(node, (s) => EXPANDING.has(s));
  const out: SchemaObject = {};
  for (const [k, v] of Object.entries(node)) {
    // References were bundled into the root `$defs` by identifier; nested definitions are unreferenced copies.
    if (DROPPED.includes(k) || k === "$defs" || k === "definitions") continue;
    defineOwn(out, k, v);
  }
  const constraints: unknown[] = [];
  const applied = APPLICATORS.some((k) => k in node);

  // prefixItems + items (the rest) is draft-07's tuple items + additionalItems.
  if (Array.isArray(node.prefixItems)) {
    delete out.prefixItems;
    out.items = node.prefixItems;
    const rest = "items" in node ? node.items : !applied && "unevaluatedItems" in node ? node.unevaluatedItems : undefined;
    // Without a rest schema any further items are allowed (draft-07 tuples are closed unless told).
    out.additionalItems = rest ?? {};
  } else if (!("items" in node) && "unevaluatedItems" in node && !applied) {
    out.items = node.unevaluatedItems;
  }
  delete out.unevaluatedItems;
  // No array has at least minItems and at most maxItems items when min > max, and the generator
  // refuses the pair: the array of the items is typed instead, which is wider, never narrower.
  if (typeof node.minItems === "number" && typeof node.maxItems === "number" && node.minItems > node.maxItems) {
    delete out.minItems;
    delete out.maxItems;
  }
  const tuple = boundTuple(out, inner);
  const done = (result: SchemaObject): SchemaObject => {
    if (tuple || inner) EXPANDING.add(result);
    return result;
  };

  if ("unevaluatedProperties" in node && !("additionalProperties" in node) && !applied) out.additionalProperties = node.unevaluatedProperties;
  delete out.unevaluatedProperties;

  // A dependency holds when its property is absent, or present together with what it requires
  // (the generator only types `required` names that are also in `properties`).
  const absent = (name: string): SchemaObject => {
    const properties: SchemaObject = {};
    defineOwn(properties, name, false);
    return { properties };
  };
  const present = (names: string[]): SchemaObject => {
    const properties: SchemaObject = {};
    for (const name of names) defineOwn(properties, name, {});
    return { properties, required: names };
  };
  // Each dependency doubles the union the intersection expands to: past a few, the type is widened
  // (the dependencies dropped from typing; the validators still enforce them).
  const dependencies = (isSchemaObject(node.dependentRequired) ? Object.keys(node.dependentRequired).length : 0) + (isSchemaObject(node.dependentSchemas) ? Object.keys(node.dependentSchemas).length : 0);
  if (dependencies > DEPENDENCY_LIMIT) {
    delete out.dependentRequired;
    delete out.dependentSchemas;
  }
  if (isSchemaObject(node.dependentRequired) && dependencies <= DEPENDENCY_LIMIT) {
    delete out.dependentRequired;
    for (const [name, required] of Object.entries(node.dependentRequired)) {
      if (Array.isArray(required)) constraints.push({ anyOf: [absent(name), present([name, ...required.filter((r): r is string => typeof r === "string")])] });
    }
  }
  if (isSchemaObject(node.dependentSchemas) && dependencies <= DEPENDENCY_LIMIT) {
    delete out.dependentSchemas;
    for (const [name, dependent] of Object.entries(node.dependentSchemas)) {
      constraints.push({ anyOf: [absent(name), { allOf: [present([name]), dependent] }] });
    }
  }

  // A value satisfies `then` or `else`, whichever `if` picked: the union of the two, without the test.
  // A missing branch allows anything, but keeps the other branch's properties declared (as unknown).
  if ("then" in node || "else" in node) {
    const declaredOnly = (branch: unknown): SchemaObject => {
      const properties: SchemaObject = {};
      if (isSchemaObject(branch) && isSchemaObject(branch.properties)) for (const name of Object.keys(branch.properties)) defineOwn(properties, name, {});
      return { properties };
    };
    const then = "then" in node ? node.then : declaredOnly(node.else);
    const otherwise = "else" in node ? node.else : declaredOnly(node.then);
    constraints.push({ anyOf: [then, otherwise] });
  }
  delete out.if;
  delete out.then;
  delete out.else;

  if (constraints.length === 0) return done(finish(out));
  // The schema's own part goes first among the constraints, untitled, so the generator names no part
  // of it separately; its documentation stays on the whole.
  const whole: SchemaObject = {};
  for (const k of DOCUMENTATION) {
    if (k in out) {
      defineOwn(whole, k, out[k]);
      delete out[k];
    }
  }
  // (The constraints are built of subschemas already finished and of objects with nothing to finish.)
  return done(finish({ allOf: [finish(out), ...constraints], ...whole }));
}
