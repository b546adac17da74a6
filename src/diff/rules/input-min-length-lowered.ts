import type { Rule } from "../rule.js";
import { loosenedCheck } from "./_bounds.js";

/** The counterpart of input-min-length-raised: compatible, reported so that every change is visible. */
export const rule: Rule = {
  id: "input-min-length-lowered",
  severity: "info",
  category: "input",
  description: "The minimum length (minLength) of a string input field was lowered or removed.",
  hint: "Nothing to do; shorter strings are now accepted.",
  check: loosenedCheck({ direction: "min", keyword: "minLength", implicit: 0, label: "minimum length" }),
};
