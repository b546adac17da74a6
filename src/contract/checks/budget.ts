import { catalogTokens } from "../../budget/catalog.js";
import { hasSkillBudget, skillOverruns } from "../../budget/skill.js";
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

/**
 * The generated Agent Skill stays within the ceilings `budget.skill` declares: one finding per ceiling
 * exceeded (the references over `referenceTokens` named together, heaviest first).
 */
export function checkSkillBudget(model: ContractModel, file: SourceFile): Diagnostic[] {
  if (!hasSkillBudget(model)) return [];
  const overruns = skillOverruns(model);
  const out: Diagnostic[] = [];
  for (const key of ["listingTokens", "bodyTokens", "referenceTokens"] as const) {
    const over = overruns.filter((o) => o.key === key).sort((a, b) => b.tokens - a.tokens);
    if (over.length === 0) continue;
    const what =
      key === "referenceTokens"
        ? `${over.length} reference file(s) cost more than ${over[0]!.limit} tokens (o200k_base), the ceiling budget.skill.referenceTokens sets on each: ${over.slice(0, 3).map((o) => `${o.part} ${o.tokens}`).join(", ")}${over.length > 3 ? ", …" : ""}.`
        : `The skill's ${over[0]!.part} (${key === "listingTokens" ? "the front matter's name and description" : "SKILL.md without its front matter"}) costs ${over[0]!.tokens} tokens (o200k_base); budget.skill.${key} is ${over[0]!.limit}.`;
    out.push(diagnostic("budget-skill-tokens-exceeded", what, file.locate(`/budget/skill/${key}`)));
  }
  return out;
}
