import { kebabCase } from "../../model/naming.js";
import { q, type Rule } from "../rule.js";

/**
 * `/books/{bookId}` → `/books/{id}` sends the same request: the server sees the same path. Only the
 * names the generators derive from the parameter move (the SDK's input field, the CLI flag, the MCP
 * tool's argument), which code written against the old SDK and scripts passing the old flag meet.
 */
export const rule: Rule = {
  id: "input-path-parameter-renamed",
  severity: "warning",
  category: "input",
  description: "A path parameter was renamed in place (same position in the same path): the request is unchanged, but the SDK field, CLI flag and MCP argument take the new name.",
  hint: "Callers of the generated SDK pass the field under its new name, and scripts use the new CLI flag; nothing changes on the wire.",
  check: (ctx) =>
    ctx.pathParameterRenames.map((r) => {
      const command = ctx.new_.operation(r.operation)!.names.kebab;
      const property = (name: string) => ["operations", r.operation, "input", "properties", name];
      return {
        operation: r.operation,
        message: `Path parameter ${q(r.from)} of ${q(r.operation)} is now named ${q(r.to)} at the same place in the path: the request is unchanged; the SDK input field and CLI flag ${q(`--${kebabCase(r.from)}`)} of ${q(command)} become ${q(r.to)} and ${q(`--${kebabCase(r.to)}`)}.`,
        before: property(r.to),
        after: property(r.to),
      };
    }),
};
