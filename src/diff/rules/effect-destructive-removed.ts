import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "effect-destructive-removed",
  severity: "info",
  category: "effect",
  description: "An operation stopped being destructive.",
  hint: "Nothing to do; confirmation steps kept only because it was destructive may be relaxed.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "destructive"], ["modified"])
      .filter((m) => m.change.before === true && m.change.after === false)
      .map((m) => ({
        operation: m.operation,
        message: `Operation ${q(m.operation)} is no longer destructive.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
