import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

export const rule: Rule = {
  id: "scope-removed",
  severity: "info",
  category: "transport",
  description: "An operation no longer requires an authorisation scope.",
  hint: "Nothing to do; credentials may drop the scope once no other operation needs it.",
  check: listMemberChange(["scopes"], "removed", (scope, op) => `Scope ${q(scope)} was removed from the scopes ${q(op)} requires.`),
};
