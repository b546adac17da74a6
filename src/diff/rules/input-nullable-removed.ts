import { type Rule } from "../rule.js";
import { memberPath } from "./_members.js";
import { findInSchema, reach, subject } from "./_schema.js";

export const rule: Rule = {
  id: "input-nullable-removed",
  severity: "breaking",
  category: "input",
  description: "An input field stopped accepting null.",
  hint: "Omit the field (if it is optional) or send a real value instead of null.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["nullable"], ["modified"])
      .filter((m) => m.change.before === true && m.change.after === false)
      .map((m) => ({
        ...reach(m),
        message: `${subject(m)} stopped accepting null.`,
        before: memberPath(ctx.old, m.schema, "type", "null"),
        after: [...m.schema, "type"],
      })),
};
