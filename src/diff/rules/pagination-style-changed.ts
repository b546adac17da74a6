import type { PaginationModel } from "../../model/types.js";
import { q, type Rule } from "../rule.js";
import { commonOperations } from "./_pairs.js";

/** Where a style keeps the next page's position, in words and as the document's key. */
function position(p: PaginationModel): { key: string; value: string | number | null; what: string }[] {
  switch (p.style) {
    case "cursor":
      return []; // cursor field renames: pagination-cursor-field-renamed
    case "next-link":
      return [{ key: "nextLink", value: p.nextLink === null ? null : p.nextLink.kind === "field" ? `field ${p.nextLink.field}` : "the Link header", what: "next link" }];
    case "page":
      return [
        { key: "page", value: p.pageField, what: "page-number field" },
        { key: "firstPage", value: p.firstPage, what: "first page number" },
      ];
    case "offset":
      return [{ key: "offset", value: p.offsetField, what: "offset field" }];
  }
}

/** An iterator written for one way of reaching the next page reads one page of the other, and stops looking complete. */
export const rule: Rule = {
  id: "pagination-style-changed",
  severity: "breaking",
  category: "pagination",
  description: "A paginated operation changed how the next page is reached: its paging style, or the page, offset or next-link field of its style.",
  hint: "Regenerate the SDK's iterators and move hand-written page loops to the new style and fields.",
  check: (ctx) =>
    commonOperations(ctx).flatMap((id) => {
      const before = ctx.old.operation(id)!.pagination;
      const after = ctx.new_.operation(id)!.pagination;
      if (!before || !after) return [];
      const at = (key: string) => ["operations", id, "pagination", key];
      if (before.style !== after.style) {
        return [{ operation: id, message: `The paging style of ${q(id)} changed from ${before.style} to ${after.style}.`, before: at("style"), after: at("style") }];
      }
      const old = position(before);
      return position(after).flatMap((now, i) =>
        old[i]!.value === now.value
          ? []
          : [{ operation: id, message: `The ${now.what} of ${q(id)} changed from ${q(old[i]!.value)} to ${q(now.value)}.`, before: at(now.key), after: at(now.key) }],
      );
    }),
};
