import type { Rule } from "../rule.js";
import { boundCheck } from "./_bounds.js";

export const rule: Rule = {
  id: "input-min-length-raised",
  severity: "breaking",
  category: "input",
  description: "The minimum length (minLength) of a string input field was raised.",
  hint: "Send strings of at least the new minimum length; shorter ones are now rejected.",
  check: boundCheck({ direction: "min", keyword: "minLength", implicit: 0, label: "minimum length" }),
};
