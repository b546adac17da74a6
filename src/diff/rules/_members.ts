import { getAtPointer, joinPointer } from "../../contract/source.js";
import type { DiffSide } from "../rule.js";

/*
 * Where a finding points in the document (not a rule: files starting with "_" are not registered).
 *
 * Several tree nodes are not shaped like the document: sets (scopes, filters, selectable, enum…) are
 * lists there, and keys such as `retentionMs` or `defaultDryRun` are written `retention` and `default`.
 * A set member is addressed by its name (["operations", id, "scopes", "billing:read"]): DiffSide.locate
 * turns it into the list item's index. Renamed keys use a *document-shaped* path; locate maps it
 * through the nearest recorded pointer, so the location is exact when the node is written and falls
 * back to its nearest written ancestor when it is not (a default).
 */

/** The document value at /operations/<id>/<segments> on one side, or undefined when not written. */
export function rawAt(side: DiffSide, id: string, ...segments: string[]): unknown {
  if (!side.source) return undefined;
  const base = side.pointer(["operations", id]);
  return getAtPointer(side.source.value, joinPointer(base, ...segments));
}

/** Whether the document of one side writes /operations/<id>/<segments>. */
export function written(side: DiffSide, id: string, ...segments: string[]): boolean {
  return rawAt(side, id, ...segments) !== undefined;
}

/** Path of one member of a list written at operations/<id>/<segments> (DiffSide.locate finds the item, else the list). */
export function memberAt(_side: DiffSide, id: string, segments: readonly string[], member: string): string[] {
  return ["operations", id, ...segments, member];
}

/** The document node a schema tree path came from on one side (after $ref resolution), if known. */
export function rawSchema(side: DiffSide, schema: readonly string[]): Record<string, unknown> | undefined {
  if (!side.source || side.get(schema) === undefined) return undefined;
  const pointer = side.pointer(schema);
  const node = getAtPointer(side.source.value, pointer);
  return node !== null && typeof node === "object" && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

/**
 * Path of one member of a list keyword (`enum`, `type`) of a schema node: the list item when the
 * keyword is written as a list, else the keyword itself. Members are compared as the tree keeps them
 * (strings as they are, other values as JSON).
 */
export function memberPath(_side: DiffSide, schema: readonly string[], keyword: string, member: string): string[] {
  return [...schema, keyword, member];
}

/** Path of the precondition entry on `field` in the operation's preconditions list, else the list. */
export function preconditionPath(side: DiffSide, id: string, field: string): string[] {
  const i = side.operation(id)?.preconditions.findIndex((p) => p.field === field) ?? -1;
  return i >= 0 ? ["operations", id, "preconditions", String(i)] : ["operations", id, "preconditions"];
}
