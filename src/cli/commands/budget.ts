import { modeCosts, servedCost } from "../../budget/served.js";
import { skillOverruns, skillTokens } from "../../budget/skill.js";
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
 * counts) and cl100k_base, the same server's catalogue in discovery and code mode, and the Agent
 * Skill's listing, body and each reference,
 * against the budget the contract declares. Exit 0 within budget, 1 over it or invalid.
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
  const modes = await modeCosts(model);
  const tools = cost.toolCount;
  const { catalogTokens: tokenBudget, maxTools } = model.budget;
  const skill = skillTokens(model);
  const skillOver = skillOverruns(model, skill);
  const within = (tokenBudget === null || cost.total.o200k_base <= tokenBudget) && (maxTools === null || tools <= maxTools) && skillOver.length === 0;
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
      // The same server's catalogue in its other modes (not counted against the budget).
      modes: { discovery: { tokens: modes.discovery.o200k_base, cl100k_base: modes.discovery.cl100k_base }, code: { tokens: modes.code.o200k_base, cl100k_base: modes.code.cl100k_base } },
      skill: {
        name: skill.name,
        listing: { tokens: skill.listing.o200k_base, cl100k_base: skill.listing.cl100k_base },
        body: { tokens: skill.body.o200k_base, cl100k_base: skill.body.cl100k_base },
        references: skill.references.map((r) => ({ path: r.path, tokens: r.o200k_base, cl100k_base: r.cl100k_base })),
        budget: model.budget.skill,
        over: skillOver.map((o) => ({ part: o.part, tokens: o.tokens, limit: o.limit, key: o.key })),
      },
      withinBudget: within,
    };
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const width = Math.max(16, ...cost.perTool.map((t) => t.name.length), ...skill.references.map((r) => r.path.length));
    const row = (name: string, o200k: string, cl100k: string) => `  ${name.padEnd(width)}  ${o200k.padStart(6)}  ${cl100k.padStart(6)}`;
    const caps = model.budget.skill;
    const cap = (limit: number | null, each = "") => (limit !== null ? `   budget ${limit}${each}` : "");
    const rows = [...cost.perTool].sort((a, b) => b.o200k_base - a.o200k_base).map((t) => row(t.name, String(t.o200k_base), String(t.cl100k_base)));
    io.stdout(
      [
        `${model.name} ${model.version}: MCP catalogue as served (tools/list through an MCP client), tokens`,
        row("tool", "o200k", "cl100k"),
        ...rows,
        `${row("total", String(cost.total.o200k_base), String(cost.total.cl100k_base))}${tokenBudget !== null ? `   budget ${tokenBudget} (o200k_base)` : ""}`,
        `  ${tools} tool(s)${maxTools !== null ? ` / ${maxTools} allowed` : ""}`,
        "Other modes of the MCP server (tools/list), tokens",
        row("mode", "o200k", "cl100k"),
        row("--mode discovery", String(modes.discovery.o200k_base), String(modes.discovery.cl100k_base)),
        row("--mode code", String(modes.code.o200k_base), String(modes.code.cl100k_base)),
        `Agent Skill skill/${skill.name}/, tokens`,
        row("part", "o200k", "cl100k"),
        `${row("listing", String(skill.listing.o200k_base), String(skill.listing.cl100k_base))}${cap(caps.listingTokens)}`,
        `${row("body", String(skill.body.o200k_base), String(skill.body.cl100k_base))}${cap(caps.bodyTokens)}`,
        ...skill.references.map((r) => `${row(r.path, String(r.o200k_base), String(r.cl100k_base))}${cap(caps.referenceTokens, " each")}`),
        ...skillOver.map((o) => `  over: ${o.part} costs ${o.tokens} tokens, budget.skill.${o.key} is ${o.limit}`),
        within ? "Within budget." : "Over budget.",
        "",
      ].join("\n"),
    );
  }
  return within ? EXIT.ok : EXIT.invalid;
}
