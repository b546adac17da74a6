import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

/** Callers that select the field are rejected (or get a response without it). */
export const rule: Rule = {
  id: "projection-selectable-field-removed",
  severity: "breaking",
  category: "projection",
  description: "A field can no longer be selected through an operation's projection.",
  hint: "Stop selecting the field; read it through another operation if you still need it.",
  check: listMemberChange(["projection", "selectable"], "removed", (field, op) => `Field ${q(field)} can no longer be selected in the projection of ${q(op)}.`),
};
