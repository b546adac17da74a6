import { q, type Rule } from "../rule.js";
import { errorRenames } from "./_pairs.js";

export const rule: Rule = {
  id: "operation-error-removed",
  severity: "info",
  category: "error",
  description: "An operation no longer raises an error code it could raise before.",
  hint: "Nothing to do; handling of that code for this operation can go.",
  check: (ctx) => {
    const renames = errorRenames(ctx);
    return (
      ctx
        .find(["operations", "*", "errors", "*"], ["removed"])
        // A renamed code replaced by its new name in the list is reported once, by error-code-renamed.
        .filter((m) => !renames.some((r) => r.from === m.change.path[3] && ctx.new_.get(["operations", m.operation!, "errors", r.to]) === true))
        .map((m) => ({
          operation: m.operation,
          message: `Operation ${q(m.operation)} no longer raises ${q(m.change.path[3])}.`,
          before: m.change.path,
          after: m.change.path.slice(0, 3),
        }))
    );
  },
};
