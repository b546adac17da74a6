import { q, type Rule, type RuleFinding } from "../rule.js";
import { memberPath } from "./_members.js";
import { findInSchema, members, mention, reach, subject } from "./_schema.js";

export const rule: Rule = {
  id: "input-enum-value-removed",
  severity: "breaking",
  category: "input",
  description: "An input field stopped accepting a value of its enum, or gained an enum where it accepted any value.",
  hint: "Stop sending the dropped value; map it to one the field still accepts.",
  check: (ctx) => [
    ...findInSchema(ctx, "input", ["enum", "*"], ["removed"]).map(
      (m): RuleFinding => ({
        ...reach(m),
        message: `Value ${q(m.change.path.at(-1))} was removed from the enum of ${mention(m)}.`,
        before: memberPath(ctx.old, m.schema, "enum", m.change.path.at(-1)!),
        after: [...m.schema, "enum"],
      }),
    ),
    // A field that accepted anything now accepts only the listed values.
    ...findInSchema(ctx, "input", ["enum"], ["added"])
      .filter((m) => ctx.old.get(m.schema) !== undefined)
      .map(
        (m): RuleFinding => ({
          ...reach(m),
          message: `${subject(m)} was restricted to the enum values ${members(m.change.after).map((v) => q(v)).join(", ")}.`,
          before: m.schema,
          after: [...m.schema, "enum"],
        }),
      ),
  ],
};
