import { q, type Rule } from "../rule.js";

/**
 * What a call that omits the dry-run field does. true → false is the dangerous direction: a call
 * that used to preview now executes. false → true is reported too: such a call now silently only
 * previews, and the effect the caller expects never happens.
 */
export const rule: Rule = {
  id: "preview-dry-run-default-flipped",
  severity: "breaking",
  category: "preview",
  description: "Whether a call that omits the dry-run field previews or executes flipped.",
  hint: "Always send the dry-run field explicitly: true to preview, false (with a confirm token) to execute.",
  check: (ctx) =>
    ctx.find(["operations", "*", "preview", "defaultDryRun"], ["modified"]).map((m) => {
      const id = m.operation!;
      const field = q(ctx.new_.operation(id)?.preview?.dryRunField);
      const executes = m.change.after === false;
      return {
        operation: id,
        message: executes
          ? `Calls to ${q(id)} that omit ${field} switched from previewing to executing.`
          : `Calls to ${q(id)} that omit ${field} switched from executing to only previewing.`,
        // The document writes the flag as `default` (absent means true).
        before: ["operations", id, "preview", "default"],
        after: ["operations", id, "preview", "default"],
        ...(executes ? {} : { hint: `Send ${field}: false with a confirm token from a preview to execute; calls that omit it no longer have any effect.` }),
      };
    }),
};
