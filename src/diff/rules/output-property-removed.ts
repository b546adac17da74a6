import { type Rule } from "../rule.js";
import { findInSchema, propertySubject, reach } from "./_schema.js";

export const rule: Rule = {
  id: "output-property-removed",
  severity: "breaking",
  category: "output",
  description: "A property of an operation's output was removed.",
  hint: "Stop reading the property, or keep it in the output until the next major version.",
  check: (ctx) =>
    findInSchema(ctx, "output", ["properties", "*"], ["removed"]).map((m) => ({
      ...reach(m),
      message: `${propertySubject(m, m.rest[1]!)} was removed.`,
      before: m.change.path,
      after: m.schema,
    })),
};
