import { escapePointerSegment, getAtPointer, joinPointer } from "../../spec/source.js";
import { type DiffSide, q, type Rule } from "../rule.js";
import { pathKey } from "../tree.js";

/*
 * Shared helpers of the behaviour rules (scope-*, filter-*, precondition-*, projection-*, http-*…).
 * They live in this file because every .ts file in this folder is registered as a rule.
 *
 * Several tree nodes are not shaped like the document: sets (scopes, filters, selectable…) are lists
 * there, and keys such as `retentionMs` or `defaultDryRun` are written `retention` and `default`. A
 * finding that should point at the exact document node therefore uses a *document-shaped* path below
 * operations/<id> (e.g. ["operations", id, "scopes", "1"]); DiffSide.locate maps it through the
 * operation's recorded pointer, so the location is exact when the node is written and falls back to
 * its nearest written ancestor when it is not (a default).
 */

/** The document value at /operations/<id>/<segments> on one side, or undefined when not written. */
export function rawAt(side: DiffSide, id: string, ...segments: string[]): unknown {
  if (!side.source) return undefined;
  const base = side.tree.pointers.get(pathKey(["operations", id])) ?? `/operations/${escapePointerSegment(id)}`;
  return getAtPointer(side.source.value, joinPointer(base, ...segments));
}

/** Whether the document of one side writes /operations/<id>/<segments>. */
export function written(side: DiffSide, id: string, ...segments: string[]): boolean {
  return rawAt(side, id, ...segments) !== undefined;
}

/** Path of one member of a list written at operations/<id>/<segments>: the item, else the list. */
export function memberAt(side: DiffSide, id: string, segments: readonly string[], member: string): string[] {
  const list = rawAt(side, id, ...segments);
  if (Array.isArray(list)) {
    const i = list.indexOf(member);
    if (i >= 0) return ["operations", id, ...segments, String(i)];
  }
  return ["operations", id, ...segments];
}

/** Ids of the operations present on both sides, in the new side's order. */
export function commonOperations(ctx: { old: DiffSide; new_: DiffSide }): string[] {
  return ctx.new_.model.operations.map((o) => o.names.id).filter((id) => ctx.old.operation(id) !== undefined);
}

/** A new scope: callers whose credentials lack it are now refused. */
export const rule: Rule = {
  id: "scope-added",
  severity: "breaking",
  category: "transport",
  description: "An operation requires an authorisation scope it did not require before.",
  hint: "Grant the new scope to the credentials that call the operation before upgrading; calls without it are refused.",
  check: (ctx) =>
    ctx.find(["operations", "*", "scopes", "*"], ["added"]).map((m) => {
      const scope = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Scope ${q(scope)} was added to the scopes ${q(m.operation)} requires.`,
        after: memberAt(ctx.new_, m.operation!, ["scopes"], scope),
      };
    }),
};
