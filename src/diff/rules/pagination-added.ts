import { q, type Rule } from "../rule.js";

/** A caller that reads one response as "everything" now silently sees only the first page. */
export const rule: Rule = {
  id: "pagination-added",
  severity: "breaking",
  category: "pagination",
  description: "An operation that returned everything in one response started returning pages.",
  hint: "Follow the next cursor until it is null (or use the SDK's iterator) and check completeness over the whole traversal.",
  check: (ctx) =>
    ctx.find(["operations", "*", "pagination"], ["added"]).map((m) => {
      const p = ctx.new_.operation(m.operation!)?.pagination;
      return {
        operation: m.operation,
        message: `Operation ${q(m.operation)} started returning ${q(p?.itemsField)} a page at a time, continued through ${q(p?.nextCursorField)}.`,
        after: m.change.path,
      };
    }),
};
