import type { Rule } from "../rule.js";
import { keywordFindings } from "./_keywords.js";

/** Calls that satisfied the old schema can fail the new one. */
export const rule: Rule = {
  id: "input-constraint-tightened",
  severity: "breaking",
  category: "input",
  description:
    "An input schema now accepts fewer values through a keyword no dedicated input rule covers (multipleOf, uniqueItems, const, minProperties/maxProperties, minContains/maxContains, contentMediaType/contentEncoding, dependentRequired, prefixItems, patternProperties, dependentSchemas, propertyNames, items/contains/then/else/additionalProperties schemas, a `false` schema, an allOf member added, an anyOf/oneOf member removed, readOnly), or a `not`/`if` schema changed (either way).",
  hint: "Send values the new schema accepts; calls that relied on the old, wider schema are now rejected.",
  check: (ctx) => keywordFindings(ctx, "input", ["narrowed", "changed"]),
};
