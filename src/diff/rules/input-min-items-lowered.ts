import type { Rule } from "../rule.js";
import { loosenedCheck } from "./_bounds.js";

/** The counterpart of input-min-items-raised: compatible, reported so that every change is visible. */
export const rule: Rule = {
  id: "input-min-items-lowered",
  severity: "info",
  category: "input",
  description: "The minimum number of items (minItems) of an array input field was lowered or removed.",
  hint: "Nothing to do; shorter arrays are now accepted.",
  check: loosenedCheck({ direction: "min", keyword: "minItems", implicit: 0, label: "minimum item count" }),
};
