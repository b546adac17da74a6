import { q, type Rule } from "../rule.js";
import { uncoveredChanges } from "./_coverage.js";
import { schemaRootLength } from "./_schema.js";

/** Nothing silent, outside schemas: a change of the contract no other rule judged is still reported, where it is. */
export const rule: Rule = {
  id: "contract-field-changed",
  severity: "warning",
  category: "operation",
  phase: "fallback",
  description: "A field of the contract outside schemas changed in a way no other rule judges: reported where it is, with both locations, so that no change goes unseen.",
  hint: "Review the change by hand: decide whether callers or consumers are affected.",
  check: (ctx) =>
    uncoveredChanges(ctx).flatMap((c) => {
      if (schemaRootLength(c.path) >= 0) return [];
      const operation = c.path[0] === "operations" && c.path.length > 1 ? c.path[1]! : null;
      // Named as the document writes it (its JSON pointer), not by the diff's internal tree keys.
      const side = c.kind === "added" ? ctx.new_ : ctx.old;
      return [
        {
          operation,
          message: `${q(side.pointer(c.path))} was ${c.kind} (no rule judges this change).`,
          ...(c.kind !== "added" ? { before: c.path } : {}),
          ...(c.kind !== "removed" ? { after: c.path } : {}),
        },
      ];
    }),
};
