import { type Rule } from "../rule.js";
import { findInSchema, reach, subject } from "./_schema.js";

/** A value consumers dereference without a check can now be null. */
export const rule: Rule = {
  id: "output-nullable-added",
  severity: "breaking",
  category: "output",
  description: "An output field that could not be null became nullable.",
  hint: "Handle null where you read the field, or keep it non-null until the next major version.",
  check: (ctx) =>
    findInSchema(ctx, "output", ["nullable"], ["modified"])
      .filter((m) => m.change.before === false && m.change.after === true)
      .map((m) => ({
        ...reach(m),
        message: `${subject(m)} became nullable.`,
        // Nullability is written in `type` ([…, "null"]).
        before: [...m.schema, "type"],
        after: [...m.schema, "type"],
      })),
};
