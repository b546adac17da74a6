import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

export const rule: Rule = {
  id: "projection-selectable-field-added",
  severity: "info",
  category: "projection",
  description: "A field became selectable through an operation's projection.",
  hint: "Nothing to do; select the field where it saves a second read.",
  check: listMemberChange(["projection", "selectable"], "added", (field, op) => `Field ${q(field)} was made selectable in the projection of ${q(op)}.`),
};
