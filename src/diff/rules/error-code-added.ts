import { q, type Rule } from "../rule.js";
import { errorRenames } from "./_pairs.js";

export const rule: Rule = {
  id: "error-code-added",
  severity: "info",
  category: "error",
  description: "An error code was added to the taxonomy.",
  hint: "Nothing to do; map the new code to its recovery action if you handle codes one by one.",
  check: (ctx) => {
    const renamed = new Set(errorRenames(ctx).map((r) => r.to));
    return ctx
      .find(["errors", "*"], ["added"])
      .filter((m) => !renamed.has(m.change.path[1]!))
      .map((m) => ({ operation: null, message: `Error code ${q(m.change.path[1])} was added.`, after: m.change.path }));
  },
};
