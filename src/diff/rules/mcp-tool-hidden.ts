import { type DiffSide, q, type Rule } from "../rule.js";
import { written } from "./_members.js";

/** mcp.expose (or the mcp block) where the document writes it, else the operation. */
function exposePath(side: DiffSide, id: string): string[] {
  return written(side, id, "mcp") ? ["operations", id, "mcp", "expose"] : ["operations", id];
}

/** The tool disappears from tools/list: agents that used it fail to find it. */
export const rule: Rule = {
  id: "mcp-tool-hidden",
  severity: "breaking",
  category: "surface",
  description: "An operation that was exposed as an MCP tool is no longer exposed.",
  hint: "Call the operation through the SDK or CLI instead, or keep it exposed until the next major version.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "mcpExposed"], ["modified"])
      .filter((m) => m.change.before === true && m.change.after === false)
      .map((m) => {
        const id = m.operation!;
        const tool = ctx.old.operation(id)!.names.tool;
        return {
          operation: id,
          message: tool === id ? `Operation ${q(id)} was hidden from the MCP catalogue.` : `Operation ${q(id)} (MCP tool ${q(tool)}) was hidden from the MCP catalogue.`,
          before: exposePath(ctx.old, id),
          after: exposePath(ctx.new_, id),
        };
      }),
};
