import type { Rule } from "../rule.js";
import { boundCheck } from "./_bounds.js";

export const rule: Rule = {
  id: "input-max-length-lowered",
  severity: "breaking",
  category: "input",
  description: "The maximum length (maxLength) of a string input field was lowered or added.",
  hint: "Truncate or validate strings to the new maximum length before sending; longer ones are now rejected.",
  check: boundCheck({ direction: "max", keyword: "maxLength", label: "maximum length" }),
};
