import { type DiffContext, type Rule } from "../rule.js";
import { findInSchema, mention, reach, subject } from "./_schema.js";

/**
 * A new default changes what a call that omits the field does, and the schema shows it only as a
 * value: existing calls, unchanged, now ask for something else. That is exactly what makes
 * preview-dry-run-default-flipped breaking (the dry-run default is one input default), so this rule
 * is breaking too; one severity for one kind of change. The changelog must also say so
 * (changelog-entry-missing checks it, keyed on this rule's new location).
 */
/** Whether the input field at `schema` is the operation's dry-run or page-size field on both sides. */
function judgedElsewhere(ctx: DiffContext, id: string, schema: readonly string[]): boolean {
  if (schema.length !== 5 || schema[3] !== "properties") return false;
  const field = schema[4];
  return [ctx.old.operation(id), ctx.new_.operation(id)].every((op) => op !== undefined && (op.preview?.dryRunField === field || op.pagination?.limitField === field));
}

export const rule: Rule = {
  id: "input-default-changed",
  severity: "breaking",
  category: "input",
  description:
    "The default of an input field was changed, added or removed. Breaking, like preview-dry-run-default-flipped: existing calls that omit the field now do something else without any change on their side. The changelog must record it.",
  hint: "Send the field explicitly if you relied on the old default; the contract must record the change in its changelog with a change of kind `default`.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["default"])
      .filter((m) => ctx.old.get(m.schema) !== undefined && ctx.new_.get(m.schema) !== undefined)
      // The dry-run and page-size defaults are judged by their own rules (preview-dry-run-default-flipped,
      // pagination-default-page-size-changed): one edit, one finding.
      .filter((m) => !m.operations.every((id) => judgedElsewhere(ctx, id, m.schema)))
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
