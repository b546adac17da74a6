import { type DiffContext, fieldPath, type Match, q, type Rule } from "../rule.js";
import type { ChangeKind } from "../structural.js";
import type { TreeNode, TreeValue } from "../tree.js";

// Shared by the output-* rules (rules/ holds one rule per file, so the helpers live with this one).

export function isTreeNode(v: TreeValue | undefined): v is TreeNode {
  return v !== null && typeof v === "object";
}

/**
 * Whether `segments`, read from a schema node, lead to another schema node: only properties/<name>,
 * items and allOf|anyOf|oneOf/<i> steps. A bare "**" would also match a property named "type",
 * "enum" or "required" as if it were that keyword.
 */
export function isSchemaNodePath(segments: readonly string[]): boolean {
  for (let i = 0; i < segments.length; ) {
    const s = segments[i];
    if (s === "items") i += 1;
    else if ((s === "properties" || s === "allOf" || s === "anyOf" || s === "oneOf") && i + 1 < segments.length) i += 2;
    else return false;
  }
  return true;
}

export interface SchemaMatch extends Match {
  readonly operation: string;
  /** Tree path of the schema node the change is in: operations/<id>/output/… */
  readonly schema: readonly string[];
  /** The changed path below that schema node (`tail` with its "*" filled in). */
  readonly rest: readonly string[];
  /** The field the schema node describes, e.g. "orders[].status" or "(root)". */
  readonly field: string;
}

/** Changes at `<schema node>/<tail…>` at any depth of an operation's output schema. */
export function findInOutput(ctx: DiffContext, tail: readonly string[], kinds?: readonly ChangeKind[]): SchemaMatch[] {
  return ctx.find(["operations", "*", "output", "**", ...tail], kinds).flatMap((m) => {
    const inner = m.captures[1]!;
    if (m.operation === null || !isSchemaNodePath(inner)) return [];
    const schema = m.change.path.slice(0, 3 + inner.length);
    return [{ ...m, operation: m.operation, schema, rest: m.change.path.slice(schema.length), field: fieldPath(inner) }];
  });
}

/** New documented output fields: harmless to consumers, who ignore what they do not read. */
export const rule: Rule = {
  id: "output-property-added",
  severity: "info",
  category: "output",
  description: "A property was added to an operation's output.",
  hint: "Nothing to do; regenerate adapters to read the new property.",
  check: (ctx) => {
    const added = [
      ...findInOutput(ctx, ["properties", "*"], ["added"]).map((m) => ({ m, name: m.rest[1]! })),
      // A schema that had no `properties` at all gained some.
      ...findInOutput(ctx, ["properties"], ["added"])
        .filter((m) => isTreeNode(ctx.old.get(m.schema)) && isTreeNode(m.change.after))
        .flatMap((m) => Object.keys(m.change.after as TreeNode).map((name) => ({ m, name }))),
    ];
    return added.map(({ m, name }) => ({
      operation: m.operation,
      message: `Output property ${q(fieldPath([...m.schema.slice(3), "properties", name]))} of ${q(m.operation)} was added.`,
      before: m.schema,
      after: [...m.schema, "properties", name],
    }));
  },
};
