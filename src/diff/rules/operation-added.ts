import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "operation-added",
  severity: "info",
  category: "operation",
  description: "An operation was added.",
  hint: "Nothing to do; regenerate adapters to use it.",
  check: (ctx) =>
    ctx.find(["operations", "*"], ["added"]).map((m) => ({ operation: m.operation, message: `Operation ${q(m.operation)} was added.`, after: m.change.path })),
};
