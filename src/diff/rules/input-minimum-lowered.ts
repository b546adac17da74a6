import type { Rule } from "../rule.js";
import { loosenedCheck } from "./_bounds.js";

/** The counterpart of input-minimum-raised: compatible, reported so that every change is visible. */
export const rule: Rule = {
  id: "input-minimum-lowered",
  severity: "info",
  category: "input",
  description: "The lower bound (minimum or exclusiveMinimum) of a numeric input field was lowered or removed.",
  hint: "Nothing to do; smaller values are now accepted.",
  check: loosenedCheck({ direction: "min", keyword: "minimum", exclusiveKeyword: "exclusiveMinimum", label: "minimum" }),
};
