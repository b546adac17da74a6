import { type DiffContext, fieldPath, type Match, q } from "../rule.js";
import type { ChangeKind } from "../structural.js";
import { pathKey, type TreeNode, type TreeValue } from "../tree.js";

/*
 * Finding changes inside operation input and output schemas (not a rule: files starting with "_" are
 * not registered). Used by the input-* and output-* rules.
 */

/** Whether a tree value is a node (a schema, a set, a map) rather than a scalar, null or absent. */
export function isTreeNode(value: TreeValue | undefined): value is TreeNode {
  return value !== null && typeof value === "object";
}

/** Keys of a tree node (the members of a set), or [] when it is no node. */
export function members(value: TreeValue | undefined): string[] {
  return isTreeNode(value) ? Object.keys(value) : [];
}

/** Which schema of an operation: operations/<id>/input or operations/<id>/output. */
export type SchemaRoot = "input" | "output";

const COMBINATORS = new Set(["allOf", "anyOf", "oneOf"]);

/**
 * Whether `segments`, read from a schema node, lead to another schema node: only properties/<name>,
 * items and allOf|anyOf|oneOf/<i> steps. A bare "**" would also match a property named "type",
 * "enum" or "required" as if it were that keyword.
 */
function isSchemaPath(segments: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s === "items") continue;
    if ((s === "properties" || COMBINATORS.has(s)) && i + 1 < segments.length) {
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/** A change at `<schema node>/<tail…>` of an operation's input or output schema. */
export interface SchemaMatch extends Match {
  readonly operation: string;
  /** Tree path of the schema node the change is in: operations/<id>/<input|output>/… */
  readonly schema: readonly string[];
  /** The changed path below that schema node (`tail` with its "*" filled in). */
  readonly rest: readonly string[];
  /** The field the schema node describes, e.g. "orders[].status", or "(root)" for the schema itself. */
  readonly field: string;
}

/**
 * Changes to `tail` (e.g. ["minimum"] or ["enum", "*"]) of any schema node of an operation's input
 * or output, at any depth: nested properties, array items and combinator branches. A property that
 * happens to be named like a keyword ("type", "enum") is not mistaken for the keyword.
 */
export function findInSchema(ctx: DiffContext, root: SchemaRoot, tail: readonly string[], kinds?: readonly ChangeKind[]): SchemaMatch[] {
  return ctx.find(["operations", "*", root, "**", ...tail], kinds).flatMap((m) => {
    const below = m.captures[1]!;
    if (m.operation === null || !isSchemaPath(below)) return [];
    const schema = m.change.path.slice(0, 3 + below.length);
    return [{ ...m, operation: m.operation, schema, rest: m.change.path.slice(schema.length), field: fieldPath(below) }];
  });
}

/** Matches grouped by schema node: the first match of each node, in change order. */
export function bySchema<M extends SchemaMatch>(matches: readonly M[]): M[] {
  const seen = new Map<string, M>();
  for (const m of matches) if (!seen.has(pathKey(m.schema))) seen.set(pathKey(m.schema), m);
  return [...seen.values()];
}

/**
 * Property names that joined (`added`) or left (`removed`) the `required` list of a schema node: one
 * by one, or with the whole list when the node gained or lost `required` altogether.
 */
export function requiredChanges(ctx: DiffContext, root: SchemaRoot, kind: "added" | "removed"): { m: SchemaMatch; name: string }[] {
  return [
    ...findInSchema(ctx, root, ["required", "*"], [kind]).map((m) => ({ m, name: m.rest[1]! })),
    ...findInSchema(ctx, root, ["required"], [kind]).flatMap((m) => members(kind === "added" ? m.change.after : m.change.before).map((name) => ({ m, name }))),
  ];
}

/** `Input "a.b" of "op"`, or `The input of "op"` for the root schema: the subject of a sentence. */
export function inputSubject(m: { readonly field: string; readonly operation: string | null }): string {
  return m.field === "(root)" ? `The input of ${q(m.operation)}` : `Input ${q(m.field)} of ${q(m.operation)}`;
}

/** `input "a.b" of "op"`, or `the input of "op"`, inside a sentence. */
export function inputMention(m: { readonly field: string; readonly operation: string | null }): string {
  return m.field === "(root)" ? `the input of ${q(m.operation)}` : `input ${q(m.field)} of ${q(m.operation)}`;
}
