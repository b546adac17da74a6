import type { Rule } from "../rule.js";
import { boundCheck } from "./_bounds.js";

export const rule: Rule = {
  id: "input-maximum-lowered",
  severity: "breaking",
  category: "input",
  description: "The upper bound (maximum or exclusiveMaximum) of a numeric input field was lowered or added.",
  hint: "Send values at or below the new maximum; larger values are now rejected.",
  check: boundCheck({ direction: "max", keyword: "maximum", exclusiveKeyword: "exclusiveMaximum", label: "maximum" }),
};
