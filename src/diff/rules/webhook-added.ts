import { q, type Rule } from "../rule.js";

/** A new event consumers may subscribe to: nothing they receive today changes. */
export const rule: Rule = {
  id: "webhook-added",
  severity: "info",
  category: "webhook",
  description: "A webhook was added.",
  hint: "Nothing to do; consumers may subscribe to the new event.",
  check: (ctx) =>
    ctx.find(["webhooks", "*"], ["added"]).map((m) => ({
      operation: null,
      message: `Webhook ${q(m.change.path[1])} was added.`,
      after: m.change.path,
    })),
};
