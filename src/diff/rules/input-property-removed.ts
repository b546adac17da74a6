import { type Rule } from "../rule.js";
import { lifecycleAt, propertyChanges, propertySubject, reach } from "./_schema.js";

export const rule: Rule = {
  id: "input-property-removed",
  severity: "breaking",
  category: "input",
  description: "A property of an operation's input was removed without being deprecated first.",
  hint: "Stop sending the property; callers that still send it are rejected or silently ignored.",
  check: (ctx) =>
    // A property the old contract deprecated is judged by its deprecation (input-property-removed-after-deprecation, -before-sunset).
    propertyChanges(ctx, "input", "removed").filter(({ path }) => !lifecycleAt(ctx.old, path).deprecated).map(({ m, name, path }) => ({
      ...reach(m),
      message: `${propertySubject(m, name)} was removed.`,
      before: path,
      after: m.schema,
    })),
};
