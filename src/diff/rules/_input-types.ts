import { type DiffContext, type DiffSide, q } from "../rule.js";
import { bySchema, findInSchema, members, type SchemaMatch } from "./_schema.js";

/*
 * How the accepted JSON types of input schema nodes changed (not a rule: files starting with "_" are
 * not registered). Used by input-property-type-narrowed and input-property-type-changed. A type set
 * accepts a value when it lists its type, "number" covers "integer", and an empty set (no `type`)
 * accepts everything. `nullable` is compared separately (input-nullable-removed).
 */

export type TypeChange = "narrowed" | "widened" | "changed";

export interface TypeFinding {
  readonly m: SchemaMatch;
  readonly before: string[];
  readonly after: string[];
  readonly change: TypeChange;
}

export function types(side: DiffSide, schema: readonly string[]): string[] | undefined {
  const node = side.get(schema);
  if (node === null || typeof node !== "object") return undefined;
  if (node.type !== undefined) return members(node.type);
  return node.any === true ? [] : undefined;
}

const accepts = (set: readonly string[], t: string) => set.length === 0 || set.includes(t) || (t === "integer" && set.includes("number"));

/** Whether every value `a` accepts is accepted by `b`. */
export const within = (a: readonly string[], b: readonly string[]) => (a.length === 0 ? b.length === 0 : a.every((t) => accepts(b, t)));

/**
 * Whether an input node is sent as text on both sides (a path, query, header or cookie parameter, or
 * a field of a form body, or an item of one) and went from any value to a string: on the wire every
 * value a caller could send was text already, so declaring it a string refuses no request.
 */
export function textTypeDeclared(ctx: DiffContext, m: SchemaMatch, before: readonly string[], after: readonly string[]): boolean {
  if (before.length !== 0 || after.length !== 1 || after[0] !== "string" || m.shared !== null || m.schema[0] !== "operations" || m.schema[3] !== "properties") return false;
  // Only the field itself or its array items: deeper nodes are structure a form or query encodes in its own way.
  const below = m.schema.slice(5);
  if (!(below.length === 0 || (below.length === 1 && below[0] === "items"))) return false;
  const field = m.schema[4]!;
  return [ctx.old, ctx.new_].every((side) => {
    const op = side.operation(m.schema[1]!);
    const binding = op?.http.bindings.find((b) => b.field === field);
    if (binding === undefined) return false;
    return binding.in !== "body" || op!.http.contentType !== "application/json";
  });
}

/** Every input schema node present on both sides whose accepted types differ, and how. */
export function typeChanges(ctx: DiffContext): TypeFinding[] {
  return bySchema([...findInSchema(ctx, "input", ["type", "*"]), ...findInSchema(ctx, "input", ["type"])]).flatMap((m) => {
    const before = types(ctx.old, m.schema);
    const after = types(ctx.new_, m.schema);
    if (!before || !after || textTypeDeclared(ctx, m, before, after)) return [];
    const narrower = within(after, before);
    const wider = within(before, after);
    if (narrower && wider) return [];
    return [{ m, before, after, change: narrower ? "narrowed" : wider ? "widened" : "changed" } as TypeFinding];
  });
}

/** A type set for a message: "string | integer", or "any". */
export const showTypes = (set: readonly string[]) => q(set.length === 0 ? "any" : set.join(" | "));
