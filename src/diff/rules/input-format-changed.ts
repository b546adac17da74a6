import { q, type Rule } from "../rule.js";
import { REFUSES_NOTHING } from "./_keywords.js";
import { findInSchema, mention, reach, subject } from "./_schema.js";

export const rule: Rule = {
  id: "input-format-changed",
  severity: "breaking",
  category: "input",
  description: "The format of a string input field was added or changed.",
  hint: "Send values in the new format (e.g. uuid, date-time); values in another format are now rejected.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["format"], ["added", "modified"])
      // A number format that refuses nothing (int64 on an integer) is schema-annotation-changed's.
      .filter((m) => ctx.old.get(m.schema) !== undefined && !REFUSES_NOTHING.has(String(m.change.after)))
      .map((m) => ({
        ...reach(m),
        message:
          m.change.kind === "added"
            ? `${subject(m)} gained the format ${q(m.change.after)}.`
            : `The format of ${mention(m)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
        before: m.change.kind === "added" ? m.schema : m.change.path,
        after: m.change.path,
      })),
};
