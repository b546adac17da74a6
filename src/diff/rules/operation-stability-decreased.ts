import { q, type Rule } from "../rule.js";
import { stabilityRank } from "../stability.js";

/** Callers built on a promise of stability lose it: breaking changes to the operation no longer count as breaking. */
export const rule: Rule = {
  id: "operation-stability-decreased",
  severity: "breaking",
  category: "operation",
  description: "An operation's stability level went down (stable → beta, beta → alpha, …): callers lose the compatibility they were promised. A level given where none was is not a decrease, as OpenAPI diff tools judge it.",
  hint: "Keep the level, or publish the less settled version as a new operation and deprecate the old one.",
  check: (ctx) =>
    ctx.find(["operations", "*", "stability"], ["modified"]).flatMap((m) => {
      const before = ctx.old.operation(m.operation!)?.stability ?? null;
      const after = ctx.new_.operation(m.operation!)?.stability ?? null;
      if (before === null || after === null || stabilityRank(after) >= stabilityRank(before)) return [];
      return [{
        operation: m.operation,
        message: `The stability of ${q(m.operation)} went down from ${before} to ${after}.`,
        before: m.change.path,
        after: m.change.path,
      }];
    }),
};
