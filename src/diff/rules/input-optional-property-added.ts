import { fieldPath, q, type Rule } from "../rule.js";
import { findInSchema, members } from "./_schema.js";

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
        operation: m.operation,
        message: `Optional input property ${q(fieldPath([...m.schema.slice(3), "properties", m.change.path.at(-1)!]))} was added to ${q(m.operation)}.`,
        before: m.schema,
        after: m.change.path,
      })),
};
