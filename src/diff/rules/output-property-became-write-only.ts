import type { Rule } from "../rule.js";
import { findInSchema, reach, subject } from "./_schema.js";

/** A write-only property is not returned: to a consumer that reads it, it was removed. */
export const rule: Rule = {
  id: "output-property-became-write-only",
  severity: "breaking",
  category: "output",
  description: "An output property became writeOnly: it is no longer returned.",
  hint: "Stop reading the property from responses, or keep it readable until the next major version.",
  check: (ctx) =>
    findInSchema(ctx, "output", ["writeOnly"])
      .filter((m) => m.change.after === true && m.change.before !== true && m.schema.at(-2) === "properties" && ctx.old.get(m.schema) !== undefined)
      .map((m) => ({ ...reach(m), message: `${subject(m)} became write-only: it is no longer returned.`, before: m.schema, after: m.change.path })),
};
