import { q, type Rule } from "../rule.js";

/** Callers planned their migration by the old date; an earlier one can cut them off. */
export const rule: Rule = {
  id: "operation-sunset-moved-earlier",
  severity: "breaking",
  category: "operation",
  description: "The sunset date of a deprecated operation moved earlier.",
  hint: "Finish migrating off the operation before the new, earlier sunset date.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "deprecated", "sunset"], ["modified"])
      // Dates are YYYY-MM-DD, so text order is date order. Setting a first sunset is not a move.
      .filter((m) => typeof m.change.before === "string" && typeof m.change.after === "string" && m.change.after < m.change.before)
      .map((m) => ({
        operation: m.operation,
        message: `The sunset date of ${q(m.operation)} moved earlier from ${m.change.before} to ${m.change.after}.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
