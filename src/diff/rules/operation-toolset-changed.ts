import { q, type Rule } from "../rule.js";

/** Toolsets are CLI command groups and MCP groups loaded one at a time: a move hides the tool from clients that load only its old group. */
export const rule: Rule = {
  id: "operation-toolset-changed",
  severity: "warning",
  category: "operation",
  description: "An operation moved to another toolset, joined one or left one.",
  hint: "Enable the operation's new toolset in MCP clients and use its new CLI command group.",
  check: (ctx) =>
    ctx.find(["operations", "*", "toolset"], ["modified"]).map((m) => {
      const op = q(m.operation);
      const before = m.change.before;
      const after = m.change.after;
      return {
        operation: m.operation,
        message:
          before === null
            ? `Operation ${op} was added to toolset ${q(after)}.`
            : after === null
              ? `Operation ${op} was taken out of toolset ${q(before)}.`
              : `Operation ${op} moved from toolset ${q(before)} to toolset ${q(after)}.`,
        before: before === null ? ["operations", m.operation!] : m.change.path,
        after: after === null ? ["operations", m.operation!] : m.change.path,
      };
    }),
};
