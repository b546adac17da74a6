import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "effect-mutating-to-read",
  severity: "info",
  category: "effect",
  description: "A mutating operation became a read.",
  hint: "Nothing to do; the operation no longer changes state, so confirmations and retry guards around it may be relaxed.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "kind"], ["modified"])
      .filter((m) => m.change.before === "mutating" && m.change.after === "read")
      .map((m) => ({
        operation: m.operation,
        message: `Operation ${q(m.operation)} changed from a mutating operation to a read.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
