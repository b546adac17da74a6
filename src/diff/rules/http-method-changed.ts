import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "http-method-changed",
  severity: "breaking",
  category: "transport",
  description: "The HTTP method of an operation changed.",
  hint: "Regenerate the SDK; hand-written HTTP clients must switch to the new method.",
  check: (ctx) =>
    ctx.find(["operations", "*", "http", "method"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The HTTP method of ${q(m.operation)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
