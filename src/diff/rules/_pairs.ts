import type { ContractModel } from "../../model/types.js";
import type { DiffContext, DiffSide, OperationRename, PathParameterRename } from "../rule.js";
import { canonicalJson, RETURNS, type TreeNode, type TreeValue } from "../tree.js";

/*
 * Pairing what the old contract had with what the new one has (not a rule: files starting with "_"
 * are not registered). A removal and an addition that are really one rename must be reported once,
 * by the *-renamed rule, and left alone by the *-removed/*-added rules.
 */

/** Ids of the operations present on both sides (a renamed one under its new id), in the new side's order. */
export function commonOperations(ctx: { old: DiffSide; new_: DiffSide }): string[] {
  return ctx.new_.model.operations.map((o) => o.names.id).filter((id) => ctx.old.operation(id) !== undefined);
}

/* ---- error codes ---- */

export interface ErrorRename {
  readonly from: string;
  readonly to: string;
}

const errorSignature = (v: TreeValue | undefined): string | null =>
  v !== null && typeof v === "object" ? JSON.stringify([v.class ?? null, v.action ?? null, v.http ?? null]) : null;

/**
 * Codes removed and added with the same class, action and HTTP status, paired only when the pairing
 * is unambiguous (exactly one removed and one added code share the triple). Used by error-code-renamed,
 * error-code-removed, error-code-retired, error-code-added and operation-error-added/-removed to report
 * a rename once.
 */
export function errorRenames(ctx: DiffContext): ErrorRename[] {
  const groups = new Map<string, { removed: string[]; added: string[] }>();
  for (const m of ctx.find(["errors", "*"], ["removed", "added"])) {
    const sig = errorSignature(m.change.kind === "removed" ? m.change.before : m.change.after);
    if (sig === null) continue;
    const g = groups.get(sig) ?? { removed: [], added: [] };
    (m.change.kind === "removed" ? g.removed : g.added).push(m.change.path[1]!);
    groups.set(sig, g);
  }
  return [...groups.values()].filter((g) => g.removed.length === 1 && g.added.length === 1).map((g) => ({ from: g.removed[0]!, to: g.added[0]! }));
}

/**
 * Operations of one side that raise `code` (their tree ids: a renamed operation under its new id), in
 * document order. Used by error-code-removed and error-code-retired.
 */
export function raisersOf(side: DiffSide, code: string): string[] {
  return side.model.operations.filter((o) => o.errors.some((e) => e.code === code)).map((o) => side.treeId(o));
}

/* ---- operations ---- */

export type { OperationRename };


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
 * Operations only the old side has paired one-to-one with operations only the new side has: first by
 * HTTP method and path (parameter names ignored), then by identical input and output schema trees. A
 * pairing is kept only when it is unambiguous both ways. The engine runs this on the two sides as
 * built, before the structural diff, and then compares each old operation with its new one under
 * the new id (so every rule sees the changes inside a rename); the pairs are DiffContext.renames.
 */
