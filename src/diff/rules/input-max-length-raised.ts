import type { Rule } from "../rule.js";
import { loosenedCheck } from "./_bounds.js";

/** The counterpart of input-max-length-lowered: compatible, reported so that every change is visible. */
export const rule: Rule = {
  id: "input-max-length-raised",
  severity: "info",
  category: "input",
  description: "The maximum length (maxLength) of a string input field was raised or removed.",
  hint: "Nothing to do; longer strings are now accepted.",
  check: loosenedCheck({ direction: "max", keyword: "maxLength", label: "maximum length" }),
};
