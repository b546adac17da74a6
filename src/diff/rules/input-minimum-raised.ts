import type { Rule } from "../rule.js";
import { boundCheck } from "./_bounds.js";

export const rule: Rule = {
  id: "input-minimum-raised",
  severity: "breaking",
  category: "input",
  description: "The lower bound (minimum or exclusiveMinimum) of a numeric input field was raised or added.",
  hint: "Send values at or above the new minimum; smaller values are now rejected.",
  check: boundCheck({ direction: "min", keyword: "minimum", exclusiveKeyword: "exclusiveMinimum", label: "minimum" }),
};
