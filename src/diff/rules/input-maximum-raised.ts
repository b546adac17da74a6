import type { Rule } from "../rule.js";
import { loosenedCheck } from "./_bounds.js";

/** The counterpart of input-maximum-lowered: compatible, reported so that every change is visible. */
export const rule: Rule = {
  id: "input-maximum-raised",
  severity: "info",
  category: "input",
  description: "The upper bound (maximum or exclusiveMaximum) of a numeric input field was raised or removed.",
  hint: "Nothing to do; larger values are now accepted.",
  check: loosenedCheck({ direction: "max", keyword: "maximum", exclusiveKeyword: "exclusiveMaximum", label: "maximum" }),
};
