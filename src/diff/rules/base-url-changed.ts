import { q, type Rule } from "../rule.js";

/** Generated adapters default to the base URL: deployments that do not override it now talk to another host. */
export const rule: Rule = {
  id: "base-url-changed",
  severity: "warning",
  category: "transport",
  description: "The platform's default base URL changed.",
  hint: "Check that the new base URL is reachable from your deployments, or keep overriding it with the base URL setting.",
  check: (ctx) =>
    ctx.find(["transport", "baseUrl"], ["modified"]).map((m) => ({
      operation: null,
      message: `The base URL changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
      before: m.change.path,
      after: m.change.path,
    })),
};
