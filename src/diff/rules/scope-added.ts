import { q, type Rule } from "../rule.js";
import { listMemberChange } from "./_checks.js";

/** A new scope: callers whose credentials lack it are now refused. */
export const rule: Rule = {
  id: "scope-added",
  severity: "breaking",
  category: "transport",
  description: "An operation requires an authorisation scope it did not require before.",
  hint: "Grant the new scope to the credentials that call the operation before upgrading; calls without it are refused.",
  check: listMemberChange(["scopes"], "added", (scope, op) => `Scope ${q(scope)} was added to the scopes ${q(op)} requires.`),
};
