import { q, type Rule } from "../rule.js";
import { memberAt } from "./scope-added.js";

/** Callers that rely on the field coming back whatever they select (to key results) now miss it. */
export const rule: Rule = {
  id: "projection-identity-field-removed",
  severity: "breaking",
  category: "projection",
  description: "A field is no longer returned whatever the projection selects.",
  hint: "Select the field explicitly in every call that needs it.",
  check: (ctx) =>
    ctx.find(["operations", "*", "projection", "identity", "*"], ["removed"]).map((m) => {
      const field = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Field ${q(field)} was removed from the fields ${q(m.operation)} always returns.`,
        before: memberAt(ctx.old, m.operation!, ["projection", "identity"], field),
      };
    }),
};
