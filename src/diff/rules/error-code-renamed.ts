import { q, type Rule } from "../rule.js";
import { errorRenames } from "./_pairs.js";

/** Clients match on codes: a renamed code is a removed one to them, however similar the new one is. */
export const rule: Rule = {
  id: "error-code-renamed",
  severity: "breaking",
  category: "error",
  description: "An error code was replaced by a new code with the same class, action and HTTP status.",
  hint: "Match on the new code wherever you matched the old one; the contract should keep the old code (codes are append-only).",
  check: (ctx) =>
    errorRenames(ctx).map(({ from, to }) => ({
      operation: null,
      message: `Error code ${q(from)} was renamed to ${q(to)}.`,
      before: ["errors", from],
      after: ["errors", to],
      hint: `Match on ${q(to)} wherever you matched ${q(from)}; better, keep ${q(from)} in the contract (codes are append-only) and add ${q(to)} beside it.`,
    })),
};
