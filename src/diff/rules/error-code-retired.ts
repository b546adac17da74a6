import { q, type Rule } from "../rule.js";
import { errorRenames, raisersOf } from "./_pairs.js";

/**
 * The taxonomy entry of a code that operations raised, removed once none of them raises it. What
 * callers can observe is already reported per operation: each operation that raised it either
 * stopped (operation-error-removed, info) or was removed (operation-removed, breaking); a valid new
 * contract cannot refer to the removed code. The entry going adds nothing a caller could receive, so
 * this is info, not a second breaking finding for the same edit (issue 24). A code no operation
 * declared is another matter: error-code-removed.
 */
export const rule: Rule = {
  id: "error-code-retired",
  severity: "info",
  category: "error",
  description: "An error code was removed from the taxonomy after every operation that raised it stopped raising it or was removed.",
  hint: "Nothing to do beyond the operations' own findings; handling of that code can go.",
  check: (ctx) => {
    const renamed = new Set(errorRenames(ctx).map((r) => r.from));
    return ctx.find(["errors", "*"], ["removed"]).flatMap((m) => {
      const code = m.change.path[1]!;
      const raisers = raisersOf(ctx.old, code);
      if (renamed.has(code) || raisers.length === 0) return [];
      return [
        {
          operation: null,
          operations: [...raisers].sort(),
          message: `Error code ${q(code)} was removed; no operation raises it any more (raised before by ${raisers.map(q).join(", ")}).`,
          before: m.change.path,
        },
      ];
    });
  },
};
