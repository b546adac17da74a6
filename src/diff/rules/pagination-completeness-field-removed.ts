import { q, type Rule } from "../rule.js";

const WHAT: Record<string, string> = { total: "total", partial: "partial-page flag", errors: "per-page errors" };

/** Without it a traversal can no longer tell that it missed items: incomplete results look complete. */
export const rule: Rule = {
  id: "pagination-completeness-field-removed",
  severity: "breaking",
  category: "pagination",
  description: "A paginated operation stopped declaring one of its completeness fields (total, partial or per-page errors).",
  hint: "Do not treat a traversal as complete on the strength of that field any more; compare with another source or re-read.",
  check: (ctx) =>
    ["total", "partial", "errors"].flatMap((key) =>
      ctx
        .find(["operations", "*", "pagination", key], ["modified"])
        .filter((m) => typeof m.change.before === "string" && m.change.after === null)
        .map((m) => ({
          operation: m.operation,
          message: `The pagination of ${q(m.operation)} stopped declaring its ${WHAT[key]} field ${q(m.change.before)}.`,
          before: m.change.path,
        })),
    ),
};
