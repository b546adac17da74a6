import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "operation-undeprecated",
  severity: "info",
  category: "operation",
  description: "An operation stopped being deprecated.",
  hint: "Nothing to do; the operation stays supported and no longer needs to be migrated away from.",
  check: (ctx) =>
    ctx.find(["operations", "*", "deprecated"], ["removed"]).map((m) => ({
      operation: m.operation,
      message: `Operation ${q(m.operation)} stopped being deprecated.`,
      before: m.change.path,
      after: ["operations", m.operation!],
    })),
};
