import type { Rule } from "../rule.js";
import { loosenedCheck } from "./_bounds.js";

/** The counterpart of input-max-items-lowered: compatible, reported so that every change is visible. */
export const rule: Rule = {
  id: "input-max-items-raised",
  severity: "info",
  category: "input",
  description: "The maximum number of items (maxItems) of an array input field was raised or removed.",
  hint: "Nothing to do; longer arrays are now accepted.",
  check: loosenedCheck({ direction: "max", keyword: "maxItems", label: "maximum item count" }),
};
