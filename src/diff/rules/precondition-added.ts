import { q, type Rule } from "../rule.js";
import { preconditionPath } from "./_members.js";

/**
 * A new precondition breaks existing calls when they must now send the expectation (required), or
 * when it checks a field that callers could already send, whose values may now be rejected as
 * stale. An optional precondition on a new field changes nothing for existing calls and is not
 * reported.
 */
export const rule: Rule = {
  id: "precondition-added",
  severity: "breaking",
  category: "precondition",
  description: "An operation gained a precondition that existing calls can fail: a required one, or one on an input field that already existed.",
  hint: "Read the target's current state and send the expectation the precondition checks; handle its stale-state error by re-reading.",
  check: (ctx) =>
    ctx.find(["operations", "*", "preconditions", "*"], ["added"]).flatMap((m) => {
      const id = m.operation!;
      const field = m.change.path.at(-1)!;
      const required = ctx.new_.operation(id)?.preconditions.find((p) => p.field === field)?.required === true;
      const existing = ctx.old.operation(id)?.http.bindings.some((b) => b.field === field) === true;
      if (!required && !existing) return [];
      return [
        {
          operation: id,
          message: required ? `A required precondition on ${q(field)} was added to ${q(id)}.` : `A precondition on the existing input ${q(field)} was added to ${q(id)}.`,
          after: preconditionPath(ctx.new_, id, field),
        },
      ];
    }),
};
