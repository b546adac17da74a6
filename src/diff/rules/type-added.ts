import { q, type Rule } from "../rule.js";

/** A new shared type: operations that use it are reported where they changed. */
export const rule: Rule = {
  id: "type-added",
  severity: "info",
  category: "type",
  description: "A shared type was added under `types:`.",
  hint: "Nothing to do; operations that use it are reported where they changed.",
  check: (ctx) => ctx.find(["types", "*"], ["added"]).map((m) => ({ operation: null, message: `Shared type ${q(m.captures[0]![0])} was added.`, after: m.change.path })),
};
