import { type Rule } from "../rule.js";

export const rule: Rule = {
  id: "budget-lowered",
  severity: "info",
  category: "budget",
  description: "A catalogue budget (budget.catalogTokens or budget.maxTools) was lowered or introduced.",
  hint: "Nothing to do for consumers; contract authors have less room for new tools and descriptions.",
  check: (ctx) =>
    ["catalogTokens", "maxTools"].flatMap((key) =>
      ctx
        .find(["budget", key], ["modified"])
        .filter((m) => typeof m.change.after === "number" && (m.change.before === null || m.change.after < (m.change.before as number)))
        .map((m) => ({
          operation: null,
          message: `budget.${key} was lowered from ${m.change.before === null ? "no limit" : m.change.before} to ${m.change.after}.`,
          before: m.change.path,
          after: m.change.path,
        })),
    ),
};
