import { q, type Rule } from "../rule.js";
import { findInput, inner } from "./input-property-removed.js";

/** Whether the new pattern accepts every old value cannot be decided in general: a warning to review. */
export const rule: Rule = {
  id: "input-pattern-changed",
  severity: "warning",
  category: "input",
  description: "The pattern of a string input field changed.",
  hint: "Check the values you send against the new pattern; some that matched the old one may now be rejected.",
  check: (ctx) =>
    findInput(ctx, ["pattern"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The pattern of ${inner(m)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
