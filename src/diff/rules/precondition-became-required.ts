import { q, type Rule } from "../rule.js";
import { preconditionPath } from "./_members.js";

export const rule: Rule = {
  id: "precondition-became-required",
  severity: "breaking",
  category: "precondition",
  description: "An optional precondition became required.",
  hint: "Send the expectation on every call (read the target's current state first).",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "preconditions", "*", "required"], ["modified"])
      .filter((m) => m.change.before === false && m.change.after === true)
      .map((m) => {
        const field = m.change.path.at(-2)!;
        return {
          operation: m.operation,
          message: `The precondition on ${q(field)} of ${q(m.operation)} became required.`,
          before: [...preconditionPath(ctx.old, m.operation!, field), "required"],
          after: [...preconditionPath(ctx.new_, m.operation!, field), "required"],
        };
      }),
};
