import { q, type Rule } from "../rule.js";
import { memberAt } from "./scope-added.js";

export const rule: Rule = {
  id: "filter-added",
  severity: "info",
  category: "projection",
  description: "An input field started narrowing an operation's results.",
  hint: "Nothing to do; use the filter instead of filtering results yourself.",
  check: (ctx) =>
    ctx.find(["operations", "*", "filters", "*"], ["added"]).map((m) => {
      const field = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Filter ${q(field)} was added to ${q(m.operation)}.`,
        after: memberAt(ctx.new_, m.operation!, ["filters"], field),
      };
    }),
};
