import { q, type Rule } from "../rule.js";

const WHAT: Record<string, string> = { cursor: "cursor field", nextCursor: "next-cursor field" };

/** A traversal that sends or reads the old name sees only the first page, and looks complete. */
export const rule: Rule = {
  id: "pagination-cursor-field-renamed",
  severity: "breaking",
  category: "pagination",
  description: "The input cursor field or the output next-cursor field of a paginated operation was renamed.",
  hint: "Send the cursor in, and read the next cursor from, the new fields; regenerate the SDK's iterators.",
  check: (ctx) =>
    ["cursor", "nextCursor"].flatMap((key) =>
      ctx.find(["operations", "*", "pagination", key], ["modified"]).map((m) => ({
        operation: m.operation,
        message: `The ${WHAT[key]} of ${q(m.operation)} was renamed from ${q(m.change.before)} to ${q(m.change.after)}.`,
        before: m.change.path,
        after: m.change.path,
      })),
    ),
};
