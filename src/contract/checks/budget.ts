import { catalogTokens } from "../../budget/catalog.js";
import { type Diagnostic, diagnostic } from "../../diagnostics/diagnostic.js";
import type { ContractModel } from "../../model/types.js";
import type { SourceFile } from "../source.js";

/** The MCP catalogue the contract generates stays within the token budget it declares. */
export function checkCatalogBudget(model: ContractModel, file: SourceFile): Diagnostic[] {
  const budget = model.budget.catalogTokens;
  if (budget === null) return [];
  const cost = catalogTokens(model);
  if (cost.total <= budget) return [];
  const heaviest = [...cost.perTool].sort((a, b) => b.tokens - a.tokens).slice(0, 3).map((t) => `${t.name} ${t.tokens}`).join(", ");
  return [
    diagnostic(
      "budget-catalog-tokens-exceeded",
      `The MCP catalogue costs ${cost.total} tokens (o200k_base); budget.catalogTokens is ${budget}. Heaviest tools: ${heaviest}.`,
      file.locate("/budget/catalogTokens"),
    ),
  ];
}
