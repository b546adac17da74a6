import { q, type Rule } from "../rule.js";
import { childField, members, owner, propertyChanges, reach } from "./_schema.js";

export const rule: Rule = {
  id: "input-optional-property-added",
  severity: "info",
  category: "input",
  description: "An optional input property was added.",
  hint: "Nothing to do; send the new property when you need it and regenerate adapters to get its type.",
  check: (ctx) =>
    propertyChanges(ctx, "input", "added")
      // A new required property is reported by input-required-property-added.
      .filter(({ m, name }) => !members(ctx.new_.get([...m.schema, "required"])).includes(name))
      .map(({ m, name, path }) => ({
        ...reach(m),
        message: `Optional input property ${q(childField(m, name))} was added to ${owner(m)}.`,
        before: m.schema,
        after: path,
      })),
};
