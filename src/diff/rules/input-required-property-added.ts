import { type Rule } from "../rule.js";
import { findInSchema, members, propertySubject, reach } from "./_schema.js";

/** A new property that callers must send: every existing call now fails validation. */
export const rule: Rule = {
  id: "input-required-property-added",
  severity: "breaking",
  category: "input",
  description: "A required input property was added.",
  hint: "Make the new property optional with a default, or ship it in a new major version.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["properties", "*"], ["added"])
      .filter((m) => members(ctx.new_.get([...m.schema, "required"])).includes(m.rest[1]!))
      .map((m) => ({
        ...reach(m),
        message: `${propertySubject(m, m.rest[1]!)} was added as required.`,
        after: m.change.path,
      })),
};