export function pairOperations(old: DiffSide, new_: DiffSide): OperationRename[] {
  const removed = old.model.operations.map((o) => o.names.id).filter((id) => new_.operation(id) === undefined);
  const added = new_.model.operations.map((o) => o.names.id).filter((id) => old.operation(id) === undefined);
  if (removed.length === 0 || added.length === 0) return [];
  const http = (side: DiffSide, id: string) => {
    const op = side.operation(id);
    return op ? `${op.http.method} ${op.http.path.replace(/\{[^}]*\}/g, "{}")}` : undefined;
  };
  const schemas = (side: DiffSide, id: string) => {
    const input = side.get(["operations", id, "input"]);
    const output = side.get(["operations", id, RETURNS]);
    const returned = output !== null && typeof output === "object" ? Object.values(output) : [];
    return hasProperties(input) || returned.some(hasProperties) ? `${canonicalJson(input, false)}|${canonicalJson(output, false)}` : undefined;
  };
  const pairs: OperationRename[] = [];
  const taken = new Set<string>();
  for (const by of ["http", "schemas"] as const) {
    const key = by === "http" ? http : schemas;
    const open = { removed: removed.filter((id) => !taken.has(`-${id}`)), added: added.filter((id) => !taken.has(`+${id}`)) };
    for (const from of open.removed) {
      const k = key(old, from);
      if (k === undefined) continue;
      const candidates = open.added.filter((id) => key(new_, id) === k);
      const rivals = open.removed.filter((id) => key(old, id) === k);
      if (candidates.length !== 1 || rivals.length !== 1) continue;
      const to = candidates[0]!;
      pairs.push({ from, to, by });
      taken.add(`-${from}`);
      taken.add(`+${to}`);
    }
  }
  return pairs.sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/**
 * The renamed operations (pairOperations, computed by the engine before the structural diff). Used by
 * operation-renamed. A renamed operation is neither removed nor added in the changes: its old side
 * is compared with its new one under the new id.
 */
export function renamedOperations(ctx: DiffContext): readonly OperationRename[] {
  return ctx.renames;
}

export interface DeprecatedRemoval {
  readonly operation: string;
  readonly sunset: string | null;
  readonly replacement: string | null;
  /** The release date of the new contract (DiffOptions.release). */
  readonly released: string;
  /** Words saying which date that is, for a message: "a release dated 2026-03-01" or "today's run (2026-03-01)". */
  readonly releasedWords: string;
}

/** A contract's newest changelog date ("" when it has none). */
export function newestChangelogDate(model: ContractModel): string {
  return model.changelog.map((e) => e.date).reduce((a, b) => (b > a ? b : a), "");
}

/** The new contract's release date, and how a message names it. */
export function releaseOf(ctx: DiffContext): { date: string; words: string } {
  const release = ctx.options.release ?? { date: newestChangelogDate(ctx.new_.model), from: "changelog" as const };
  return {
    date: release.date,
    words: release.from === "changelog" ? `a release dated ${release.date}` : `a document with no release date, judged on the diff's date ${release.date}`,
  };
}

/**
 * Deprecated operations the new contract removed, with the dates to judge them by (YYYY-MM-DD
 * compares as text). Used by operation-removed-before-sunset and operation-removed-after-sunset.
 */
export function deprecatedRemovals(ctx: DiffContext): DeprecatedRemoval[] {
  const release = releaseOf(ctx);
  return ctx.find(["operations", "*"], ["removed"]).flatMap((m) => {
    const d = ctx.old.operation(m.operation!)?.deprecated;
    return d ? [{ operation: m.operation!, sunset: d.sunset, replacement: d.replacement, released: release.date, releasedWords: release.words }] : [];
  });
}

/* ---- path parameters ---- */

const PATH_PARAMETER = /\{([^}]*)\}/g;

/**
 * Path parameters renamed in place (`/books/{bookId}` → `/books/{id}`): an operation on both sides
 * whose path template is the same once parameter names are left out, where the parameter at a
 * position has another name, each name an input field bound to the path on its own side only (the
 * old name gone from the new input, the new one absent from the old). The engine runs this before
 * the structural diff and compares the old field under its new name.
 */
export function pairPathParameters(old: DiffSide, new_: DiffSide): PathParameterRename[] {
  const out: PathParameterRename[] = [];
  for (const op of new_.model.operations) {
    const id = op.names.id;
    const before = old.operation(id);
    if (!before || before.http.path === op.http.path) continue;
    if (before.http.path.replace(PATH_PARAMETER, "{}") !== op.http.path.replace(PATH_PARAMETER, "{}")) continue;
    const names = (path: string) => [...path.matchAll(PATH_PARAMETER)].map((m) => m[1]!);
    const [from, to] = [names(before.http.path), names(op.http.path)];
    const boundToPath = (o: typeof op, field: string) => o.http.bindings.some((b) => b.field === field && b.in === "path");
    const has = (o: typeof op, field: string) => o.http.bindings.some((b) => b.field === field);
    const pairs = from.map((f, i) => ({ from: f, to: to[i]! })).filter((p) => p.from !== p.to);
    const fieldOf = (o: typeof op, wire: string) => o.http.bindings.find((b) => b.in === "path" && b.name === wire)?.field;
    const renames = pairs.map((p) => ({ from: fieldOf(before, p.from), to: fieldOf(op, p.to) }));
    // Every differing position must be a clean rename, or the path really changed (http-path-changed).
    if (renames.some((r) => r.from === undefined || r.to === undefined || r.from === r.to || !boundToPath(before, r.from) || !boundToPath(op, r.to) || has(op, r.from) || has(before, r.to))) continue;
    for (const r of renames) out.push({ operation: id, from: r.from!, to: r.to! });
  }
  return out;
}
