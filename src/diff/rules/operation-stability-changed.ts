import { q, type Rule } from "../rule.js";
import { stabilityRank } from "../stability.js";

/** A level raised (alpha → beta → stable), given, or dropped where it was stable anyway: callers get a stronger promise or the same one. */
export const rule: Rule = {
  id: "operation-stability-changed",
  severity: "info",
  category: "operation",
  description: "An operation's stability level went up, or was given or dropped (a level given where none was is not a decrease).",
  hint: "Nothing to do; from now on the operation keeps the compatibility its new level promises.",
  check: (ctx) =>
    ctx.find(["operations", "*", "stability"], ["modified", "added", "removed"]).flatMap((m) => {
      const before = ctx.old.operation(m.operation!)?.stability ?? null;
      const after = ctx.new_.operation(m.operation!)?.stability ?? null;
      if (before !== null && after !== null && stabilityRank(after) < stabilityRank(before)) return [];
      return [{
        operation: m.operation,
        message: `The stability of ${q(m.operation)} went from ${before ?? "no level (read as stable)"} to ${after ?? "no level (read as stable)"}.`,
        before: before !== null ? m.change.path : ["operations", m.operation!],
        after: after !== null ? m.change.path : ["operations", m.operation!],
      }];
    }),
};
