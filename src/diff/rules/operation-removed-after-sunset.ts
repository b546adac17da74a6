import { q, type Rule } from "../rule.js";
import { deprecatedRemovals } from "./_pairs.js";

/** The deprecation ran its announced course: the expected end of its life. */
export const rule: Rule = {
  id: "operation-removed-after-sunset",
  severity: "info",
  category: "operation",
  description: "A deprecated operation was removed on or after its sunset date (judged by the new contract's newest changelog date; for an OpenAPI document, which has none, by the date the diff runs).",
  hint: "Make sure nothing still calls the operation; use its replacement.",
  check: (ctx) =>
    deprecatedRemovals(ctx)
      .filter((r) => r.sunset !== null && r.released >= r.sunset)
      .map((r) => ({
        operation: r.operation,
        message: `Deprecated operation ${q(r.operation)} was removed in ${r.releasedWords}, ${r.released === r.sunset ? "on" : "after"} its sunset date ${r.sunset}.`,
        before: ["operations", r.operation],
        ...(r.replacement ? { hint: `Make sure nothing still calls ${q(r.operation)}; use ${q(r.replacement)}.` } : {}),
      })),
};
