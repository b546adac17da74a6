import { q, type Rule } from "../rule.js";

/** A webhook's summary, description or deprecation changed: what readers see, not what consumers receive. */
export const rule: Rule = {
  id: "webhook-annotation-changed",
  severity: "info",
  category: "webhook",
  description: "A webhook's summary, description or deprecation changed.",
  hint: "Nothing to do; a deprecated webhook is due to go: move consumers off it.",
  check: (ctx) =>
    ctx.find(["webhooks", "*", "*"]).filter((m) => m.change.path[2] !== "payload").map((m) => {
      const [, name, field] = m.change.path as [string, string, string];
      const message =
        field === "deprecated"
          ? m.change.after === true
            ? `Webhook ${q(name)} was deprecated.`
            : `Webhook ${q(name)} is no longer deprecated.`
          : `The ${field} of webhook ${q(name)} changed.`;
      return { operation: null, message, before: m.change.path, after: m.change.path };
    }),
};
