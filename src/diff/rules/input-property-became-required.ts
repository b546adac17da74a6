import { type Rule } from "../rule.js";
import { propertySubject, reach, requiredChanges } from "./_schema.js";

export const rule: Rule = {
  id: "input-property-became-required",
  severity: "breaking",
  category: "input",
  description: "An optional input property became required.",
  hint: "Callers must now send the property; keep it optional or bump the major version.",
  check: (ctx) =>
    requiredChanges(ctx, "input", "added")
      // A property that is itself new is reported by input-required-property-added.
      .filter(({ m, name }) => ctx.old.get([...m.schema, "properties", name]) !== undefined)
      .map(({ m, name }) => {
        const property = [...m.schema, "properties", name];
        return {
          ...reach(m),
          message: `${propertySubject(m, name)} became required.`,
          before: property,
          after: property,
        };
      }),
};
