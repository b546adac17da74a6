/**
 * Stage one of the diff: a neutral comparison of two contract trees. It records what was added,
 * removed or modified at which path, and judges nothing; the rules in rules/ classify it.
 */
import { COMBINATOR_KEYWORDS, isMembers, markMembers, MAX_SCHEMA_PATH, type TreeNode, type TreeValue, typeRef } from "./tree.js";

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
export function structuralDiff(before: TreeNode, after: TreeNode, onRekey?: (members: readonly string[], from: string, to: string) => void): Change[] {
  const out: Change[] = [];
  const path: string[] = [];
  const typesOf = (root: TreeNode) => (root.types !== null && typeof root.types === "object" ? root.types : {}) as TreeNode;
  const types = [typesOf(before), typesOf(after)] as const;
  const NONE: ReadonlySet<string> = new Set();
  /** A reference read through on one side; a type already open on this path is a marker, not a new expansion. */
  const open = (side: 0 | 1, name: string, seen: ReadonlySet<string>): TreeValue | undefined =>
    seen.has(name) ? { recursive: name } : Object.hasOwn(types[side], name) ? types[side][name] : undefined;
  const deref = (side: 0 | 1, v: TreeValue | undefined): TreeValue | undefined => {
    for (let hops = 0; hops < 16; hops++) {
      const name = typeRef(v);
      if (name === undefined) return v;
      v = Object.hasOwn(types[side], name) ? types[side][name] : undefined;
    }
    return undefined;
  };
  const walk = (a: TreeValue | undefined, b: TreeValue | undefined, seenA: ReadonlySet<string>, seenB: ReadonlySet<string>) => {
    if (a === b) return;
    // A schema that became one member of a new allOf/anyOf/oneOf is one change at that keyword (its
    // `before` is the old schema); the old schema is then compared as that one-member combinator,
    // so what the wrap added shows up as members added, not as the old schema's content removed.
    const wrap = wrapping(a, b);
    if (wrap !== undefined) {
      out.push({ kind: "modified", path: [...path, wrap.keyword], before: a, after: (b as TreeNode)[wrap.keyword] });
      const wrapper: TreeNode = { [wrap.keyword]: markMembers(Object.assign(Object.create(null) as TreeNode, { [wrap.member]: a! })) };
      for (const [k, v] of Object.entries(b as TreeNode)) if (unconstrained(k, v)) wrapper[k] = v;
      a = wrapper;
    }
    const refA = typeRef(a);
    const refB = typeRef(b);
    if (refA !== undefined || refB !== undefined) {
      // The same type on both sides: only the keywords written beside the reference can differ here.
      if (refA === refB) return walkKeys(a as TreeNode, b as TreeNode, seenA, seenB);
      if (path.length > MAX_SCHEMA_PATH) return;
      if (refA !== undefined) a = open(0, refA, seenA);
      if (refB !== undefined) b = open(1, refB, seenB);
      return walk(a, b, refA !== undefined ? new Set([...seenA, refA]) : seenA, refB !== undefined ? new Set([...seenB, refB]) : seenB);
    }
    if (a === undefined) return void out.push({ kind: "added", path: path.slice(), before: a, after: b });
    if (b === undefined) return void out.push({ kind: "removed", path: path.slice(), before: a, after: b });
    if (isNode(a) && isNode(b)) return walkKeys(a, b, seenA, seenB);
    // Scalars differ (a !== b), or a scalar faces a node.
    out.push({ kind: "modified", path: path.slice(), before: a, after: b });
  };
  function walkKeys(a: TreeNode, b: TreeNode, seenA: ReadonlySet<string>, seenB: ReadonlySet<string>): void {
    // Combinator members the identity keys left unpaired are paired by structure; the old side's key
    // is renamed to the new one's (a member read through a reference belongs to a type compared
    // on its own, so it is not renamed there).
    if (isMembers(a) && isMembers(b) && seenA.size === 0 && seenB.size === 0) {
      for (const [from, to] of pairMembers(a, b, (v) => deref(0, v), (v) => deref(1, v))) {
        a[to] = a[from]!;
        delete a[from];
        onRekey?.(path, from, to);
      }
    }
    // Unsorted here: the changes are put in path order once at the end (the same order a walk in
    // key order gives), which costs far less than sorting every node's keys.
    const keys = Object.keys(a);
    for (const k of Object.keys(b)) if (!Object.hasOwn(a, k)) keys.push(k);
    for (const k of keys) {
      path.push(k);
      walk(own(a, k), own(b, k), seenA, seenB);
      path.pop();
    }
  }
  walk(before, after, NONE, NONE);
  return out.sort((x, y) => comparePaths(x.path, y.path));
}

/** Keys a wrapping schema may have beside its combinator: what readers see, not what is valid. */
const WRAP_ANNOTATIONS: ReadonlySet<string> = new Set(["title", "description", "examples", "deprecated", "x-sunset"]);

