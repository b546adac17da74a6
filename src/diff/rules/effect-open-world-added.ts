import { q, type Rule } from "../rule.js";

/** The operation now reaches outside the platform (email, payments): effects that no rollback covers. */
export const rule: Rule = {
  id: "effect-open-world-added",
  severity: "warning",
  category: "effect",
  description: "An operation started touching systems outside the platform.",
  hint: "Expect effects outside the platform: keep the operation out of tests and speculative runs, and review approval policies for it.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "openWorld"], ["modified"])
      .filter((m) => m.change.before === false && m.change.after === true)
      .map((m) => ({
        operation: m.operation,
        message: `Operation ${q(m.operation)} now touches systems outside the platform (openWorld).`,
        before: m.change.path,
        after: m.change.path,
      })),
};
