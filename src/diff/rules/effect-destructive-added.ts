import { q, type Rule } from "../rule.js";

/** Callers and agent hosts gate destructive tools (destructiveHint); this one was not gated before. */
export const rule: Rule = {
  id: "effect-destructive-added",
  severity: "breaking",
  category: "effect",
  description: "An operation became destructive.",
  hint: "Review every call: it can now destroy or overwrite data, so confirm (or preview) before calling it.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "destructive"], ["modified"])
      .filter((m) => m.change.before === false && m.change.after === true)
      .map((m) => ({
        operation: m.operation,
        message: `Operation ${q(m.operation)} became destructive.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
