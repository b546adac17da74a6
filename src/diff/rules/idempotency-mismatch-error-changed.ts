import { q, type Rule } from "../rule.js";

/** Callers that handle a reused key by its error code stop recognising it. */
export const rule: Rule = {
  id: "idempotency-mismatch-error-changed",
  severity: "warning",
  category: "idempotency",
  description: "The error raised when an idempotency key is reused with different parameters changed.",
  hint: "Handle the new error code where you handled the old one for reused keys.",
  check: (ctx) =>
    ctx.find(["operations", "*", "idempotency", "mismatchError"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The error for a reused idempotency key of ${q(m.operation)} changed from ${m.change.before === null ? "none" : q(m.change.before)} to ${m.change.after === null ? "none" : q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
