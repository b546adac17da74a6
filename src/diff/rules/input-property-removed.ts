import { type Rule } from "../rule.js";
import { findInSchema, propertySubject, reach } from "./_schema.js";

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
        ...reach(m),
        message: `${propertySubject(m, name)} was removed.`,
        before: m.change.path,
        after: m.schema,
      };
    }),
};
