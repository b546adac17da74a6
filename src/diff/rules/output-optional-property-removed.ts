import { type Rule } from "../rule.js";
import { members, propertyChanges, propertySubject, reach } from "./_schema.js";

/** Consumers of an optional property already handle its absence; those that use it lose its data. */
export const rule: Rule = {
  id: "output-optional-property-removed",
  severity: "warning",
  category: "output",
  description: "An optional property of an operation's output was removed (consumers already handle its absence, but lose what it carried).",
  hint: "Check code that uses the property when present: it will no longer be.",
  check: (ctx) =>
    propertyChanges(ctx, "output", "removed")
      .filter(({ m, name }) => !members(ctx.old.get([...m.schema, "required"])).includes(name))
      .map(({ m, name, path }) => ({
        ...reach(m),
        message: `Optional ${propertySubject(m, name).charAt(0).toLowerCase()}${propertySubject(m, name).slice(1)} was removed.`,
        before: path,
        after: m.schema,
      })),
};
