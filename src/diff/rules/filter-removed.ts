import { q, type Rule } from "../rule.js";
import { memberAt } from "./scope-added.js";

/** A call that still sends the field no longer narrows the results: it gets more than it asked for. */
export const rule: Rule = {
  id: "filter-removed",
  severity: "breaking",
  category: "projection",
  description: "An input field no longer narrows an operation's results.",
  hint: "Filter the results yourself; a call that sends the field may now return items it would have excluded.",
  check: (ctx) =>
    ctx.find(["operations", "*", "filters", "*"], ["removed"]).map((m) => {
      const field = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Filter ${q(field)} was removed from ${q(m.operation)}.`,
        before: memberAt(ctx.old, m.operation!, ["filters"], field),
      };
    }),
};
