import { q, type Rule } from "../rule.js";

/** Retries that relied on the key to run once may now run twice (unless the operation became naturally idempotent). */
export const rule: Rule = {
  id: "idempotency-removed",
  severity: "breaking",
  category: "idempotency",
  description: "An operation stopped accepting an idempotency key.",
  hint: "Stop relying on the operation key to make retries safe; check the operation's effects before retrying.",
  check: (ctx) =>
    ctx.find(["operations", "*", "idempotency"], ["removed"]).map((m) => ({
      operation: m.operation,
      message: `Operation ${q(m.operation)} stopped accepting an idempotency key in field ${q(ctx.old.operation(m.operation!)?.idempotency?.keyField)}.`,
      before: m.change.path,
    })),
};
