import { q, type Rule } from "../rule.js";

/** Code that undoes the effect with the old operation now calls one the contract no longer names for it. */
export const rule: Rule = {
  id: "effect-undo-changed",
  severity: "warning",
  category: "effect",
  description: "The operation that undoes an operation's effect (`effects.undo`) changed.",
  hint: "Undo the effect with the newly named operation, with the input it requires.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "undo"], ["modified"])
      .filter((m) => typeof m.change.before === "string" && typeof m.change.after === "string")
      .map((m) => ({
        operation: m.operation,
        message: `The undo of ${q(m.operation)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
