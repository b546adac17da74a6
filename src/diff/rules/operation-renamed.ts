import type { DiffContext, Rule } from "../rule.js";
import { q } from "../rule.js";
import type { TreeNode, TreeValue } from "../tree.js";

export interface Rename {
  readonly from: string;
  readonly to: string;
  /** What identifies the pair: the same HTTP request, or the same input and output schemas. */
  readonly by: "http" | "schemas";
}

/** JSON with sorted keys, so equal trees compare equal whatever their key order. */
function canonical(value: TreeValue | undefined): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined";
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
    .join(",")}}`;
}

/** Whether a schema tree declares any property, at any depth (so `{type: object}` twins do not pair). */
function hasProperties(value: TreeValue | undefined): boolean {
  if (value === null || typeof value !== "object") return false;
  const node = value as TreeNode;
  if (node.properties !== null && typeof node.properties === "object" && Object.keys(node.properties).length > 0) return true;
  return ["items", "allOf", "anyOf", "oneOf"].some((k) => {
    const sub = node[k];
    if (k === "items") return hasProperties(sub);
    return sub !== null && typeof sub === "object" && Object.values(sub).some(hasProperties);
  });
}

/**
 * Removed operations paired one-to-one with added ones: first by HTTP method and path (parameter
 * names ignored), then by identical input and output schema trees. A pairing is kept only when it is
 * unambiguous both ways. Exported for operation-removed, which leaves renames to this rule.
 */
export function renamedOperations(ctx: DiffContext): Rename[] {
  const removed = ctx.find(["operations", "*"], ["removed"]).map((m) => m.operation!);
  const added = ctx.find(["operations", "*"], ["added"]).map((m) => m.operation!);
  if (removed.length === 0 || added.length === 0) return [];
  const http = (side: DiffContext["old"], id: string) => {
    const op = side.operation(id);
    return op ? `${op.http.method} ${op.http.path.replace(/\{[^}]*\}/g, "{}")}` : undefined;
  };
  const schemas = (side: DiffContext["old"], id: string) => {
    const input = side.get(["operations", id, "input"]);
    const output = side.get(["operations", id, "output"]);
    return hasProperties(input) || hasProperties(output) ? `${canonical(input)}|${canonical(output)}` : undefined;
  };
  const pairs: Rename[] = [];
  const taken = new Set<string>();
  for (const by of ["http", "schemas"] as const) {
    const key = by === "http" ? http : schemas;
    const open = { removed: removed.filter((id) => !taken.has(`-${id}`)), added: added.filter((id) => !taken.has(`+${id}`)) };
    for (const from of open.removed) {
      const k = key(ctx.old, from);
      if (k === undefined) continue;
      const candidates = open.added.filter((id) => key(ctx.new_, id) === k);
      const rivals = open.removed.filter((id) => key(ctx.old, id) === k);
      if (candidates.length !== 1 || rivals.length !== 1) continue;
      const to = candidates[0]!;
      pairs.push({ from, to, by });
      taken.add(`-${from}`);
      taken.add(`+${to}`);
    }
  }
  return pairs.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/** To a caller a rename is a removal: every call by the old name fails. */
export const rule: Rule = {
  id: "operation-renamed",
  severity: "breaking",
  category: "operation",
  description: "An operation was removed and another added with the same HTTP method and path, or with the same input and output schemas.",
  hint: "Call the operation by its new name; keep the old name as a deprecated alias until a sunset date to spare callers.",
  check: (ctx) =>
    renamedOperations(ctx).map(({ from, to, by }) => ({
      operation: from,
      message: `Operation ${q(from)} was renamed to ${q(to)} (${by === "http" ? "same HTTP method and path" : "same input and output schemas"}).`,
      before: ["operations", from],
      after: ["operations", to],
      hint: `Call ${q(to)} instead of ${q(from)} and regenerate adapters; or keep ${q(from)} as a deprecated alias with a sunset date.`,
    })),
};
