import { q, type Rule } from "../rule.js";

/** Cursor loops end after one call; responses can be much larger than a page. */
export const rule: Rule = {
  id: "pagination-removed",
  severity: "warning",
  category: "pagination",
  description: "A paginated operation started returning everything in one response.",
  hint: "Stop sending cursors and page sizes; expect larger responses.",
  check: (ctx) =>
    ctx.find(["operations", "*", "pagination"], ["removed"]).map((m) => ({
      operation: m.operation,
      message: `Operation ${q(m.operation)} stopped paginating ${q(ctx.old.operation(m.operation!)?.pagination?.itemsField)}: it returns everything in one response.`,
      before: m.change.path,
    })),
};
