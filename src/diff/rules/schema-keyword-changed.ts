import { fieldPath, q, type Rule } from "../rule.js";
import { uncoveredChanges } from "./_coverage.js";
import { isSchemaPath, schemaRootLength } from "./_schema.js";

/**
 * Nothing silent: a change inside a schema that no other rule judged (a keyword this version does not
 * know, a recursion or size marker, a combination no rule reads) is still reported, where it is.
 */
export const rule: Rule = {
  id: "schema-keyword-changed",
  severity: "warning",
  category: "input",
  phase: "fallback",
  description: "A schema changed in a way no other rule judges (an unknown keyword, a change past the comparison's depth or size bounds, a combination of keywords no rule reads): reported where it is, with both locations, so that no change goes unseen.",
  hint: "Review the change by hand: decide whether callers or consumers are affected.",
  check: (ctx) =>
    uncoveredChanges(ctx).flatMap((c) => {
      const start = schemaRootLength(c.path);
      if (start < 0) return [];
      // The schema node the change is in: the longest schema path below the root.
      let end = c.path.length;
      while (end > start && !isSchemaPath(c.path.slice(start, end))) end--;
      const rest = c.path.slice(end);
      const node = c.path.slice(start, end);
      const owner = c.path[0] === "types" ? `type ${q(c.path[1])}` : c.path[0] === "errors" ? `the details of error ${q(c.path[1])}` : q(c.path[1]);
      const label = c.path[0] === "operations" ? (c.path[2] === "input" ? "input" : c.path[3]!) : "schema";
      const what = rest.length > 0 ? `${q(rest.join("/"))} of ${label} ${q(fieldPath(node))}` : `${label} ${q(fieldPath(node))}`;
      return [
        {
          operation: c.path[0] === "operations" ? c.path[1]! : null,
          message: `${what.charAt(0).toUpperCase()}${what.slice(1)} of ${owner} was ${c.kind} (no rule judges this change).`,
          ...(c.kind !== "added" ? { before: c.path } : {}),
          ...(c.kind !== "removed" ? { after: c.path } : {}),
        },
      ];
    }),
};
