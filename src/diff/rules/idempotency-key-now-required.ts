import { q, type Rule } from "../rule.js";

/**
 * The platform accepted a call without an operation key (each such call a separate intent) and now
 * refuses it: a wire caller that sends none is refused. Callers generated from the contract always
 * sent one, so they are unaffected.
 */
export const rule: Rule = {
  id: "idempotency-key-now-required",
  severity: "breaking",
  category: "idempotency",
  description: "An operation key the platform accepted a call without (idempotency.keyRequired false) is now required on every execution.",
  hint: "Send an operation key with every execution: a fresh one per distinct call, the same one when you retry it. The generated SDK, CLI and MCP server already do.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "idempotency", "keyRequired"], ["modified"])
      .filter((m) => m.change.before === false && m.change.after === true)
      .map((m) => {
        const keyField = ctx.new_.operation(m.operation!)?.idempotency?.keyField;
        return {
          operation: m.operation,
          message: `${q(m.operation)} now refuses an execution without its operation key${keyField ? ` ${q(keyField)}` : ""} (idempotency.keyRequired was false).`,
          before: m.change.path,
          after: m.change.path,
        };
      }),
};
