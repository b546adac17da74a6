import { type Rule } from "../rule.js";
import { propertyChanges, propertySubject, reach } from "./_schema.js";

export const rule: Rule = {
  id: "input-property-removed",
  severity: "breaking",
  category: "input",
  description: "A property of an operation's input was removed.",
  hint: "Stop sending the property; callers that still send it are rejected or silently ignored.",
  check: (ctx) =>
    propertyChanges(ctx, "input", "removed").map(({ m, name, path }) => ({
      ...reach(m),
      message: `${propertySubject(m, name)} was removed.`,
      before: path,
      after: m.schema,
    })),
};
