import { q, type Rule } from "../rule.js";
import { findInSchema, mention, reach } from "./_schema.js";

/** The same number now means something else: the most dangerous change a schema cannot show. */
export const rule: Rule = {
  id: "input-unit-changed",
  severity: "breaking",
  category: "input",
  description: "The unit (x-unit) of an input field changed.",
  hint: "Convert the values you send to the new unit; a value that used to be right is now wrong by a factor.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["x-unit"]).map((m) => ({
      ...reach(m),
      message: `The unit of ${mention(m)} changed from ${q(m.change.before ?? "none")} to ${q(m.change.after ?? "none")}.`,
      before: m.change.kind === "added" ? undefined : m.change.path,
      after: m.change.kind === "removed" ? undefined : m.change.path,
    })),
};
