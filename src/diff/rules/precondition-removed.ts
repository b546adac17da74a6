import { q, type Rule } from "../rule.js";
import { preconditionPath } from "./_members.js";

/** Expectations callers send are no longer checked: a write based on a stale read now goes through. */
export const rule: Rule = {
  id: "precondition-removed",
  severity: "warning",
  category: "precondition",
  description: "An operation dropped a precondition, so stale expectations are no longer rejected.",
  hint: "Do not rely on the operation to refuse stale writes any more; check the current state yourself right before calling it.",
  check: (ctx) =>
    ctx.find(["operations", "*", "preconditions", "*"], ["removed"]).map((m) => {
      const field = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `The precondition on ${q(field)} was removed from ${q(m.operation)}.`,
        before: preconditionPath(ctx.old, m.operation!, field),
      };
    }),
};
