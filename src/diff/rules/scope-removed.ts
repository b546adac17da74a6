import { q, type Rule } from "../rule.js";
import { memberAt } from "./scope-added.js";

export const rule: Rule = {
  id: "scope-removed",
  severity: "info",
  category: "transport",
  description: "An operation no longer requires an authorisation scope.",
  hint: "Nothing to do; credentials may drop the scope once no other operation needs it.",
  check: (ctx) =>
    ctx.find(["operations", "*", "scopes", "*"], ["removed"]).map((m) => {
      const scope = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Scope ${q(scope)} was removed from the scopes ${q(m.operation)} requires.`,
        before: memberAt(ctx.old, m.operation!, ["scopes"], scope),
      };
    }),
};
