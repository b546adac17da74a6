import { fieldPath, q, type Rule } from "../rule.js";
import { findInSchema } from "./_schema.js";

export const rule: Rule = {
  id: "input-property-removed",
  severity: "breaking",
  category: "input",
  description: "A property of an operation's input was removed.",
  hint: "Stop sending the property; callers that still send it are rejected or silently ignored.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["properties", "*"], ["removed"]).map((m) => {
      const name = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Input property ${q(fieldPath([...m.schema.slice(3), "properties", name]))} of ${q(m.operation)} was removed.`,
        before: m.change.path,
        after: m.schema,
      };
    }),
};
