import { q, type Rule } from "../rule.js";
import type { TreeValue } from "../tree.js";
import { bySchema, findInSchema, isTreeNode, mention, reach } from "./_schema.js";

/** The JSON types a schema node admits: "any", a set (empty for `false`), or null when its type is decided elsewhere. */
function admitted(node: TreeValue | undefined): "any" | Set<string> | null {
  if (!isTreeNode(node) || "recursive" in node) return null;
  if ("any" in node) return node.any === true ? "any" : new Set();
  const types = isTreeNode(node.type) ? Object.keys(node.type) : [];
  if (types.length > 0) return new Set(types);
  // No `type`: composition, enum or const decide what the value can be; their own changes are reported there.
  return ["allOf", "anyOf", "oneOf", "enum", "const"].some((k) => k in node) ? null : "any";
}

/** Whether `after` admits a type `before` did not (integer is a kind of number). */
function widened(before: "any" | Set<string>, after: "any" | Set<string>): boolean {
  if (before === "any") return false;
  if (after === "any") return true;
  return [...after].some((t) => !before.has(t) && !(t === "integer" && before.has("number")));
}

const show = (types: "any" | Set<string>) => (types === "any" ? "any" : types.size === 0 ? "nothing" : [...types].sort().join(" | "));

/**
 * Consumers parse output by its declared type: a value of a type they did not expect breaks them.
 * A narrowed type (string | integer → string) is safe for them and not reported; nullability has its own rule.
 */
export const rule: Rule = {
  id: "output-property-type-changed",
  severity: "breaking",
  category: "output",
  description: "The type of an output field changed so that it can hold a type it could not hold before.",
  hint: "Handle the new type where you read the field; code written for the old type will misread it or fail.",
  check: (ctx) => {
    const changed = bySchema([...findInSchema(ctx, "output", ["type", "*"]), ...findInSchema(ctx, "output", ["type"]), ...findInSchema(ctx, "output", ["any"])]);
    return changed.flatMap((m) => {
      const before = admitted(ctx.old.get(m.schema));
      const after = admitted(ctx.new_.get(m.schema));
      if (before === null || after === null || !widened(before, after)) return [];
      return [
        {
          ...reach(m),
          message: `The type of ${mention(m)} changed from ${q(show(before))} to ${q(show(after))}.`,
          before: [...m.schema, "type"],
          after: [...m.schema, "type"],
        },
      ];
    });
  },
};
