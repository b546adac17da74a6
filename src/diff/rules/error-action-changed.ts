import { q, type Rule } from "../rule.js";

/** Callers (and agents) recover by the action: the same code now asks for a different recovery. */
export const rule: Rule = {
  id: "error-action-changed",
  severity: "breaking",
  category: "error",
  description: "The recovery action of an error code changed.",
  hint: "Update the recovery you perform for the code to the new action.",
  check: (ctx) =>
    ctx.find(["errors", "*", "action"], ["modified"]).map((m) => ({
      operation: null,
      message: `The recovery action of error ${q(m.change.path[1])} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
