import { type Rule } from "../rule.js";
import { propertyChanges, propertySubject, reach } from "./_schema.js";

export const rule: Rule = {
  id: "output-property-removed",
  severity: "breaking",
  category: "output",
  description: "A property of an operation's output was removed.",
  hint: "Stop reading the property, or keep it in the output until the next major version.",
  check: (ctx) =>
    propertyChanges(ctx, "output", "removed").map(({ m, name, path }) => ({
      ...reach(m),
      message: `${propertySubject(m, name)} was removed.`,
      before: path,
      after: m.schema,
    })),
};
