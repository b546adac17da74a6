import { q, type Rule } from "../rule.js";
import { findInSchema, reach, subject } from "./_schema.js";

export const rule: Rule = {
  id: "input-pattern-added",
  severity: "breaking",
  category: "input",
  description: "A string input field that accepted any text gained a pattern.",
  hint: "Check the values you send against the new pattern; values that do not match are now rejected.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["pattern"], ["added"])
      .filter((m) => ctx.old.get(m.schema) !== undefined)
      .map((m) => ({
        ...reach(m),
        message: `${subject(m)} gained the pattern ${q(m.change.after)}.`,
        before: m.schema,
        after: m.change.path,
      })),
};
