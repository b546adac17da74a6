import type { DiffContext } from "../rule.js";
import { COMBINATOR_KEYWORDS, isMembers } from "../tree.js";
import { findInSchema, type SchemaMatch, type SchemaRoot } from "./_schema.js";

/*
 * Schemas wrapped in a new allOf/anyOf/oneOf (not a rule: files starting with "_" are not
 * registered). The structural walk records a wrap as one change at the combinator whose `before`
 * is the old schema itself and whose `after` is the members (structural.ts, wrapping).
 */

export function schemaWraps(ctx: DiffContext, root: SchemaRoot): Array<{ m: SchemaMatch; keyword: string; count: number }> {
  return COMBINATOR_KEYWORDS.flatMap((keyword) =>
    findInSchema(ctx, root, [keyword], ["modified"])
      .filter((m) => isMembers(m.change.after) && !isMembers(m.change.before))
      .map((m) => ({ m, keyword, count: Object.keys(m.change.after as object).length })),
  );
}
