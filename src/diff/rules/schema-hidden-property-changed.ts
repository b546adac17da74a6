import { q, type Rule } from "../rule.js";
import { RETURNS } from "../tree.js";

/**
 * A read-only property is never sent in a request and a write-only one never comes back in a
 * response: adding or removing one where it is hidden changes nothing a caller sends or reads (a
 * schema shared by a request body and a response gains a server-set field, such as `created`). The
 * other schema rules leave hidden properties out (_schema.ts schemaChanges); this one names them.
 */
export const rule: Rule = {
  id: "schema-hidden-property-changed",
  severity: "info",
  category: "output",
  description: "A read-only property was added to or removed from an operation's input, or a write-only one from its output: that side never carries it.",
  hint: "Nothing to do: requests never send a read-only property and responses never return a write-only one.",
  check: (ctx) =>
    ctx.changes.flatMap((c) => {
      const path = c.path;
      if ((c.kind !== "added" && c.kind !== "removed") || path[0] !== "operations" || path.at(-2) !== "properties") return [];
      const input = path[2] === "input";
      if (!input && path[2] !== RETURNS) return [];
      const flag = input ? "readOnly" : "writeOnly";
      const side = c.kind === "added" ? ctx.new_ : ctx.old;
      if (side.get([...path, flag]) !== true) return [];
      const name = path.at(-1)!;
      const operation = path[1]!;
      const where = input ? `the input of ${q(operation)}` : `the ${path[3]} of ${q(operation)}`;
      const schema = path.slice(0, -2);
      return [{
        operation,
        message: `${input ? "Read-only" : "Write-only"} property ${q(name)} was ${c.kind} ${c.kind === "added" ? "to" : "from"} ${where}; ${input ? "requests never send it" : "responses never return it"}.`,
        before: c.kind === "removed" ? path : schema,
        after: c.kind === "added" ? path : schema,
      }];
    }),
};
