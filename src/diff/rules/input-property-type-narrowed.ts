import { type Rule } from "../rule.js";
import { showTypes, typeChanges } from "./_input-types.js";
import { reach, subject } from "./_schema.js";

export const rule: Rule = {
  id: "input-property-type-narrowed",
  severity: "breaking",
  category: "input",
  description: "An input field accepts fewer JSON types than before (e.g. number → integer, or string | integer → string).",
  hint: "Send only the types the field still accepts; values of the dropped types are now rejected.",
  check: (ctx) =>
    typeChanges(ctx)
      .filter((f) => f.change === "narrowed")
      .map(({ m, before, after }) => ({
        ...reach(m),
        message: `${subject(m)} was narrowed from type ${showTypes(before)} to ${showTypes(after)}.`,
        before: [...m.schema, "type"],
        after: [...m.schema, "type"],
      })),
};
