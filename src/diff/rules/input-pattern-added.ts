import { q, type Rule } from "../rule.js";
import { findInSchema, reach, subject } from "./_schema.js";

export const rule: Rule = {
  id: "input-pattern-added",
  severity: "breaking",
  category: "input",
  description: "A string input field that accepted any text gained a pattern (an empty pattern counts as none).",
  hint: "Check the values you send against the new pattern; values that do not match are now rejected.",
  check: (ctx) =>
    // An empty pattern matches every string: replacing it is adding the first pattern.
    findInSchema(ctx, "input", ["pattern"], ["added", "modified"])
      .filter((m) => (m.change.kind === "added" ? ctx.old.get(m.schema) !== undefined : m.change.before === "" && m.change.after !== ""))
      .map((m) => ({
        ...reach(m),
        message: `${subject(m)} gained the pattern ${q(m.change.after)}.`,
        before: m.change.kind === "added" ? m.schema : m.change.path,
        after: m.change.path,
      })),
};
