import { q, type Rule } from "../rule.js";

/** Callers that relied on undoing the effect with another operation no longer can. */
export const rule: Rule = {
  id: "effect-became-irreversible",
  severity: "breaking",
  category: "effect",
  description: "An operation's effect can no longer be undone by another operation.",
  hint: "Stop relying on undoing the effect; confirm before calling the operation.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "reversible"], ["modified"])
      .filter((m) => m.change.before === true && m.change.after === false)
      .map((m) => ({
        operation: m.operation,
        message: `Operation ${q(m.operation)} became irreversible.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
