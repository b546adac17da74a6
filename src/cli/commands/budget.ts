import { servedCost } from "../../budget/served.js";
import { openContract } from "../../import/open.js";
import { EXIT, type Io, printDiagnostics } from "../io.js";

export interface BudgetOptions {
  readonly format: "text" | "json";
  readonly refRoot?: readonly string[];
  /** `--overlay`, repeatable: overlays applied, in order, to an OpenAPI document. */
  readonly overlay?: readonly string[];
}

/**
 * `contractgen budget <spec>`: tokens of the `tools/list` the generated MCP server serves (built
 * in-process and read through a real MCP client), per tool and in total, in o200k_base (what the budget
 * counts) and cl100k_base, against the budget the contract declares. Exit 0 within budget, 1 over it or invalid.
 */
export async function budgetCommand(spec: string, options: BudgetOptions, io: Io): Promise<number> {
  // An over-budget contract is still measured: that is the point of the command.
  const result = await openContract(spec, { checkBudget: false, refRoots: options.refRoot ?? [], overlays: options.overlay ?? [] });
  if (!result.model) {
    printDiagnostics(result.diagnostics, io);
    return EXIT.invalid;
  }
  const model = result.model;
  const cost = await servedCost(model);
  const tools = cost.toolCount;
  const { catalogTokens: tokenBudget, maxTools } = model.budget;
  const within = (tokenBudget === null || cost.total.o200k_base <= tokenBudget) && (maxTools === null || tools <= maxTools);
  if (options.format === "json") {
    const report = {
      contract: model.name,
      version: model.version,
      tokenizer: "o200k_base",
      total: cost.total.o200k_base,
      totals: cost.total,
      budget: { catalogTokens: tokenBudget, maxTools },
      tools: cost.perTool.map((t) => ({ name: t.name, tokens: t.o200k_base, cl100k_base: t.cl100k_base })),
      toolCount: tools,
      withinBudget: within,
    };
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const width = Math.max(5, ...cost.perTool.map((t) => t.name.length));
    const row = (name: string, o200k: string, cl100k: string) => `  ${name.padEnd(width)}  ${o200k.padStart(6)}  ${cl100k.padStart(6)}`;
    const rows = [...cost.perTool].sort((a, b) => b.o200k_base - a.o200k_base).map((t) => row(t.name, String(t.o200k_base), String(t.cl100k_base)));
    io.stdout(
      [
        `${model.name} ${model.version}: MCP catalogue as served (tools/list through an MCP client), tokens`,
        row("tool", "o200k", "cl100k"),
        ...rows,
        `${row("total", String(cost.total.o200k_base), String(cost.total.cl100k_base))}${tokenBudget !== null ? `   budget ${tokenBudget} (o200k_base)` : ""}`,
        `  ${tools} tool(s)${maxTools !== null ? ` / ${maxTools} allowed` : ""}`,
        within ? "Within budget." : "Over budget.",
        "",
      ].join("\n"),
    );
  }
  return within ? EXIT.ok : EXIT.invalid;
}
