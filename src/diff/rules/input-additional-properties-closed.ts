import { type Rule } from "../rule.js";
import { rawSchema } from "./_members.js";
import { findInSchema, reach, subject } from "./_schema.js";

export const rule: Rule = {
  id: "input-additional-properties-closed",
  severity: "breaking",
  category: "input",
  description: "An input object stopped accepting properties it does not declare (additionalProperties or unevaluatedProperties became false).",
  hint: "Send only the declared properties; calls with any other property are now rejected.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["closed"], ["added"])
      .filter((m) => ctx.old.get(m.schema) !== undefined)
      .map((m) => {
        const keyword = rawSchema(ctx.new_, m.schema)?.additionalProperties === false ? "additionalProperties" : "unevaluatedProperties";
        return {
          ...reach(m),
          message: `${subject(m)} stopped accepting undeclared properties.`,
          before: m.schema,
          after: [...m.schema, keyword],
        };
      }),
};
