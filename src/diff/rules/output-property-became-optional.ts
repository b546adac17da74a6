import { type Rule } from "../rule.js";
import { propertySubject, reach, requiredChanges } from "./_schema.js";

/** Consumers that read the property unconditionally now meet responses without it. */
export const rule: Rule = {
  id: "output-property-became-optional",
  severity: "breaking",
  category: "output",
  description: "A required output property became optional.",
  hint: "Handle the property being absent where you read it, or keep it required until the next major version.",
  check: (ctx) =>
    requiredChanges(ctx, "output", "removed")
      // A property that is gone altogether is reported by output-property-removed.
      .filter(({ m, name }) => ctx.new_.get([...m.schema, "properties", name]) !== undefined)
      .map(({ m, name }) => ({
        ...reach(m),
        message: `${propertySubject(m, name)} became optional.`,
        before: [...m.schema, "required", name],
        after: [...m.schema, "required", name],
      })),
};
