import { type DiffContext, q, type Rule } from "../rule.js";
import type { TreeValue } from "../tree.js";

export interface ErrorRename {
  readonly from: string;
  readonly to: string;
}

const signature = (v: TreeValue | undefined): string | null =>
  v !== null && typeof v === "object" ? JSON.stringify([v.class ?? null, v.action ?? null, v.http ?? null]) : null;

/**
 * Codes removed and added with the same class, action and HTTP status, paired only when the pairing
 * is unambiguous (exactly one removed and one added code share the triple). Used by error-code-removed,
 * error-code-added and operation-error-added/-removed to report a rename once.
 */
export function errorRenames(ctx: DiffContext): ErrorRename[] {
  const groups = new Map<string, { removed: string[]; added: string[] }>();
  for (const m of ctx.find(["errors", "*"], ["removed", "added"])) {
    const sig = signature(m.change.kind === "removed" ? m.change.before : m.change.after);
    if (sig === null) continue;
    const g = groups.get(sig) ?? { removed: [], added: [] };
    (m.change.kind === "removed" ? g.removed : g.added).push(m.change.path[1]!);
    groups.set(sig, g);
  }
  return [...groups.values()].filter((g) => g.removed.length === 1 && g.added.length === 1).map((g) => ({ from: g.removed[0]!, to: g.added[0]! }));
}

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
