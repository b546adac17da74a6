import { type Rule } from "../rule.js";
import { members, propertyChanges, propertySubject, reach } from "./_schema.js";

/** A property every response carried is gone: consumers that read it break. (An optional one: output-optional-property-removed.) */
export const rule: Rule = {
  id: "output-property-removed",
  severity: "breaking",
  category: "output",
  description: "A required property of an operation's output was removed.",
  hint: "Stop reading the property, or keep it in the output until the next major version.",
  check: (ctx) =>
    propertyChanges(ctx, "output", "removed")
      .filter(({ m, name }) => members(ctx.old.get([...m.schema, "required"])).includes(name))
      .map(({ m, name, path }) => ({
      ...reach(m),
      message: `${propertySubject(m, name)} was removed.`,
      before: path,
      after: m.schema,
    })),
};
