import { type Rule } from "../rule.js";
import { rawSchema } from "./_members.js";
import { findInSchema, reach, subject } from "./_schema.js";

/** The counterpart of input-additional-properties-closed: compatible, reported so that every change is visible. */
export const rule: Rule = {
  id: "input-additional-properties-opened",
  severity: "info",
  category: "input",
  description: "An input object started accepting properties it does not declare (additionalProperties or unevaluatedProperties stopped being false).",
  hint: "Nothing to do; undeclared properties are now accepted (and may be ignored).",
  check: (ctx) =>
    findInSchema(ctx, "input", ["closed"], ["removed"])
      .filter((m) => ctx.new_.get(m.schema) !== undefined)
      .map((m) => {
        const keyword = rawSchema(ctx.old, m.schema)?.additionalProperties === false ? "additionalProperties" : "unevaluatedProperties";
        return {
          ...reach(m),
          message: `${subject(m)} started accepting undeclared properties.`,
          before: [...m.schema, keyword],
          after: m.schema,
        };
      }),
};
