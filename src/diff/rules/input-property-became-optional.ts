import { type Rule } from "../rule.js";
import { propertySubject, reach, requiredChanges } from "./_schema.js";

export const rule: Rule = {
  id: "input-property-became-optional",
  severity: "info",
  category: "input",
  description: "A required input property became optional.",
  hint: "Nothing to do; check what the operation does when you omit the property before you stop sending it.",
  check: (ctx) =>
    requiredChanges(ctx, "input", "removed")
      // A property that was removed altogether is reported by input-property-removed.
      .filter(({ m, name }) => ctx.new_.get([...m.schema, "properties", name]) !== undefined)
      .map(({ m, name }) => {
        const property = [...m.schema, "properties", name];
        return {
          ...reach(m),
          message: `${propertySubject(m, name)} became optional.`,
          before: property,
          after: property,
        };
      }),
};
