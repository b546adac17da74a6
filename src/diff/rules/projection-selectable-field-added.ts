import { q, type Rule } from "../rule.js";
import { memberAt } from "./scope-added.js";

export const rule: Rule = {
  id: "projection-selectable-field-added",
  severity: "info",
  category: "projection",
  description: "A field became selectable through an operation's projection.",
  hint: "Nothing to do; select the field where it saves a second read.",
  check: (ctx) =>
    ctx.find(["operations", "*", "projection", "selectable", "*"], ["added"]).map((m) => {
      const field = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Field ${q(field)} was made selectable in the projection of ${q(m.operation)}.`,
        after: memberAt(ctx.new_, m.operation!, ["projection", "selectable"], field),
      };
    }),
};
