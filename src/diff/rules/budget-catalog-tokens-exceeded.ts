import { catalogTokens, catalogTools, countTokens } from "../../budget/catalog.js";
import type { ContractModel } from "../../model/types.js";
import { type Rule } from "../rule.js";
import { canonicalJson } from "../tree.js";

/** The catalogue's tokens with every object's keys sorted: mapping keys reordered in the document change the served text, not what it says. */
function substanceTokens(model: ContractModel): number {
  return countTokens(canonicalJson({ tools: catalogTools(model) }, false));
}

/**
 * validate does not count tokens, so the diff is where a catalogue over its budget is caught. An
 * excess the old side already had, against a budget at least as strict, without growing since, is
 * not a change and is not reported; nor is growth that only reordered keys (judged with keys sorted).
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
    if (oldLimit !== null && oldLimit <= limit && was > oldLimit && (now <= was || substanceTokens(ctx.new_.model) <= substanceTokens(ctx.old.model))) return [];
    return [
      {
        operation: null,
        message: `The MCP catalogue exceeded budget.catalogTokens of ${limit}: it takes ${now} tokens (was ${was}).`,
        after: ["budget", "catalogTokens"],
      },
    ];
  },
};
