import { q, type Rule } from "../rule.js";

/** Callers keep sending their key in the old field, which the platform no longer deduplicates on. */
export const rule: Rule = {
  id: "idempotency-key-field-renamed",
  severity: "breaking",
  category: "idempotency",
  description: "The input field that carries an operation's idempotency key was renamed.",
  hint: "Send the operation key in the new field; a key in the old field no longer makes retries safe.",
  check: (ctx) =>
    ctx.find(["operations", "*", "idempotency", "key"], ["modified"]).map((m) => ({
      operation: m.operation,
      message: `The idempotency key of ${q(m.operation)} moved from field ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
