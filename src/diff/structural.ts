/**
 * Stage one of the diff: a neutral comparison of two contract trees. It records what was added,
 * removed or modified at which path, and judges nothing; the rules in rules/ classify it.
 */
import type { TreeNode, TreeValue } from "./tree.js";

export type ChangeKind = "added" | "removed" | "modified";

export interface Change {
  readonly kind: ChangeKind;
  /** Tree path, e.g. ["operations", "refund_invoice", "input", "properties", "amount", "x-unit"]. */
  readonly path: readonly string[];
  readonly before: TreeValue | undefined;
  readonly after: TreeValue | undefined;
}

function isNode(v: TreeValue | undefined): v is TreeNode {
  return v !== null && typeof v === "object";
}

/** Every difference between two trees, depth first in key order (deterministic). */
export function structuralDiff(before: TreeNode, after: TreeNode): Change[] {
  const out: Change[] = [];
  const walk = (a: TreeValue | undefined, b: TreeValue | undefined, path: string[]) => {
    if (a === undefined && b === undefined) return;
    if (a === undefined) return void out.push({ kind: "added", path, before: a, after: b });
    if (b === undefined) return void out.push({ kind: "removed", path, before: a, after: b });
    if (isNode(a) && isNode(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      // Own keys only: a contract name such as "constructor" must not find an Object.prototype member.
      for (const k of keys) walk(Object.hasOwn(a, k) ? a[k] : undefined, Object.hasOwn(b, k) ? b[k] : undefined, [...path, k]);
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ kind: "modified", path, before: a, after: b });
  };
  walk(before, after, []);
  return out;
}

/**
 * Changes whose path matches a pattern: literal segments, "*" for one segment, "**" for any number
 * (greedy-free). Returns each match with the segments "*" and "**" captured, in order.
 */
export function matchPath(path: readonly string[], pattern: readonly string[]): string[][] | null {
  const captures: string[][] = [];
  const go = (i: number, j: number): boolean => {
    if (j === pattern.length) return i === path.length;
    const p = pattern[j]!;
    if (p === "**") {
      for (let k = i; k <= path.length; k++) {
        captures.push(path.slice(i, k) as string[]);
        if (go(k, j + 1)) return true;
        captures.pop();
      }
      return false;
    }
    if (i >= path.length) return false;
    if (p === "*") {
      captures.push([path[i]!]);
      if (go(i + 1, j + 1)) return true;
      captures.pop();
      return false;
    }
    return path[i] === p && go(i + 1, j + 1);
  };
  return go(0, 0) ? captures : null;
}
