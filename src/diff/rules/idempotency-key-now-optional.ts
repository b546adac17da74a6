import { q, type Rule } from "../rule.js";

/**
 * The platform now accepts an execution without an operation key, as a separate intent (nothing to
 * replay it by): no caller breaks, but a caller that leaves the key out gets no retry safety.
 */
export const rule: Rule = {
  id: "idempotency-key-now-optional",
  severity: "info",
  category: "idempotency",
  description: "An operation key that every execution had to carry is now optional on the wire (idempotency.keyRequired false).",
  hint: "Keep sending a key (the generated SDK, CLI and MCP server mint one when you give none): a call without it is a separate intent, and a retry of it may execute again.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "idempotency", "keyRequired"], ["modified"])
      .filter((m) => m.change.before === true && m.change.after === false)
      .map((m) => {
        const keyField = ctx.new_.operation(m.operation!)?.idempotency?.keyField;
        return {
          operation: m.operation,
          message: `${q(m.operation)} now accepts an execution without its operation key${keyField ? ` ${q(keyField)}` : ""}, as a separate intent (idempotency.keyRequired false).`,
          before: m.change.path,
          after: m.change.path,
        };
      }),
};
