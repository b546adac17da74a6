import { q, type Rule } from "../rule.js";

/** Repeats used to be safe without a key (or the caller sent none); now every call must carry an operation key. */
export const rule: Rule = {
  id: "effect-idempotency-key-required",
  severity: "breaking",
  category: "effect",
  description: "An operation now requires an operation key for idempotency (natural or none → key).",
  hint: "Send a fresh operation key with each distinct call, and the same key when you retry that call.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "idempotent"], ["modified"])
      // A key the platform does not require (keyRequired false) is effect-idempotency-key-accepted: key-less calls still work.
      .filter((m) => m.change.after === "key" && m.change.before !== "key" && ctx.new_.operation(m.operation!)?.idempotency?.keyRequired !== false)
      .map((m) => {
        const keyField = ctx.new_.operation(m.operation!)?.idempotency?.keyField;
        return {
          operation: m.operation,
          message: `Operation ${q(m.operation)} now requires an operation key${keyField ? ` in ${q(keyField)}` : ""} (its idempotency was ${q(m.change.before)}).`,
          before: m.change.path,
          after: m.change.path,
        };
      }),
};
