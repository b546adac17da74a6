import type { Rule } from "../rule.js";
import { keywordFindings } from "./_keywords.js";

/** A new shape (a union branch, an opened object, a constraint schema dropped): code written for the known shapes can meet one it does not handle. */
export const rule: Rule = {
  id: "output-schema-widened",
  severity: "breaking",
  category: "output",
  description:
    "An output schema admits new shapes: an anyOf/oneOf member added, an allOf member removed, an object opened to properties it does not list, a subschema (items, additionalProperties, contains, propertyNames, patternProperties, dependentSchemas, tuple items, then/else) removed, or a `false` schema made `true`.",
  hint: "Check code that handles each known variant or shape of the field: it must cope with the new ones (a default branch).",
  check: (ctx) => keywordFindings(ctx, "output", ["widened", "changed"], "structure"),
};
