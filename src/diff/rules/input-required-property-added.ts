import { type Rule } from "../rule.js";
import { members, propertyChanges, propertySubject, reach } from "./_schema.js";

/** A new property that callers must send: every existing call now fails validation. */
export const rule: Rule = {
  id: "input-required-property-added",
  severity: "breaking",
  category: "input",
  description: "A required input property was added.",
  hint: "Make the new property optional with a default, or ship it in a new major version.",
  check: (ctx) =>
    propertyChanges(ctx, "input", "added")
      .filter(({ m, name }) => members(ctx.new_.get([...m.schema, "required"])).includes(name))
      .map(({ m, name, path }) => ({
        ...reach(m),
        message: `${propertySubject(m, name)} was added as required.`,
        after: path,
      })),
};
