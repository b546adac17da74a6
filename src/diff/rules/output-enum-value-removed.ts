import { q, type Rule } from "../rule.js";
import { findInSchema, reach, subject } from "./_schema.js";

/** Fewer possible values: consumers' handling of the old value is dead code, nothing breaks. */
export const rule: Rule = {
  id: "output-enum-value-removed",
  severity: "info",
  category: "output",
  description: "An enum value of an output field was removed.",
  hint: "Nothing to do; code that handles the removed value can go.",
  check: (ctx) =>
    findInSchema(ctx, "output", ["enum", "*"], ["removed"]).map((m) => ({
      ...reach(m),
      message: `${subject(m)} lost the enum value ${q(m.rest[1])}.`,
      before: m.change.path,
      after: [...m.schema, "enum"],
    })),
};
