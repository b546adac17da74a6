import { fieldPath, q, type Rule } from "../rule.js";

/** The same number now means something else: the most dangerous change a schema cannot show. */
export const rule: Rule = {
  id: "input-unit-changed",
  severity: "breaking",
  category: "input",
  description: "The unit (x-unit) of an input field changed.",
  hint: "Convert the values you send to the new unit; a value that used to be right is now wrong by a factor.",
  check: (ctx) =>
    ctx.find(["operations", "*", "input", "**", "x-unit"]).map((m) => ({
      operation: m.operation,
      message: `The unit of input ${q(fieldPath(m.change.path.slice(3, -1)))} of ${q(m.operation)} changed from ${q(m.change.before ?? "none")} to ${q(m.change.after ?? "none")}.`,
      before: m.change.kind === "added" ? undefined : m.change.path,
      after: m.change.kind === "removed" ? undefined : m.change.path,
    })),
};
