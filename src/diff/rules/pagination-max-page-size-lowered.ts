import { q, type Rule } from "../rule.js";

/** Callers that ask for the old maximum are now rejected (or silently get fewer items per page). */
export const rule: Rule = {
  id: "pagination-max-page-size-lowered",
  severity: "breaking",
  category: "pagination",
  description: "The largest page size a paginated operation accepts was lowered.",
  hint: "Request pages no larger than the new maximum, and follow the next cursor for the rest.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "pagination", "limitMax"], ["modified"])
      .filter((m) => (m.change.after as number) < (m.change.before as number))
      .map((m) => ({
        operation: m.operation,
        message: `The largest page size of ${q(m.operation)} was lowered from ${m.change.before} to ${m.change.after}.`,
        // The document writes it as limit.max.
        before: ["operations", m.operation!, "pagination", "limit", "max"],
        after: ["operations", m.operation!, "pagination", "limit", "max"],
      })),
};
