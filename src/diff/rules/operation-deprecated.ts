import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "operation-deprecated",
  severity: "warning",
  category: "operation",
  description: "An operation was deprecated.",
  hint: "Move calls to the replacement operation before the sunset date; the operation may be removed after it.",
  check: (ctx) =>
    ctx.find(["operations", "*", "deprecated"], ["added"]).map((m) => {
      const d = ctx.new_.operation(m.operation!)?.deprecated;
      const details = [d?.sunset ? `sunset ${d.sunset}` : "no sunset date", ...(d?.replacement ? [`replacement ${q(d.replacement)}`] : [])];
      return {
        operation: m.operation,
        message: `Operation ${q(m.operation)} was deprecated (${details.join(", ")}).`,
        before: ["operations", m.operation!],
        after: m.change.path,
        ...(d?.replacement ? { hint: `Move calls from ${q(m.operation)} to ${q(d.replacement)}${d.sunset ? ` before ${d.sunset}` : ""}.` } : {}),
      };
    }),
};
