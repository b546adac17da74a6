import { q, type Rule } from "../rule.js";
import { findInSchema, isTreeNode, reach, subject } from "./_schema.js";

/** Exhaustive consumers (a switch without a default, a closed union type) break on a value they do not know. */
export const rule: Rule = {
  id: "output-enum-value-added",
  severity: "warning",
  category: "output",
  description: "An output field can take a value it could not before: an enum value was added, or the enum was dropped.",
  hint: "Handle the new value where you branch on the field, and keep a default branch for values added later.",
  check: (ctx) => [
    ...findInSchema(ctx, "output", ["enum", "*"], ["added"]).map((m) => ({
      ...reach(m),
      message: `${subject(m)} gained the enum value ${q(m.rest[1])}.`,
      before: [...m.schema, "enum"],
      after: m.change.path,
    })),
    ...findInSchema(ctx, "output", ["enum"], ["removed"])
      .filter((m) => isTreeNode(ctx.new_.get(m.schema)))
      .map((m) => ({
        ...reach(m),
        message: `${subject(m)} lost its enum and can now hold any value (it was one of ${Object.keys(m.change.before as object).map((v) => q(v)).join(", ")}).`,
        before: m.change.path,
        after: m.schema,
      })),
  ],
};
