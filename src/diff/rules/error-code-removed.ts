import { q, type Rule } from "../rule.js";
import { errorRenames } from "./_pairs.js";

/** Codes are append-only: clients match on them, and a removed code silently falls through their handling. */
export const rule: Rule = {
  id: "error-code-removed",
  severity: "breaking",
  category: "error",
  description: "An error code was removed from the taxonomy.",
  hint: "Keep the code (codes are append-only); to retire it, stop raising it and add a new code.",
  check: (ctx) => {
    const renamed = new Set(errorRenames(ctx).map((r) => r.from));
    return ctx
      .find(["errors", "*"], ["removed"])
      .filter((m) => !renamed.has(m.change.path[1]!))
      .map((m) => ({ operation: null, message: `Error code ${q(m.change.path[1])} was removed.`, before: m.change.path }));
  },
};
