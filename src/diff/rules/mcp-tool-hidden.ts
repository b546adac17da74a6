import { q, type Rule } from "../rule.js";

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
      .map((m) => ({
        operation: m.operation,
        message: `MCP tool ${q(ctx.old.operation(m.operation!)?.names.tool)} of ${q(m.operation)} was removed from the MCP catalogue.`,
        // mcp.expose in the document (absent on the old side: the operation's mcp block or the operation).
        before: ["operations", m.operation!, "mcp", "expose"],
        after: ["operations", m.operation!, "mcp", "expose"],
      })),
};
