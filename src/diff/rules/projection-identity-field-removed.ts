import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

/** Callers that rely on the field coming back whatever they select (to key results) now miss it. */
export const rule: Rule = {
  id: "projection-identity-field-removed",
  severity: "breaking",
  category: "projection",
  description: "A field is no longer returned whatever the projection selects.",
  hint: "Select the field explicitly in every call that needs it.",
  check: listMemberChange(["projection", "identity"], "removed", (field, op) => `Field ${q(field)} was removed from the fields ${q(op)} always returns.`),
};
