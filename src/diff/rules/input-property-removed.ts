import { getAtPointer } from "../../spec/source.js";
import { type ChangeKind } from "../structural.js";
import { type DiffContext, type DiffSide, fieldPath, type Match, q, type Rule } from "../rule.js";
import { pathKey, type TreeNode, type TreeValue } from "../tree.js";

/*
 * Shared helpers of the input-* rules. They live here because every .ts file in this folder is
 * registered as a rule; the other input rules import them from this file.
 */

/** A change under an input schema node, with the node it concerns. */
export interface InputMatch extends Match {
  /** Tree path of the schema node the keyword belongs to (operations/<id>/input/…). */
  readonly schema: string[];
  /** "a.b[]", or "(root)" for the input itself. */
  readonly field: string;
}

const COMBINATORS = new Set(["allOf", "anyOf", "oneOf"]);

/** Whether segments below operations/<id>/input walk schema nodes only (properties/<name>, items, allOf/<i>…). */
export function isSchemaPath(segments: readonly string[]): boolean {
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

/**
 * Changes to `tail` (e.g. ["minimum"] or ["enum", "*"]) of any input schema node, at any depth:
 * nested properties, array items and combinator branches. A property that happens to be named like a
 * keyword ("type", "enum") is not mistaken for the keyword.
 */
export function findInput(ctx: DiffContext, tail: readonly string[], kinds?: readonly ChangeKind[]): InputMatch[] {
  return ctx.find(["operations", "*", "input", "**", ...tail], kinds).flatMap((m) => {
    const schema = m.change.path.slice(0, m.change.path.length - tail.length);
    return isSchemaPath(schema.slice(3)) ? [{ ...m, schema, field: fieldPath(schema.slice(3)) }] : [];
  });
}

/** Matches grouped by schema node (first match of each node, in change order). */
export function bySchema(matches: readonly InputMatch[]): InputMatch[] {
  const seen = new Map<string, InputMatch>();
  for (const m of matches) if (!seen.has(pathKey(m.schema))) seen.set(pathKey(m.schema), m);
  return [...seen.values()];
}

/** `Input "a.b" of "op"`, or `The input of "op"` for the root schema. */
export function subject(m: { readonly field: string; readonly operation: string | null }): string {
  return m.field === "(root)" ? `The input of ${q(m.operation)}` : `Input ${q(m.field)} of ${q(m.operation)}`;
}

/** `input "a.b" of "op"` inside a sentence. */
export function inner(m: { readonly field: string; readonly operation: string | null }): string {
  return m.field === "(root)" ? `the input of ${q(m.operation)}` : `input ${q(m.field)} of ${q(m.operation)}`;
}

/** The document node a schema tree path came from on one side (after $ref resolution), if known. */
export function rawSchema(side: DiffSide, schema: readonly string[]): Record<string, unknown> | undefined {
  const pointer = side.tree.pointers.get(pathKey(schema));
  if (pointer === undefined || !side.source) return undefined;
  const node = getAtPointer(side.source.value, pointer);
  return node !== null && typeof node === "object" && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

/**
 * Tree path pointing at one member of a list keyword (`enum`, `type`) in the document: the list item
 * when the keyword is written as a list, else the keyword itself.
 */
export function memberPath(side: DiffSide, schema: readonly string[], keyword: string, member: string): string[] {
  const list = rawSchema(side, schema)?.[keyword];
  if (Array.isArray(list)) {
    const i = list.findIndex((v) => (typeof v === "string" ? v : JSON.stringify(v)) === member);
    if (i >= 0) return [...schema, keyword, String(i)];
  }
  return [...schema, keyword];
}

/** Keys of a tree node (a set), or [] when absent. */
export function members(value: TreeValue | undefined): string[] {
  return value !== null && typeof value === "object" ? Object.keys(value as TreeNode) : [];
}

export const rule: Rule = {
  id: "input-property-removed",
  severity: "breaking",
  category: "input",
  description: "A property of an operation's input was removed.",
  hint: "Stop sending the property; callers that still send it are rejected or silently ignored.",
  check: (ctx) =>
    findInput(ctx, ["properties", "*"], ["removed"]).map((m) => {
      const name = m.change.path.at(-1)!;
      return {
        operation: m.operation,
        message: `Input property ${q(fieldPath([...m.schema.slice(3), "properties", name]))} of ${q(m.operation)} was removed.`,
        before: m.change.path,
        after: m.schema,
      };
    }),
};
