import { q, type Rule } from "../rule.js";

/** A retry after the new, shorter window executes again instead of returning the first outcome. */
export const rule: Rule = {
  id: "idempotency-retention-shortened",
  severity: "breaking",
  category: "idempotency",
  description: "The platform remembers idempotency keys for a shorter time than before.",
  hint: "Finish retries within the new retention; a retry after it runs the operation again.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "idempotency", "retentionMs"], ["modified"])
      .filter((m) => (m.change.after as number) < (m.change.before as number))
      .map((m) => {
        const id = m.operation!;
        return {
          operation: id,
          message: `The idempotency key retention of ${q(id)} was shortened from ${q(ctx.old.operation(id)?.idempotency?.retention)} to ${q(ctx.new_.operation(id)?.idempotency?.retention)}.`,
          // The document writes the duration as `retention`.
          before: ["operations", id, "idempotency", "retention"],
          after: ["operations", id, "idempotency", "retention"],
        };
      }),
};
