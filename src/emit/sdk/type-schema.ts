import { defineOwn, isSchemaObject, mapSchema, type SchemaObject } from "../../spec/schema-walk.js";

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
const DOCUMENTATION = ["description", "x-unit", "default", "deprecated"];

/** In-place applicators: with any of them, what `unevaluated*` sees depends on other subschemas. */
const APPLICATORS = ["allOf", "anyOf", "oneOf", "if", "then", "else", "not", "dependentSchemas", "$ref", "$dynamicRef"];

/** `node` in the generator's dialect; `finish` is applied to every schema object this makes from it. */
function rewrite(node: SchemaObject, finish: (node: SchemaObject) => SchemaObject): SchemaObject {
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
  if (isSchemaObject(node.dependentRequired)) {
    delete out.dependentRequired;
    for (const [name, required] of Object.entries(node.dependentRequired)) {
      if (Array.isArray(required)) constraints.push({ anyOf: [absent(name), present([name, ...required.filter((r): r is string => typeof r === "string")])] });
    }
  }
  if (isSchemaObject(node.dependentSchemas)) {
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

  if (constraints.length === 0) return finish(out);
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
  return finish({ allOf: [finish(out), ...constraints], ...whole });
}
