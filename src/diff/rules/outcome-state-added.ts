import { q, type Rule } from "../rule.js";
import { memberAt, written } from "./_members.js";

const MEANS: Record<string, string> = {
  pending: "accepted but not finished",
  unknown: "effect may or may not be applied",
  rejected: "refused with no effect",
  completed: "finished",
};

/** Callers that handle only the old outcomes treat the new one as success or as failure, both wrong. */
export const rule: Rule = {
  id: "outcome-state-added",
  severity: "warning",
  category: "outcome",
  description: "An operation can report an outcome state it could not report before (e.g. pending).",
  hint: "Handle the new outcome: poll a pending one with the operation's pollWith, reconcile an unknown one before acting again.",
  check: (ctx) =>
    ctx.find(["operations", "*", "outcomes", "states", "*"], ["added"]).map((m) => {
      const id = m.operation!;
      const state = m.change.path.at(-1)!;
      return {
        operation: id,
        message: `Operation ${q(id)} gained the outcome ${q(state)} (${MEANS[state] ?? "new state"}).`,
        // Written states: the list item; defaulted ones follow effects.kind.
        after: written(ctx.new_, id, "outcomes", "states") ? memberAt(ctx.new_, id, ["outcomes", "states"], state) : ["operations", id, "effects", "kind"],
      };
    }),
};
