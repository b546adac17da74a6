import { q, type Rule } from "../rule.js";
import { wasDeprecated } from "./_webhooks.js";

/** Consumers that handle the event stop receiving it, silently: breaking, unless it was deprecated first (webhook-removed-after-deprecation). */
export const rule: Rule = {
  id: "webhook-removed",
  severity: "breaking",
  category: "webhook",
  description: "A webhook the platform sent was removed without being deprecated first.",
  hint: "Keep sending the event until it has been deprecated for a release, or move consumers to its replacement first.",
  check: (ctx) =>
    ctx.find(["webhooks", "*"], ["removed"]).filter((m) => !wasDeprecated(m.change.before)).map((m) => ({
      operation: null,
      message: `Webhook ${q(m.change.path[1])} was removed; consumers stop receiving it.`,
      before: m.change.path,
    })),
};
