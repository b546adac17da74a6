import { catalogTokens } from "../../budget/catalog.js";
import { type Rule } from "../rule.js";

/**
 * validate does not count tokens, so the diff is where a catalogue over its budget is caught. An
 * excess the old side already had, against a budget at least as strict, without growing since, is
 * not a change and is not reported.
 */
export const rule: Rule = {
  id: "budget-catalog-tokens-exceeded",
  severity: "breaking",
  category: "budget",
  description: "The new contract's MCP catalogue (tools/list) takes more tokens than its budget.catalogTokens.",
  hint: "Shorten descriptions and schemas, hide operations or split them into toolsets; agents with a fixed context budget may not load the catalogue.",
  check: (ctx) => {
    const limit = ctx.new_.model.budget.catalogTokens;
    if (limit === null) return [];
    const now = catalogTokens(ctx.new_.model).total;
    if (now <= limit) return [];
    const was = catalogTokens(ctx.old.model).total;
    const oldLimit = ctx.old.model.budget.catalogTokens;
    if (oldLimit !== null && oldLimit <= limit && was > oldLimit && now <= was) return [];
    return [
      {
        operation: null,
        message: `The MCP catalogue exceeded budget.catalogTokens of ${limit}: it takes ${now} tokens (was ${was}).`,
        after: ["budget", "catalogTokens"],
      },
    ];
  },
};
