import { type Rule } from "../rule.js";
import { findInSchema, mention, reach, subject } from "./_schema.js";

/**
 * A new default changes what a call that omits the field does, and the schema shows it only as a
 * value. The changelog must say so (changelog-entry-missing checks it, keyed on this rule's new location).
 */
export const rule: Rule = {
  id: "input-default-changed",
  severity: "warning",
  category: "input",
  description: "The default of an input field was changed, added or removed, which changes what calls that omit the field do; the changelog must record it.",
  hint: "Send the field explicitly if you relied on the old default; the contract must record the change in its changelog with a change of kind `default`.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["default"])
      .filter((m) => ctx.old.get(m.schema) !== undefined && ctx.new_.get(m.schema) !== undefined)
      .map((m) => ({
        ...reach(m),
        // Defaults are kept as JSON text in the tree: 20, true, "asc".
        message:
          m.change.kind === "modified"
            ? `The default of ${mention(m)} changed from ${m.change.before} to ${m.change.after}.`
            : m.change.kind === "added"
              ? `${subject(m)} gained the default ${m.change.after}.`
              : `${subject(m)} lost its default ${m.change.before}.`,
        before: m.change.kind === "added" ? m.schema : m.change.path,
        after: m.change.kind === "removed" ? m.schema : m.change.path,
      })),
};
