import { q, type Rule } from "../rule.js";

/** Callers that recover from the declared details lose them (and their SDK type). */
export const rule: Rule = {
  id: "error-details-removed",
  severity: "breaking",
  category: "error",
  description: "An error code stopped declaring the schema of its `details`.",
  hint: "Stop relying on the error's details; re-read the target to recover instead.",
  check: (ctx) =>
    ctx.find(["errors", "*", "details"], ["removed"]).map((m) => ({
      operation: null,
      message: `Error ${q(m.change.path[1])} no longer declares its details.`,
      before: m.change.path,
      after: ["errors", m.change.path[1]!],
    })),
};
