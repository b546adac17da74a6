import { q, type Rule } from "../rule.js";

/** Nothing stops an unreviewed call any more, and a call meant as a preview now executes. */
export const rule: Rule = {
  id: "preview-removed",
  severity: "warning",
  category: "preview",
  description: "An operation stopped offering preview and confirm: calls execute immediately, without a confirm token.",
  hint: "Stop sending the dry-run field to preview; put your own confirmation step before calling the operation.",
  check: (ctx) =>
    ctx.find(["operations", "*", "preview"], ["removed"]).map((m) => ({
      operation: m.operation,
      message: `Operation ${q(m.operation)} stopped offering preview and confirm: calls execute immediately, and ${q(ctx.old.operation(m.operation!)?.preview?.dryRunField)} no longer asks for a preview.`,
      before: m.change.path,
    })),
};
