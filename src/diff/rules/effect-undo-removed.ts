import { q, type Rule } from "../rule.js";

/** Callers (and agents) that planned to undo the effect with the named operation lose that way back. */
export const rule: Rule = {
  id: "effect-undo-removed",
  severity: "breaking",
  category: "effect",
  description: "An operation stopped naming the operation that undoes its effect (`effects.undo`).",
  hint: "Stop relying on undoing the effect with the former undo operation; confirm before calling.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "undo"], ["modified"])
      .filter((m) => typeof m.change.before === "string" && m.change.after === null)
      .map((m) => ({
        operation: m.operation,
        message: `Operation ${q(m.operation)} no longer names ${q(m.change.before)} as its undo.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
