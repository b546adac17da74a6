import type { Rule } from "../rule.js";
import { boundCheck } from "./_bounds.js";

export const rule: Rule = {
  id: "input-min-items-raised",
  severity: "breaking",
  category: "input",
  description: "The minimum number of items (minItems) of an array input field was raised.",
  hint: "Send at least the new minimum number of items; shorter arrays are now rejected.",
  check: boundCheck({ direction: "min", keyword: "minItems", implicit: 0, label: "minimum item count" }),
};
