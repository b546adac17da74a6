import { q, type Rule } from "../rule.js";
import { errorRenames, raisersOf } from "./_pairs.js";

/**
 * Codes are append-only: clients match on them, and a removed code silently falls through their
 * handling. A removed code is observable beyond the operations' own findings only when no operation
 * declared it: such a code is a contract-wide error. The SDK recognises every taxonomy code on every
 * operation (runtime/wire-errors.ts, recognizeError: a code read from the body selects its taxonomy
 * entry whatever the operation declares, and the HTTP status selects the taxonomy's only entry with
 * that status when the operation declares none), so a platform's contract-wide answer (a gateway's
 * 429, a 503) reached callers as that code with its class and recovery action; without the entry it
 * is an unrecognised error, and no per-operation finding says so. That case stays breaking here.
 *
 * A code that operations raised is not: in the new contract none of them raises it any more (a
 * contract that still refers to a removed code is invalid), so each already has its own finding
 * (operation-error-removed, operation-removed) and the taxonomy entry going with the last of them is
 * reported by error-code-retired, at info.
 */
export const rule: Rule = {
  id: "error-code-removed",
  severity: "breaking",
  category: "error",
  description: "An error code that no operation declared (a contract-wide error, recognised on every operation) was removed from the taxonomy.",
  hint: "Keep the code (codes are append-only); to retire it, stop raising it and add a new code.",
  check: (ctx) => {
    const renamed = new Set(errorRenames(ctx).map((r) => r.from));
    return ctx
      .find(["errors", "*"], ["removed"])
      .filter((m) => !renamed.has(m.change.path[1]!) && raisersOf(ctx.old, m.change.path[1]!).length === 0)
      .map((m) => ({
        operation: null,
        message: `Error code ${q(m.change.path[1])} was removed; no operation declared it, so callers could receive it from any operation.`,
        before: m.change.path,
      }));
  },
};
