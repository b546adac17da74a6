import { q, type Rule, type RuleFinding } from "../rule.js";
import { operationAuth, operationPairs } from "./_auth.js";

/** Requests that carried a credential no longer need one: callers keep working (a credential sent anyway is ignored or unused). */
export const rule: Rule = {
  id: "auth-removed",
  severity: "info",
  category: "transport",
  description: "Requests no longer need any credential (the contract's, or one operation's).",
  hint: "Nothing to do; the credential's environment variable is no longer read and may be retired.",
  check: (ctx) => {
    const before = ctx.old.model.transport.auth;
    const after = ctx.new_.model.transport.auth;
    const out: RuleFinding[] = [];
    const contractWide = before.require.length > 0 && after.require.length === 0;
    if (contractWide) out.push({ operation: null, message: "Requests no longer need a credential.", before: ["transport", "auth"], after: ["transport", "auth"] });
    for (const pair of operationPairs(ctx.old, ctx.new_)) {
      if (!pair.overridden) continue;
      if (operationAuth(before, pair.before).length === 0 || operationAuth(after, pair.after).length > 0) continue;
      if (contractWide && pair.after.auth === null) continue;
      out.push({
        operation: pair.id,
        message: `${q(pair.id)} no longer needs a credential.`,
        before: pair.before.auth !== null ? ["operations", pair.id, "auth"] : ["transport", "auth"],
        after: pair.after.auth !== null ? ["operations", pair.id, "auth"] : ["transport", "auth"],
      });
    }
    return out;
  },
};
