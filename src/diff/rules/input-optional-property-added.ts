import { q, type Rule } from "../rule.js";
import { findInSchema, members, childField, owner, reach } from "./_schema.js";

export const rule: Rule = {
  id: "input-optional-property-added",
  severity: "info",
  category: "input",
  description: "An optional input property was added.",
  hint: "Nothing to do; send the new property when you need it and regenerate adapters to get its type.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["properties", "*"], ["added"])
      // A new required property is reported by input-required-property-added.
      .filter((m) => !members(ctx.new_.get([...m.schema, "required"])).includes(m.change.path.at(-1)!))
      .map((m) => ({
        ...reach(m),
        message: `Optional input property ${q(childField(m, m.change.path.at(-1)!))} was added to ${owner(m)}.`,
        before: m.schema,
        after: m.change.path,
      })),
};