/** Whether `b` is `a` wrapped in an allOf/anyOf/oneOf (`a` is one of its members, and `b` says nothing else that constrains). */
function wrapping(a: TreeValue | undefined, b: TreeValue | undefined): { keyword: (typeof COMBINATOR_KEYWORDS)[number]; member: string } | undefined {
  if (a === undefined || !isNode(a) || !isNode(b) || typeRef(b) !== undefined || isMembers(a) || isMembers(b)) return undefined;
  for (const keyword of COMBINATOR_KEYWORDS) {
    const members = b[keyword];
    if (!isMembers(members) || (typeRef(a) === undefined && a[keyword] !== undefined)) continue;
    if (Object.keys(b).some((k) => k !== keyword && !WRAP_ANNOTATIONS.has(k) && !unconstrained(k, b[k]))) return undefined;
    for (const member of Object.keys(members)) if (sameTree(a, members[member], 0, true)) return { keyword, member };
  }
  return undefined;
}

/** The tree's normal form of a keyword left out: no types (`type: {}`), not nullable. */
function unconstrained(key: string, value: TreeValue | undefined): boolean {
  return (key === "type" && isNode(value) && Object.keys(value).length === 0) || (key === "nullable" && value === false);
}

/** Two tree values alike, references by the type they name (bounded: deeper than MAX_SCHEMA_PATH counts as different). */
function sameTree(x: TreeValue | undefined, y: TreeValue | undefined, depth: number, ignoreAnnotations = false): boolean {
  if (x === y) return true;
  if (!isNode(x) || !isNode(y) || depth > MAX_SCHEMA_PATH) return false;
  if (typeRef(x) !== typeRef(y) || isMembers(x) !== isMembers(y)) return false;
  // A description the wrap moved to the wrapper (or left on the member) does not make it another schema.
  const keysOf = (n: TreeNode) => Object.keys(n).filter((k) => !(ignoreAnnotations && WRAP_ANNOTATIONS.has(k)));
  const keys = keysOf(x);
  if (keys.length !== keysOf(y).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && sameTree(x[k], y[k], depth + 1));
}

/** Tree paths in depth-first key order: segment by segment, a path before the paths below it. */
function comparePaths(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
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

/** Member pairs scored by similarity at most, per combinator (a union of thousands rewritten at once). */
const MAX_MEMBER_PAIRS = 250_000;

/** What a member is made of, for pairing by structure: its types, property names, constant and enum values. */
function features(node: TreeValue | undefined, ref: string | undefined): Set<string> {
  const out = new Set<string>();
  if (ref !== undefined) out.add(`$ref ${ref}`);
  if (!isNode(node)) return out;
  for (const [key, prefix] of [["type", "type"], ["properties", "property"], ["required", "required"], ["enum", "enum"]] as const) {
    const v = node[key];
    if (isNode(v)) for (const k of Object.keys(v)) out.add(`${prefix} ${k}`);
  }
  for (const k of ["const", "items", "prefixItems", "additionalProperties", "format", "pattern"]) if (Object.hasOwn(node, k)) out.add(`${k} ${typeof node[k] === "object" ? "" : String(node[k])}`);
  return out;
}

/** How much two feature sets share (Jaccard index), 1 for two empty sets. */
function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const f of a) if (b.has(f)) common++;
  return common / (a.size + b.size - common);
}

/**
 * Old member keys paired with new ones among those their identities did not pair: most similar first,
 * ties in document order, and only pairs that share at least half their features (else the member
 * is reported removed and the other added, not one rewritten into the other).
 */
function pairMembers(a: TreeNode, b: TreeNode, derefA: (v: TreeValue | undefined) => TreeValue | undefined, derefB: typeof derefA): Array<[string, string]> {
  const olds = Object.keys(a).filter((k) => !Object.hasOwn(b, k));
  const news = Object.keys(b).filter((k) => !Object.hasOwn(a, k));
  if (olds.length === 0 || news.length === 0) return [];
  const fa = olds.map((k) => features(derefA(a[k]), typeRef(a[k])));
  const fb = news.map((k) => features(derefB(b[k]), typeRef(b[k])));
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  const pairs: Array<[string, string]> = [];
  // Members with the same features pair first, in document order (linear: long unions stay cheap).
  const bySignature = new Map<string, number[]>();
  fb.forEach((f, j) => {
    const signature = [...f].sort().join("\u0000");
    const list = bySignature.get(signature);
    if (list) list.push(j);
    else bySignature.set(signature, [j]);
  });
  fa.forEach((f, i) => {
    const j = bySignature.get([...f].sort().join("\u0000"))?.shift();
    if (j === undefined) return;
    usedA.add(i);
    usedB.add(j);
    pairs.push([olds[i]!, news[j]!]);
  });
  // The rest by similarity, every pair scored: bounded, past which the rest are reported added and removed.
  const restA = olds.map((_, i) => i).filter((i) => !usedA.has(i));
  const restB = news.map((_, j) => j).filter((j) => !usedB.has(j));
  if (restA.length * restB.length > MAX_MEMBER_PAIRS) return pairs;
  const candidates: Array<{ i: number; j: number; score: number }> = [];
  for (const i of restA) for (const j of restB) candidates.push({ i, j, score: similarity(fa[i]!, fb[j]!) });
  candidates.sort((x, y) => y.score - x.score || Math.abs(x.i - x.j) - Math.abs(y.i - y.j) || x.i - y.i || x.j - y.j);
  for (const c of candidates) {
    if (c.score < 0.5 || usedA.has(c.i) || usedB.has(c.j)) continue;
    usedA.add(c.i);
    usedB.add(c.j);
    pairs.push([olds[c.i]!, news[c.j]!]);
  }
  return pairs;
}
