import { q, type Rule } from "../rule.js";
import { errorRenames } from "./_pairs.js";

/** Callers that handle an operation's codes one by one meet a code they have no branch for. */
export const rule: Rule = {
  id: "operation-error-added",
  severity: "warning",
  category: "error",
  description: "An operation can raise an error code it could not raise before.",
  hint: "Handle the new code where you call the operation (its class and action say how).",
  check: (ctx) => {
    const renames = errorRenames(ctx);
    return (
      ctx
        .find(["operations", "*", "errors", "*"], ["added"])
        // A renamed code replacing its old name in the list is reported once, by error-code-renamed.
        .filter((m) => !renames.some((r) => r.to === m.change.path[3] && ctx.old.get(["operations", m.operation!, "errors", r.from]) === true))
        .map((m) => ({
          operation: m.operation,
          message: `Operation ${q(m.operation)} can now raise ${q(m.change.path[3])}.`,
          before: m.change.path.slice(0, 3),
          after: m.change.path,
        }))
    );
  },
};
