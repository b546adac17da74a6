import type { DiffContext, DiffSide, RuleFinding } from "../rule.js";
import { bySchema, findInSchema, mention, reach, subject } from "./_schema.js";

/*
 * The input bound rules (not a rule: files starting with "_" are not registered): input-minimum-raised,
 * input-maximum-lowered, input-min-length-raised, input-max-length-lowered, input-min-items-raised and
 * input-max-items-lowered, and their looser counterparts (input-minimum-lowered, input-maximum-raised…).
 * A bound that became stricter rejects values callers send today; one that became looser accepts more,
 * which is compatible but still a change worth seeing.
 */

export interface BoundSpec {
  /** "min": stricter means higher; "max": stricter means lower. */
  readonly direction: "min" | "max";
  /** The inclusive keyword, and the exclusive one where JSON Schema has it. */
  readonly keyword: string;
  readonly exclusiveKeyword?: string;
  /** The bound in force when the keyword is absent (minLength/minItems: 0); none when undefined. */
  readonly implicit?: number;
  /** "minimum", "maximum length", … */
  readonly label: string;
}

export interface Bound {
  readonly value: number;
  readonly exclusive: boolean;
  /** The keyword that sets it, or null for the implicit bound. */
  readonly keyword: string | null;
}

export function bound(side: DiffSide, schema: readonly string[], spec: BoundSpec): Bound | undefined {
  const found: Bound[] = [];
  const inclusive = side.get([...schema, spec.keyword]);
  if (typeof inclusive === "number") found.push({ value: inclusive, exclusive: false, keyword: spec.keyword });
  const exclusive = spec.exclusiveKeyword ? side.get([...schema, spec.exclusiveKeyword]) : undefined;
  if (typeof exclusive === "number") found.push({ value: exclusive, exclusive: true, keyword: spec.exclusiveKeyword! });
  if (found.length === 0) return spec.implicit === undefined ? undefined : { value: spec.implicit, exclusive: false, keyword: null };
  return found.reduce((a, b) => (stricter(b, a, spec) ? b : a));
}

/** Whether `a` rejects values that `b` accepts. */
export function stricter(a: Bound | undefined, b: Bound | undefined, spec: BoundSpec): boolean {
  if (a === undefined) return false;
  if (b === undefined) return true;
  if (a.value !== b.value) return spec.direction === "min" ? a.value > b.value : a.value < b.value;
  return a.exclusive && !b.exclusive;
}

export const showBound = (b: Bound) => `${b.value}${b.exclusive ? " (exclusive)" : ""}`;

/**
 * The check of one bound rule: every input schema node whose bound became stricter (or appeared), or,
 * with `looser`, became looser (or disappeared). One walk serves both: only the comparison's order and
 * the wording differ.
 */
function boundChange(spec: BoundSpec, looser: boolean): (ctx: DiffContext) => RuleFinding[] {
  const verb = (spec.direction === "min") !== looser ? "raised" : "lowered";
  const keywords = spec.exclusiveKeyword ? [spec.keyword, spec.exclusiveKeyword] : [spec.keyword];
  return (ctx) =>
    bySchema(keywords.flatMap((k) => findInSchema(ctx, "input", [k])))
      .filter((m) => ctx.old.get(m.schema) !== undefined && ctx.new_.get(m.schema) !== undefined)
      .flatMap((m) => {
        const before = bound(ctx.old, m.schema, spec);
        const after = bound(ctx.new_, m.schema, spec);
        if (!(looser ? stricter(before, after, spec) : stricter(after, before, spec))) return [];
        // The side that has the bound in force ("gained" when stricter, "lost" when looser).
        const kept = (looser ? before : after)!;
        const other = looser ? after : before;
        const explicit = other !== undefined && (looser ? other.keyword !== null : true);
        return [
          {
            ...reach(m),
            message: explicit
              ? `The ${spec.label} of ${mention(m)} was ${verb} from ${showBound(before!)} to ${showBound(after!)}.`
              : looser
                ? `${subject(m)} lost its ${spec.label} of ${showBound(kept)}.`
                : `${subject(m)} gained a ${spec.label} of ${showBound(kept)}.`,
            before: before?.keyword ? [...m.schema, before.keyword] : m.schema,
            after: after?.keyword ? [...m.schema, after.keyword] : m.schema,
          },
        ];
      });
}

/** The check of one bound rule: every input schema node whose bound became stricter, or that gained one. */
export const boundCheck = (spec: BoundSpec) => boundChange(spec, false);

/** The check of one loosened-bound rule: every input schema node whose bound became looser, or that lost it. */
export const loosenedCheck = (spec: BoundSpec) => boundChange(spec, true);
