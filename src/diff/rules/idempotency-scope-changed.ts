import { q, type Rule } from "../rule.js";

/**
 * Wider: keys of different callers now collide (a retry may get another caller's outcome or a
 * mismatch error). Narrower: the same key from another caller of the tenant executes again.
 */
export const rule: Rule = {
  id: "idempotency-scope-changed",
  severity: "breaking",
  category: "idempotency",
  description: "Who shares an idempotency key space (caller, tenant or global) changed.",
  hint: "Review how keys are generated: a wider scope needs keys unique across callers, a narrower one no longer deduplicates across them.",
  check: (ctx) =>
    ctx.find(["operations", "*", "idempotency", "scope"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The idempotency key scope of ${q(m.operation)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
