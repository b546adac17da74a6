import { type Rule } from "../rule.js";
import { propertySubject, reach, requiredChanges } from "./_schema.js";

/** A stronger promise: consumers may drop their checks for the property's absence. */
export const rule: Rule = {
  id: "output-property-became-required",
  severity: "info",
  category: "output",
  description: "An optional output property became required.",
  hint: "Nothing to do; checks for the property being absent are no longer needed.",
  check: (ctx) =>
    requiredChanges(ctx, "output", "added")
      // A property that is itself new is reported by output-property-added.
      .filter(({ m, name }) => ctx.old.get([...m.schema, "properties", name]) !== undefined)
      .map(({ m, name }) => ({
        ...reach(m),
        message: `${propertySubject(m, name)} became required.`,
        before: [...m.schema, "required", name],
        after: [...m.schema, "required", name],
      })),
};
