import { q, type Rule } from "../rule.js";

/** Agents, prompts and allow-lists that name the tool no longer find it. */
export const rule: Rule = {
  id: "mcp-tool-name-changed",
  severity: "breaking",
  category: "surface",
  // A renamed operation's derived tool name / command changes with its id: reported under the rename.
  consequenceOf: ["operation-renamed"],
  description: "The MCP tool name of an exposed operation changed.",
  hint: "Update prompts, allow-lists and client configuration that name the tool.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "names", "tool"], ["modified"])
      .filter((m) => ctx.old.operation(m.operation!)?.mcp.exposed && ctx.new_.operation(m.operation!)?.mcp.exposed)
      .map((m) => ({
        operation: m.operation,
        message: `The MCP tool name of ${q(m.operation)} changed from ${q(m.change.before)} to ${q(m.change.after)}.`,
        before: m.change.path,
        after: m.change.path,
      })),
};
