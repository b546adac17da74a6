import type { Rule } from "../rule.js";
import { boundCheck } from "./_bounds.js";

export const rule: Rule = {
  id: "input-max-items-lowered",
  severity: "breaking",
  category: "input",
  description: "The maximum number of items (maxItems) of an array input field was lowered or added.",
  hint: "Split or trim arrays to the new maximum number of items; longer ones are now rejected.",
  check: boundCheck({ direction: "max", keyword: "maxItems", label: "maximum item count" }),
};
