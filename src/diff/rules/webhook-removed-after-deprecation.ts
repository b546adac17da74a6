import { q, type Rule } from "../rule.js";
import { wasDeprecated } from "./_webhooks.js";

/** A deprecated event removed, as announced. */
export const rule: Rule = {
  id: "webhook-removed-after-deprecation",
  severity: "info",
  category: "webhook",
  description: "A deprecated webhook was removed.",
  hint: "Nothing to do if consumers moved off the event when it was deprecated.",
  check: (ctx) =>
    ctx.find(["webhooks", "*"], ["removed"]).filter((m) => wasDeprecated(m.change.before)).map((m) => ({
      operation: null,
      message: `Deprecated webhook ${q(m.change.path[1])} was removed.`,
      before: m.change.path,
    })),
};
