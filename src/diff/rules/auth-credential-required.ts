import { q, type Rule, type RuleFinding } from "../rule.js";
import { newlyRequired, operationAuth, operationPairs } from "./_auth.js";

/** A caller configured with the credentials that sufficed before is now refused: it must obtain another. */
export const rule: Rule = {
  id: "auth-credential-required",
  severity: "breaking",
  category: "transport",
  description: "Requests need a credential they did not need before: authentication where there was none, a new scheme, or an alternative that no longer suffices.",
  hint: "Provision the new credential (its environment variable or the SDK's `credentials` option) for every caller before upgrading.",
  consequenceOf: ["auth-scheme-changed"],
  check: (ctx) => {
    const before = ctx.old.model.transport.auth;
    const after = ctx.new_.model.transport.auth;
    const out: RuleFinding[] = [];
    const contractWide = newlyRequired(before, before.require, after, after.require);
    if (contractWide) {
      out.push({
        operation: null,
        message: `Requests now need ${contractWide.map(q).join(" and ")}: ${before.require.length === 0 ? "none was needed before" : "callers with only the credentials required before are refused"}.`,
        before: ["transport", "auth"],
        after: ["transport", "auth"],
      });
    }
    for (const pair of operationPairs(ctx.old, ctx.new_)) {
      if (!pair.overridden) continue; // covered by the contract-wide finding
      const added = newlyRequired(before, operationAuth(before, pair.before), after, operationAuth(after, pair.after));
      if (!added) continue;
      // The contract-wide finding already says it for an operation that follows the contract on the new side.
      if (contractWide && pair.after.auth === null) continue;
      out.push({
        operation: pair.id,
        message: `${q(pair.id)} now needs ${added.map(q).join(" and ")}: callers with only the credentials it required before are refused.`,
        before: pair.before.auth !== null ? ["operations", pair.id, "auth"] : ["transport", "auth"],
        after: pair.after.auth !== null ? ["operations", pair.id, "auth"] : ["transport", "auth"],
      });
    }
    return out;
  },
};
