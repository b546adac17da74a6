import { q, type Rule } from "../rule.js";

/**
 * An operation now takes an operation key that makes repeats safe, but the platform still accepts a
 * call without one (idempotency.keyRequired false): no caller breaks, and a caller that sends a key
 * (the generated SDK, CLI and MCP server always do) gets retry safety.
 */
export const rule: Rule = {
  id: "effect-idempotency-key-accepted",
  severity: "info",
  category: "effect",
  description: "An operation now accepts an operation key for idempotency (natural or none → key), optional on the wire (idempotency.keyRequired false).",
  hint: "Send a fresh operation key with each distinct call and the same key when you retry it (regenerated adapters do); a call without one still executes, as a separate intent.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "effects", "idempotent"], ["modified"])
      .filter((m) => m.change.after === "key" && m.change.before !== "key" && ctx.new_.operation(m.operation!)?.idempotency?.keyRequired === false)
      .map((m) => {
        const keyField = ctx.new_.operation(m.operation!)?.idempotency?.keyField;
        return {
          operation: m.operation,
          message: `Operation ${q(m.operation)} now accepts an operation key${keyField ? ` in ${q(keyField)}` : ""} that makes a repeat safe, optional on the wire (its idempotency was ${q(m.change.before)}).`,
          before: m.change.path,
          after: m.change.path,
        };
      }),
};
