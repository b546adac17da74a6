import { q, type Rule } from "../rule.js";
import { findInSchema, mention, reach, subject } from "./_schema.js";

/** Consumers that parse the value by its format (dates, uuids, uris) may reject or misparse it. */
export const rule: Rule = {
  id: "output-format-changed",
  severity: "warning",
  category: "output",
  description: "The format of an output field was removed or changed (a format added narrows the output: output-constraint-tightened).",
  hint: "Check the code that parses the field: it must accept the new format.",
  check: (ctx) =>
    findInSchema(ctx, "output", ["format"], ["removed", "modified"]).map((m) => ({
      ...reach(m),
      message:
        m.change.kind === "added"
          ? `${subject(m)} gained the format ${q(m.change.after)}.`
          : m.change.kind === "removed"
            ? `${subject(m)} lost its format ${q(m.change.before)}.`
            : `The format of ${mention(m)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.kind === "added" ? m.schema : m.change.path,
      after: m.change.kind === "removed" ? m.schema : m.change.path,
    })),
};
