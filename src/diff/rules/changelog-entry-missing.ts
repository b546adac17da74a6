import { q, type Rule } from "../rule.js";
import { newVersionEntry, overlaps } from "./_changelog.js";

/** Finding ids whose change the schemas alone cannot make safe: the changelog must say it in words. */
const SEMANTIC_RULES = new Set([
  "input-unit-changed",
  "output-unit-changed",
  "input-default-changed",
  "preview-dry-run-default-flipped",
  "pagination-default-page-size-changed",
]);

/**
 * Version policy: a change in meaning (unit, default) must be recorded as a dated changelog entry
 * of the new version whose change targets the affected node (or one of its ancestors).
 */
export const rule: Rule = {
  id: "changelog-entry-missing",
  severity: "breaking",
  category: "version",
  phase: "policy",
  description: "A change in meaning (a unit, a default, a default page size or dry-run default) has no matching changelog change in the new version.",
  hint: "Add a `changes` item of kind unit/default to the new version's changelog entry, targeting the changed field.",
  check: (ctx) => {
    // An OpenAPI document keeps no changelog: the duty is the contract's, never the document's.
    if (ctx.options.release?.from === "run") return [];
    const { index, entry } = newVersionEntry(ctx);
    const targets = (entry?.changes ?? []).map((c) => c.target);
    return ctx.findings
      .filter((f) => SEMANTIC_RULES.has(f.rule) && f.new !== null)
      .filter((f) => !targets.some((t) => overlaps(f.new!.pointer, t)))
      .map((f) => ({
        operation: f.operation,
        operations: f.operations,
        message: `${f.message.replace(/\.$/, "")}, but the changelog of ${q(ctx.new_.model.version)} does not record it.`,
        after: entry ? ["changelog", String(index)] : ["version"],
        about: f,
      }));
  },
};
