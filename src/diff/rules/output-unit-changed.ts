import { q, type Rule } from "../rule.js";
import { findInSchema, mention, reach } from "./_schema.js";

/** The same number now means something else: consumers silently misread it by a factor. */
export const rule: Rule = {
  id: "output-unit-changed",
  severity: "breaking",
  category: "output",
  description: "The unit (x-unit) of an output field changed.",
  hint: "Convert the values you read to the new unit; a value read the old way is now wrong by a factor.",
  check: (ctx) =>
    findInSchema(ctx, "output", ["x-unit"]).map((m) => ({
      ...reach(m),
      message: `The unit of ${mention(m)} changed from ${q(m.change.before ?? "none")} to ${q(m.change.after ?? "none")}.`,
      // Where a side has no unit, point at the field itself.
      before: m.change.kind === "added" ? m.schema : m.change.path,
      after: m.change.kind === "removed" ? m.schema : m.change.path,
    })),
};
