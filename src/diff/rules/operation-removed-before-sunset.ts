import type { DiffContext } from "../rule.js";
import { q, type Rule } from "../rule.js";

export interface DeprecatedRemoval {
  readonly operation: string;
  readonly sunset: string | null;
  readonly replacement: string | null;
  /** The release date of the new contract: its newest changelog date. */
  readonly released: string;
}

/** Deprecated operations the new contract removed, with the dates to judge them by (YYYY-MM-DD compares as text). */
export function deprecatedRemovals(ctx: DiffContext): DeprecatedRemoval[] {
  const released = ctx.new_.model.changelog.map((e) => e.date).reduce((a, b) => (b > a ? b : a), "");
  return ctx.find(["operations", "*"], ["removed"]).flatMap((m) => {
    const d = ctx.old.operation(m.operation!)?.deprecated;
    return d ? [{ operation: m.operation!, sunset: d.sunset, replacement: d.replacement, released }] : [];
  });
}

/** The sunset date is the promise callers planned their migration by; a deprecation without one promised no removal date. */
export const rule: Rule = {
  id: "operation-removed-before-sunset",
  severity: "breaking",
  category: "operation",
  description: "A deprecated operation was removed before its sunset date (judged by the new contract's newest changelog date), or without ever announcing one.",
  hint: "Keep the operation until its sunset date has passed; callers were promised it until then.",
  check: (ctx) =>
    deprecatedRemovals(ctx)
      .filter((r) => r.sunset === null || r.released < r.sunset)
      .map((r) => ({
        operation: r.operation,
        message:
          r.sunset === null
            ? `Deprecated operation ${q(r.operation)} was removed although its deprecation announced no sunset date.`
            : `Deprecated operation ${q(r.operation)} was removed in a release dated ${r.released}, before its sunset date ${r.sunset}.`,
        before: ["operations", r.operation],
        ...(r.replacement ? { hint: `Call ${q(r.replacement)} instead of ${q(r.operation)}; the contract should keep ${q(r.operation)} until its sunset date.` } : {}),
      })),
};
