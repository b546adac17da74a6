import type { Rule } from "../rule.js";
import { keywordFindings } from "./_keywords.js";

/** Consumers were promised values within the old constraint: a value outside it can break code that relied on the promise. */
export const rule: Rule = {
  id: "output-constraint-loosened",
  severity: "breaking",
  category: "output",
  description:
    "An output value may now lie outside what the old schema promised: a bound lowered or raised the loose way or removed (minimum, maximum, lengths, item and property counts, contains counts, on the output side), multipleOf, uniqueItems, a constant, a pattern, a content media type or encoding, dependentRequired loosened, null allowed where there was no output-nullable-added case, or a `not`/`if` schema changed.",
  hint: "Check the code that reads the field: it must handle values outside the old constraint.",
  check: (ctx) => keywordFindings(ctx, "output", ["widened", "changed"], "value"),
};
