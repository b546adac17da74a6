import { type DiffContext, type DiffSide, q, type Rule } from "../rule.js";
import { bySchema, findInput, type InputMatch, members, subject } from "./input-property-removed.js";

/*
 * Shared with input-property-type-changed: how the accepted JSON types of one input schema node
 * changed. A type set accepts a value when it lists its type, "number" covers "integer", and an
 * empty set (no `type`) accepts everything. `nullable` is compared separately (input-nullable-removed).
 */

export type TypeChange = "narrowed" | "widened" | "changed";

export interface TypeFinding {
  readonly m: InputMatch;
  readonly before: string[];
  readonly after: string[];
  readonly change: TypeChange;
}

function types(side: DiffSide, schema: readonly string[]): string[] | undefined {
  const node = side.get(schema);
  if (node === null || typeof node !== "object") return undefined;
  if (node.type !== undefined) return members(node.type);
  return node.any === true ? [] : undefined;
}

const accepts = (set: readonly string[], t: string) => set.length === 0 || set.includes(t) || (t === "integer" && set.includes("number"));

/** Whether every value `a` accepts is accepted by `b`. */
const within = (a: readonly string[], b: readonly string[]) => (a.length === 0 ? b.length === 0 : a.every((t) => accepts(b, t)));

export function typeChanges(ctx: DiffContext): TypeFinding[] {
  return bySchema([...findInput(ctx, ["type", "*"]), ...findInput(ctx, ["type"])]).flatMap((m) => {
    const before = types(ctx.old, m.schema);
    const after = types(ctx.new_, m.schema);
    if (!before || !after) return [];
    const narrower = within(after, before);
    const wider = within(before, after);
    if (narrower && wider) return [];
    return [{ m, before, after, change: narrower ? "narrowed" : wider ? "widened" : "changed" } as TypeFinding];
  });
}

export const showTypes = (set: readonly string[]) => q(set.length === 0 ? "any" : set.join(" | "));

export const rule: Rule = {
  id: "input-property-type-narrowed",
  severity: "breaking",
  category: "input",
  description: "An input field accepts fewer JSON types than before (e.g. number → integer, or string | integer → string).",
  hint: "Send only the types the field still accepts; values of the dropped types are now rejected.",
  check: (ctx) =>
    typeChanges(ctx)
      .filter((f) => f.change === "narrowed")
      .map(({ m, before, after }) => ({
        operation: m.operation,
        message: `${subject(m)} was narrowed from type ${showTypes(before)} to ${showTypes(after)}.`,
        before: [...m.schema, "type"],
        after: [...m.schema, "type"],
      })),
};
