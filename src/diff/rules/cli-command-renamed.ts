import { q, type Rule } from "../rule.js";

/** Scripts that run the old command fail with "unknown command". */
export const rule: Rule = {
  id: "cli-command-renamed",
  severity: "breaking",
  category: "surface",
  description: "The CLI command name of an operation changed.",
  hint: "Update scripts and documentation that run the command.",
  check: (ctx) =>
    ctx.find(["operations", "*", "names", "kebab"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The CLI command of ${q(m.operation)} was renamed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
