import { q, type Rule } from "../rule.js";

/** Plain HTTP clients, proxies and monitoring key on the status, not on the code in the body. */
export const rule: Rule = {
  id: "error-http-status-changed",
  severity: "breaking",
  category: "error",
  description: "The HTTP status of an error code changed.",
  hint: "Update HTTP-level handling (status checks, retries, alerts) for the code to the new status.",
  check: (ctx) =>
    ctx.find(["errors", "*", "http"], ["modified"]).map((m) => ({
      operation: null,
      message: `The HTTP status of error ${q(m.change.path[1])} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
