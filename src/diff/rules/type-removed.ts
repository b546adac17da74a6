import { q, type Rule } from "../rule.js";

/** A valid contract cannot reference a removed type: every operation that used it changed, and is reported there. */
export const rule: Rule = {
  id: "type-removed",
  severity: "info",
  category: "type",
  description: "A shared type was removed from `types:` (operations that used it changed, and are reported where they did).",
  hint: "Nothing to do beyond the findings on the operations that used the type.",
  check: (ctx) => ctx.find(["types", "*"], ["removed"]).map((m) => ({ operation: null, message: `Shared type ${q(m.captures[0]![0])} was removed.`, before: m.change.path })),
};
