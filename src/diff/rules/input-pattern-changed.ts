import { q, type Rule } from "../rule.js";
import { findInSchema, mention, reach } from "./_schema.js";

/** Whether the new pattern accepts every old value cannot be decided in general: a warning to review. */
export const rule: Rule = {
  id: "input-pattern-changed",
  severity: "warning",
  category: "input",
  description: "The pattern of a string input field changed.",
  hint: "Check the values you send against the new pattern; some that matched the old one may now be rejected.",
  check: (ctx) =>
    // To or from an empty pattern (which matches every string) is input-pattern-added or -removed.
    findInSchema(ctx, "input", ["pattern"], ["modified"]).filter((m) => m.change.before !== "" && m.change.after !== "").map((m) => ({
      ...reach(m),
      message: `The pattern of ${mention(m)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
