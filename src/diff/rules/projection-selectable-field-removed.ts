import { q, type Rule } from "../rule.js";
import { memberAt } from "./scope-added.js";

/** Callers that select the field are rejected (or get a response without it). */
export const rule: Rule = {
  id: "projection-selectable-field-removed",
  severity: "breaking",
  category: "projection",
  description: "A field can no longer be selected through an operation's projection.",
  hint: "Stop selecting the field; read it through another operation if you still need it.",
  check: (ctx) =>
    ctx.find(["operations", "*", "projection", "selectable", "*"], ["removed"]).map((m) => {
      const field = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Field ${q(field)} can no longer be selected in the projection of ${q(m.operation)}.`,
        before: memberAt(ctx.old, m.operation!, ["projection", "selectable"], field),
      };
    }),
};
