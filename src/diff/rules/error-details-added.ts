import { q, type Rule } from "../rule.js";

/** New typed facts on an existing error: nothing breaks, callers can start reading them. */
export const rule: Rule = {
  id: "error-details-added",
  severity: "info",
  category: "error",
  description: "An existing error code started declaring the schema of its `details`.",
  hint: "Read the declared details to recover with facts instead of a message (the SDK types them per code).",
  check: (ctx) =>
    ctx.find(["errors", "*", "details"], ["added"]).map((m) => ({
      operation: null,
      message: `Error ${q(m.change.path[1])} started declaring its details.`,
      after: m.change.path,
    })),
};
