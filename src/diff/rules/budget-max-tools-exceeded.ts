import type { ContractModel } from "../../model/types.js";
import { type Rule, type RuleFinding } from "../rule.js";

const exposed = (model: ContractModel) => model.operations.filter((o) => o.mcp.exposed).length;

/**
 * Two budgets count. The new side's own: validate rejects a contract over it, so this fires only when
 * the diff is run on such a contract. And the one the old side promised: the case a valid revision
 * reaches, when it raises or drops budget.maxTools to make room for more tools than clients were
 * told to expect. An excess the old side already had, against a budget at least as strict, with no
 * more tools than before, is not a change and is not reported.
 */
export const rule: Rule = {
  id: "budget-max-tools-exceeded",
  severity: "breaking",
  category: "budget",
  description: "The new contract exposes more MCP tools than budget.maxTools allows: its own, or the one the old contract promised.",
  hint: "Hide operations with mcp.expose: false or move them into toolsets; clients sized for the budget may not load every tool.",
  check: (ctx) => {
    const now = exposed(ctx.new_.model);
    const was = exposed(ctx.old.model);
    const own = ctx.new_.model.budget.maxTools;
    const promised = ctx.old.model.budget.maxTools;
    const out: RuleFinding[] = [];
    if (own !== null && now > own && !(promised !== null && promised <= own && was > promised && now <= was)) {
      out.push({ operation: null, message: `The MCP catalogue exceeded budget.maxTools of ${own}: it exposes ${now} tools (was ${was}).`, after: ["budget", "maxTools"] });
    } else if (promised !== null && now > promised && was <= promised) {
      out.push({
        operation: null,
        message: `The MCP catalogue exceeded the previous budget.maxTools of ${promised}: it exposes ${now} tools (was ${was}).`,
        before: ["budget", "maxTools"],
        after: ["budget", "maxTools"],
      });
    }
    return out;
  },
};
