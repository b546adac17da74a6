import { catalogTokens } from "../../budget/catalog.js";
import { parseContract } from "../../spec/parse.js";
import { EXIT, type Io, printDiagnostics } from "../io.js";

export interface BudgetOptions {
  readonly format: "text" | "json";
  readonly refRoot?: readonly string[];
}

/**
 * `contractgen budget <spec>`: tokens of the MCP `tools/list` the contract generates, per tool and
 * in total (o200k_base), against the budget it declares. Exit 0 within budget, 1 over it or invalid.
 */
export function budgetCommand(spec: string, options: BudgetOptions, io: Io): number {
  // An over-budget contract is still measured: that is the point of the command.
  const result = parseContract(spec, { checkBudget: false, refRoots: options.refRoot ?? [] });
  if (!result.model) {
    printDiagnostics(result.diagnostics, io);
    return EXIT.invalid;
  }
  const model = result.model;
  const cost = catalogTokens(model);
  const tools = cost.perTool.length;
  const { catalogTokens: tokenBudget, maxTools } = model.budget;
  const within = (tokenBudget === null || cost.total <= tokenBudget) && (maxTools === null || tools <= maxTools);
  if (options.format === "json") {
    io.stdout(`${JSON.stringify({ contract: model.name, version: model.version, tokenizer: "o200k_base", total: cost.total, budget: { catalogTokens: tokenBudget, maxTools }, tools: cost.perTool, toolCount: tools, withinBudget: within }, null, 2)}\n`);
  } else {
    const width = Math.max(4, ...cost.perTool.map((t) => t.name.length));
    const rows = [...cost.perTool].sort((a, b) => b.tokens - a.tokens).map((t) => `  ${t.name.padEnd(width)}  ${String(t.tokens).padStart(6)}`);
    io.stdout(
      [
        `${model.name} ${model.version}: MCP catalogue (tools/list), o200k_base tokens`,
        ...rows,
        `  ${"total".padEnd(width)}  ${String(cost.total).padStart(6)}${tokenBudget !== null ? ` / ${tokenBudget} budget` : ""}`,
        `  ${tools} tool(s)${maxTools !== null ? ` / ${maxTools} allowed` : ""}`,
        within ? "Within budget." : "Over budget.",
        "",
      ].join("\n"),
    );
  }
  return within ? EXIT.ok : EXIT.invalid;
}
