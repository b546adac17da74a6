import { type Rule } from "../rule.js";

/** The budgets, as tree paths under `budget` (the same keys the document writes). */
const BUDGETS: ReadonlyArray<readonly string[]> = [["catalogTokens"], ["maxTools"], ["skill", "listingTokens"], ["skill", "bodyTokens"], ["skill", "referenceTokens"]];

export const rule: Rule = {
  id: "budget-lowered",
  severity: "info",
  category: "budget",
  description:
    "A budget was lowered or introduced: the MCP catalogue's (budget.catalogTokens, budget.maxTools) or the Agent Skill's (budget.skill.listingTokens, budget.skill.bodyTokens, budget.skill.referenceTokens).",
  hint: "Nothing to do for consumers; contract authors have less room for new tools, descriptions and skill text.",
  check: (ctx) =>
    BUDGETS.flatMap((key) =>
      ctx
        .find(["budget", ...key], ["modified"])
        .filter((m) => typeof m.change.after === "number" && (m.change.before === null || m.change.after < (m.change.before as number)))
        .map((m) => ({
          operation: null,
          message: `budget.${key.join(".")} was lowered from ${m.change.before === null ? "no limit" : m.change.before} to ${m.change.after}.`,
          before: m.change.path,
          after: m.change.path,
        })),
    ),
};
