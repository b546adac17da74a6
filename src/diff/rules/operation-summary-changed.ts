import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "operation-summary-changed",
  severity: "info",
  category: "operation",
  description: "The one-line summary of an operation changed.",
  hint: "Nothing to do; agents and --help show the new summary, so check that prompts quoting the old one still fit.",
  check: (ctx) =>
    ctx.find(["operations", "*", "summary"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The summary of ${q(m.operation)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
