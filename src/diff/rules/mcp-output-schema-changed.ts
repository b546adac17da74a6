import { type DiffSide, fieldPath, q, type Rule } from "../rule.js";

/** The deepest node of `path` that exists on one side. */
function existing(side: DiffSide, path: readonly string[]): string[] {
  let p = [...path];
  while (p.length > 4 && side.get(p) === undefined) p = p.slice(0, -1);
  return p;
}

/** The field a change under the output is about; a change to `required` is about the member it names. */
function field(schemaPath: readonly string[]): string {
  const n = schemaPath.length;
  return n >= 2 && schemaPath[n - 2] === "required" ? fieldPath([...schemaPath.slice(0, -2), "properties", schemaPath[n - 1]!]) : fieldPath(schemaPath);
}

/**
 * MCP clients validate structuredContent against the tool's outputSchema and agents plan from it.
 * Any change is worth a look; the output-* rules judge each change, this rule reports the tool once.
 */
export const rule: Rule = {
  id: "mcp-output-schema-changed",
  severity: "warning",
  category: "surface",
  description: "The output schema an exposed MCP tool declares changed (one finding per tool).",
  hint: "Refresh cached tool catalogues and check that clients validating structured output accept the new schema.",
  check: (ctx) => {
    const byOperation = new Map<string, ReturnType<typeof ctx.find>>();
    for (const m of ctx.find(["operations", "*", "output", "**"])) {
      if (!ctx.old.operation(m.operation!)?.mcp.exposed || !ctx.new_.operation(m.operation!)?.mcp.exposed) continue;
      byOperation.set(m.operation!, [...(byOperation.get(m.operation!) ?? []), m]);
    }
    return [...byOperation].map(([id, matches]) => {
      const fields = [...new Set(matches.map((m) => field(m.change.path.slice(3))))];
      const first = matches[0]!.change.path;
      return {
        operation: id,
        message: `The MCP output schema of ${q(id)} changed at ${fields.map(q).join(", ")}.`,
        before: existing(ctx.old, first),
        after: existing(ctx.new_, first),
      };
    });
  },
};
