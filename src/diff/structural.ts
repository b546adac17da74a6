/**
 * Stage one of the diff: a neutral comparison of two contract trees. It records what was added,
 * removed or modified at which path, and judges nothing; the rules in rules/ classify it.
 */
import { MAX_SCHEMA_PATH, type TreeNode, type TreeValue, typeRef } from "./tree.js";

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

const own = (node: TreeNode, key: string): TreeValue | undefined => (Object.prototype.hasOwnProperty.call(node, key) ? node[key] : undefined);

/**
 * Every difference between two trees, depth first in key order (deterministic). One path stack is
 * shared by the walk and copied only for a change: the trees of a large contract have hundreds of
 * thousands of nodes and only a few differ.
 *
 * Shared types are compared once, under types/<Name>. Where both sides refer to the same type the
 * walk stops (the type's own changes are found there); where they refer to different types, or a
 * reference faces an inline schema, both are read through and compared as the schemas they are (a
 * type met again on the same path is compared by name only, as the tree did for recursive types).
 */
export function structuralDiff(before: TreeNode, after: TreeNode): Change[] {
  const out: Change[] = [];
  const path: string[] = [];
  const typesOf = (root: TreeNode) => (root.types !== null && typeof root.types === "object" ? root.types : {}) as TreeNode;
  const types = [typesOf(before), typesOf(after)] as const;
  const NONE: ReadonlySet<string> = new Set();
  /** A reference read through on one side; a type already open on this path is a marker, not a new expansion. */
  const open = (side: 0 | 1, name: string, seen: ReadonlySet<string>): TreeValue | undefined =>
    seen.has(name) ? { recursive: name } : Object.hasOwn(types[side], name) ? types[side][name] : undefined;
  const walk = (a: TreeValue | undefined, b: TreeValue | undefined, seenA: ReadonlySet<string>, seenB: ReadonlySet<string>) => {
    if (a === b) return;
    const refA = typeRef(a);
    const refB = typeRef(b);
    if (refA !== undefined || refB !== undefined) {
      if (refA === refB) return;
      if (path.length > MAX_SCHEMA_PATH) return;
      if (refA !== undefined) a = open(0, refA, seenA);
      if (refB !== undefined) b = open(1, refB, seenB);
      return walk(a, b, refA !== undefined ? new Set([...seenA, refA]) : seenA, refB !== undefined ? new Set([...seenB, refB]) : seenB);
    }
    if (a === undefined) return void out.push({ kind: "added", path: path.slice(), before: a, after: b });
    if (b === undefined) return void out.push({ kind: "removed", path: path.slice(), before: a, after: b });
    if (isNode(a) && isNode(b)) {
      const keys = Object.keys(a);
      for (const k of Object.keys(b)) if (!Object.prototype.hasOwnProperty.call(a, k)) keys.push(k);
      keys.sort();
      for (const k of keys) {
        path.push(k);
        walk(own(a, k), own(b, k), seenA, seenB);
        path.pop();
      }
      return;
    }
    // Scalars differ (a !== b), or a scalar faces a node.
    out.push({ kind: "modified", path: path.slice(), before: a, after: b });
  };
  walk(before, after, NONE, NONE);
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
