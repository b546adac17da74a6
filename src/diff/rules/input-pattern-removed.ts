import { type Rule } from "../rule.js";
import { findInSchema, reach, subject } from "./_schema.js";

/** The counterpart of input-pattern-added: compatible, reported so that every change is visible. */
export const rule: Rule = {
  id: "input-pattern-removed",
  severity: "info",
  category: "input",
  description: "A string input field lost its pattern (or it became empty) and accepts any text.",
  hint: "Nothing to do; values that did not match the old pattern are now accepted.",
  check: (ctx) =>
    // An empty pattern matches every string: emptying one is removing it.
    findInSchema(ctx, "input", ["pattern"], ["removed", "modified"])
      .filter((m) => (m.change.kind === "removed" ? ctx.new_.get(m.schema) !== undefined : m.change.after === "" && m.change.before !== ""))
      .map((m) => ({
        ...reach(m),
        message: `${subject(m)} lost the pattern ${JSON.stringify(m.change.before)}.`,
        before: m.change.path,
        after: m.change.kind === "removed" ? m.schema : m.change.path,
      })),
};
