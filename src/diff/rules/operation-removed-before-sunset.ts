import { q, type Rule } from "../rule.js";
import { deprecatedRemovals } from "./_pairs.js";

/** The sunset date is the promise callers planned their migration by; a deprecation without one promised no removal date. */
export const rule: Rule = {
  id: "operation-removed-before-sunset",
  severity: "breaking",
  category: "operation",
  description: "A deprecated operation was removed before its sunset date (judged by the new contract's newest changelog date; for an OpenAPI document, which has none, by the date the diff runs), or without ever announcing one.",
  hint: "Keep the operation until its sunset date has passed; callers were promised it until then.",
  check: (ctx) =>
    deprecatedRemovals(ctx)
      .filter((r) => r.sunset === null || r.released < r.sunset)
      .map((r) => ({
        operation: r.operation,
        message:
          r.sunset === null
            ? `Deprecated operation ${q(r.operation)} was removed although its deprecation announced no sunset date.`
            : `Deprecated operation ${q(r.operation)} was removed in ${r.releasedWords}, before its sunset date ${r.sunset}.`,
        before: ["operations", r.operation],
        ...(r.replacement ? { hint: `Call ${q(r.replacement)} instead of ${q(r.operation)}; the contract should keep ${q(r.operation)} until its sunset date.` } : {}),
      })),
};
