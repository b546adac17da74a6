import { q, type Rule } from "../rule.js";

/** The effects field each annotation is derived from (docs/contract-format.md, effects). */
const SOURCE: Record<string, string> = { readOnlyHint: "kind", destructiveHint: "destructive", idempotentHint: "idempotent", openWorldHint: "openWorld" };

/** MCP clients decide from the annotations whether to ask the user, auto-approve or retry a tool. */
export const rule: Rule = {
  id: "mcp-annotation-changed",
  severity: "breaking",
  category: "surface",
  // The annotations are derived from effects: an effect change is the edit, the annotation follows.
  consequenceOf: ["effect"],
  description: "A derived MCP tool annotation (readOnlyHint, destructiveHint, idempotentHint or openWorldHint) of an exposed operation changed.",
  hint: "Review client approval and retry policies for the tool; they key on its annotations.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "annotations", "*"], ["modified"])
      .filter((m) => ctx.old.operation(m.operation!)?.mcp.exposed && ctx.new_.operation(m.operation!)?.mcp.exposed)
      .map((m) => {
        const annotation = m.change.path.at(-1)!;
        // Point at the effects field the annotation is derived from (the effects block when it is defaulted).
        const source = ["operations", m.operation!, "effects", SOURCE[annotation] ?? annotation];
        return {
          operation: m.operation,
          message: `MCP annotation ${q(annotation)} of ${q(m.operation)} changed from ${m.change.before} to ${m.change.after}.`,
          before: source,
          after: source,
        };
      }),
};
