import { type DiffContext, type DiffSide, fieldPath, type Match, q, type Rule } from "../rule.js";
import { RETURNS } from "../tree.js";
import { isSchemaPath } from "./_schema.js";

/** The deepest node of `path` that exists on one side. */
function existing(side: DiffSide, path: readonly string[], root = ROOT): string[] {
  let p = [...path];
  while (p.length > root && side.get(p) === undefined) p = p.slice(0, -1);
  return p;
}

/** The field a change under the output is about; a change to `required` is about the member it names. */
function field(schemaPath: readonly string[]): string {
  const n = schemaPath.length;
  return n >= 2 && schemaPath[n - 2] === "required" ? fieldPath([...schemaPath.slice(0, -2), "properties", schemaPath[n - 1]!]) : fieldPath(schemaPath);
}

const ROOT = 4; // operations/<id>/returns/output
const TYPE_ROOT = 2; // types/<Name>

/**
 * Whether a client validating structured output against the schema it cached can tell the change:
 * the change sits in an object that is closed (additionalProperties or unevaluatedProperties false)
 * on either side, or the configuration says clients validate strictly. An open object accepts both
 * the old and the new shape, and what the change means for readers is judged by the output-* rules.
 */
function observable(ctx: DiffContext, m: Match, root = ROOT): boolean {
  if (ctx.options.strictOutputValidation) return true;
  const path = m.change.path;
  for (let n = path.length; n >= root; n--) {
    const prefix = path.slice(0, n);
    if (ctx.old.get([...prefix, "closed"]) === true || ctx.new_.get([...prefix, "closed"]) === true) return true;
  }
  return false;
}

/**
 * MCP clients validate structuredContent against the tool's outputSchema and agents plan from it.
 * The output-* rules judge each change; this rule reports the tool once, under the output finding
 * it follows from when there is one.
 */
export const rule: Rule = {
  id: "mcp-output-schema-changed",
  severity: "warning",
  category: "surface",
  consequenceOf: ["output"],
  description:
    "The output schema an exposed MCP tool declares changed where clients can observe it: inside a closed object (additionalProperties or unevaluatedProperties false), or anywhere when the configuration sets strictOutputValidation (one finding per tool).",
  hint: "Refresh cached tool catalogues and check that clients validating structured output accept the new schema.",
  check: (ctx) => {
    const byOperation = new Map<string, Match[]>();
    for (const m of ctx.find(["operations", "*", RETURNS, "output", "**"])) {
      if (!ctx.old.operation(m.operation!)?.mcp.exposed || !ctx.new_.operation(m.operation!)?.mcp.exposed) continue;
      if (!observable(ctx, m)) continue;
      byOperation.set(m.operation!, [...(byOperation.get(m.operation!) ?? []), m]);
    }
    const perOperation = [...byOperation].map(([id, matches]) => {
      const fields = [...new Set(matches.map((m) => field(m.change.path.slice(ROOT))))];
      // The schema node of the first change (its keyword stripped), so the output finding about it overlaps.
      let first = matches[0]!.change.path;
      while (first.length > ROOT && !isSchemaPath(first.slice(ROOT))) first = first.slice(0, -1);
      return {
        operation: id,
        message: `The MCP output schema of ${q(id)} changed at ${fields.map(q).join(", ")}.`,
        before: existing(ctx.old, first),
        after: existing(ctx.new_, first),
      };
    });
    // A shared type's edit: once per type, listing the exposed tools whose output reaches it on both sides.
    const byType = new Map<string, Match[]>();
    for (const m of ctx.find(["types", "*", "**"])) {
      if (!observable(ctx, m, TYPE_ROOT)) continue;
      const name = m.change.path[1]!;
      byType.set(name, [...(byType.get(name) ?? []), m]);
    }
    const perType = [...byType].flatMap(([name, matches]) => {
      const before = new Set(ctx.old.reaching(name, "output"));
      const tools = ctx.new_.reaching(name, "output").filter((id) => before.has(id) && ctx.old.operation(id)?.mcp.exposed && ctx.new_.operation(id)?.mcp.exposed).sort();
      if (tools.length === 0) return [];
      const fields = [...new Set(matches.map((m) => field(m.change.path.slice(TYPE_ROOT))))];
      let first = matches[0]!.change.path;
      while (first.length > TYPE_ROOT && !isSchemaPath(first.slice(TYPE_ROOT))) first = first.slice(0, -1);
      return [
        {
          operation: tools.length === 1 ? tools[0]! : null,
          operations: tools,
          message: `The MCP output schema of ${tools.length === 1 ? q(tools[0]) : `${tools.length} tools`} changed at ${fields.map(q).join(", ")} of type ${q(name)}.`,
          before: existing(ctx.old, first, TYPE_ROOT),
          after: existing(ctx.new_, first, TYPE_ROOT),
        },
      ];
    });
    return [...perOperation, ...perType];
  },
};
