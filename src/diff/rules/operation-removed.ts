import { q, type Rule } from "../rule.js";
import { renamedOperations } from "./_pairs.js";

/** Removing an operation breaks every caller; a deprecated one must first reach its sunset date. */
export const rule: Rule = {
  id: "operation-removed",
  severity: "breaking",
  category: "operation",
  description: "An operation that was not deprecated was removed.",
  hint: "Keep the operation, or deprecate it with a sunset date and a replacement first.",
  check: (ctx) => {
    // A rename (same HTTP request or same schemas under a new id) is reported by operation-renamed.
    const renamed = new Set(renamedOperations(ctx).map((r) => r.from));
    return ctx
      .find(["operations", "*"], ["removed"])
      .filter((m) => ctx.old.operation(m.operation!)?.deprecated === null && !renamed.has(m.operation!))
      .map((m) => ({ operation: m.operation, message: `Operation ${q(m.operation)} was removed without deprecation.`, before: m.change.path }));
  },
};
