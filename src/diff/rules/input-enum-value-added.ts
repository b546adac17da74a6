import { q, type Rule, type RuleFinding } from "../rule.js";
import { memberPath } from "./_members.js";
import { findInSchema, members, mention, reach, subject } from "./_schema.js";

export const rule: Rule = {
  id: "input-enum-value-added",
  severity: "info",
  category: "input",
  description: "An input field accepts a new enum value, or dropped its enum altogether.",
  hint: "Nothing to do; send the new value when you need it and regenerate adapters to get it in the types.",
  check: (ctx) => [
    ...findInSchema(ctx, "input", ["enum", "*"], ["added"]).map(
      (m): RuleFinding => ({
        ...reach(m),
        message: `Value ${q(m.change.path.at(-1))} was added to the enum of ${mention(m)}.`,
        before: [...m.schema, "enum"],
        after: memberPath(ctx.new_, m.schema, "enum", m.change.path.at(-1)!),
      }),
    ),
    // The enum went away: the field now accepts any value of its type.
    ...findInSchema(ctx, "input", ["enum"], ["removed"])
      .filter((m) => ctx.new_.get(m.schema) !== undefined)
      .map(
        (m): RuleFinding => ({
          ...reach(m),
          message: `${subject(m)} stopped being restricted to the enum values ${members(m.change.before).map((v) => q(v)).join(", ")}.`,
          before: [...m.schema, "enum"],
          after: m.schema,
        }),
      ),
  ],
};
