import { q, type Rule, type RuleFinding } from "../rule.js";
import { findInput, inner, memberPath, members, subject } from "./input-property-removed.js";

export const rule: Rule = {
  id: "input-enum-value-added",
  severity: "info",
  category: "input",
  description: "An input field accepts a new enum value, or dropped its enum altogether.",
  hint: "Nothing to do; send the new value when you need it and regenerate adapters to get it in the types.",
  check: (ctx) => [
    ...findInput(ctx, ["enum", "*"], ["added"]).map(
      (m): RuleFinding => ({
        operation: m.operation,
        message: `Value ${q(m.change.path.at(-1))} was added to the enum of ${inner(m)}.`,
        before: [...m.schema, "enum"],
        after: memberPath(ctx.new_, m.schema, "enum", m.change.path.at(-1)!),
      }),
    ),
    // The enum went away: the field now accepts any value of its type.
    ...findInput(ctx, ["enum"], ["removed"])
      .filter((m) => ctx.new_.get(m.schema) !== undefined)
      .map(
        (m): RuleFinding => ({
          operation: m.operation,
          message: `${subject(m)} stopped being restricted to the enum values ${members(m.change.before).map((v) => q(v)).join(", ")}.`,
          before: [...m.schema, "enum"],
          after: m.schema,
        }),
      ),
  ],
};
