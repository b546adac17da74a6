import { type DiffSide, q, type Rule } from "../rule.js";
import { commonOperations } from "./_pairs.js";

/**
 * The page size a call gets when it omits the limit: pagination.limit.default, else the limit
 * field's schema default, else none (the platform decides). Both places are compared together, so
 * moving the same default from the schema to limit.default is not a change.
 */
function effective(side: DiffSide, id: string): { size: number | null; path: string[] } {
  const p = side.operation(id)!.pagination!;
  if (p.limitDefault !== null) return { size: p.limitDefault, path: ["operations", id, "pagination", "limit", "default"] };
  if (p.limitField === null) return { size: null, path: ["operations", id, "pagination"] };
  const schemaDefault = side.get(["operations", id, "input", "properties", p.limitField, "default"]);
  if (typeof schemaDefault === "string") {
    const value: unknown = JSON.parse(schemaDefault);
    if (typeof value === "number") return { size: value, path: ["operations", id, "input", "properties", p.limitField, "default"] };
  }
  return { size: null, path: ["operations", id, "pagination", "limit"] };
}

/** Same calls, different pages: fewer items per call, or more than a caller is ready to hold. */
export const rule: Rule = {
  id: "pagination-default-page-size-changed",
  severity: "warning",
  category: "pagination",
  description: "The page size a paginated call gets when it omits the limit changed.",
  hint: "Send the page size explicitly if you depend on it.",
  check: (ctx) =>
    commonOperations(ctx)
      .filter((id) => ctx.old.operation(id)!.pagination && ctx.new_.operation(id)!.pagination)
      .flatMap((id) => {
        const before = effective(ctx.old, id);
        const after = effective(ctx.new_, id);
        if (before.size === after.size) return [];
        const show = (n: number | null) => (n === null ? "none" : String(n));
        return [
          {
            operation: id,
            message: `The default page size of ${q(id)} changed from ${show(before.size)} to ${show(after.size)}.`,
            before: before.path,
            after: after.path,
          },
        ];
      }),
};
