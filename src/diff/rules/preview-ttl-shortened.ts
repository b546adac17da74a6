import { q, type Rule } from "../rule.js";

export const rule: Rule = {
  id: "preview-ttl-shortened",
  severity: "breaking",
  category: "preview",
  description: "Confirm tokens expire sooner than before.",
  hint: "Confirm previews faster; flows that waited for a human may now see expired tokens.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "preview", "ttlMs"], ["modified"])
      .filter((m) => (m.change.after as number) < (m.change.before as number))
      .map((m) => ({
        operation: m.operation,
        message: `Confirm tokens of ${q(m.operation)} now expire after ${Number(m.change.after) / 1000} s (was ${Number(m.change.before) / 1000} s).`,
        before: m.change.path,
        after: m.change.path,
      })),
};
