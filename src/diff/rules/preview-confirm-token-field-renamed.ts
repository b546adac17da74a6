import { q, type Rule } from "../rule.js";

/** A token sent in the old field is not seen: every execution is refused as unconfirmed. */
export const rule: Rule = {
  id: "preview-confirm-token-field-renamed",
  severity: "breaking",
  category: "preview",
  description: "The input field that carries the confirm token of a preview was renamed.",
  hint: "Send the confirm token in the new field, as returned by the preview.",
  check: (ctx) =>
    ctx.find(["operations", "*", "preview", "confirmToken"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The confirm token field of ${q(m.operation)} was renamed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
