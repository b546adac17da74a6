import { q, type Rule } from "../rule.js";

/** Callers (and SDK retries) that relied on repeating a call safely may now create duplicates. */
export const rule: Rule = {
  id: "effect-idempotency-weakened",
  severity: "breaking",
  category: "effect",
  description: "An operation stopped being idempotent (natural or keyed → none).",
  hint: "Stop retrying the operation automatically; reconcile after failures instead.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "idempotent"], ["modified"])
      .filter((m) => m.change.after === "none")
      .map((m) => ({
        operation: m.operation,
        message: `Operation ${q(m.operation)} is no longer idempotent (was ${q(m.change.before)}).`,
        before: m.change.path,
        after: m.change.path,
      })),
};
