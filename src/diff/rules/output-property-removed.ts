import { fieldPath, q, type Rule } from "../rule.js";
import { findInSchema } from "./_schema.js";

export const rule: Rule = {
  id: "output-property-removed",
  severity: "breaking",
  category: "output",
  description: "A property of an operation's output was removed.",
  hint: "Stop reading the property, or keep it in the output until the next major version.",
  check: (ctx) =>
    findInSchema(ctx, "output", ["properties", "*"], ["removed"]).map((m) => ({
      operation: m.operation,
      message: `Output property ${q(fieldPath(m.change.path.slice(3)))} of ${q(m.operation)} was removed.`,
      before: m.change.path,
      after: m.schema,
    })),
};
