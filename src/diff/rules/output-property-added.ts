import { type Rule } from "../rule.js";
import type { TreeNode } from "../tree.js";
import { findInSchema, isTreeNode, propertySubject, reach } from "./_schema.js";

/** New documented output fields: harmless to consumers, who ignore what they do not read. */
export const rule: Rule = {
  id: "output-property-added",
  severity: "info",
  category: "output",
  description: "A property was added to an operation's output.",
  hint: "Nothing to do; regenerate adapters to read the new property.",
  check: (ctx) => {
    const added = [
      ...findInSchema(ctx, "output", ["properties", "*"], ["added"]).map((m) => ({ m, name: m.rest[1]! })),
      // A schema that had no `properties` at all gained some.
      ...findInSchema(ctx, "output", ["properties"], ["added"])
        .filter((m) => isTreeNode(ctx.old.get(m.schema)) && isTreeNode(m.change.after))
        .flatMap((m) => Object.keys(m.change.after as TreeNode).map((name) => ({ m, name }))),
    ];
    return added.map(({ m, name }) => ({
      ...reach(m),
      message: `${propertySubject(m, name)} was added.`,
      before: m.schema,
      after: [...m.schema, "properties", name],
    }));
  },
};
