import { q, type Rule } from "../rule.js";
import { memberAt } from "./_members.js";

/**
 * A filter that stays a filter gained or lost its stated meaning: the platform's behaviour is the
 * same, only what the contract says about it (and what its suite can check) changed.
 */
export const rule: Rule = {
  id: "filter-meaning-declared",
  severity: "info",
  category: "projection",
  description: "A filter started or stopped saying what it means (the record property it tests and how).",
  hint: "Nothing to do; a declared meaning is shown in descriptions and checked by the contract suite.",
  check: (ctx) => {
    const filtersOf = (side: typeof ctx.old, operation: string): ReadonlySet<string> => new Set(side.operation(operation)?.filters.map((f) => f.field) ?? []);
    return ctx
      .find(["operations", "*", "filterMeanings", "*"], ["added", "removed"])
      .filter((m) => {
        // A filter added or removed with its meaning is filter-added / filter-removed's finding.
        const field = m.change.path[3]!;
        return filtersOf(ctx.old, m.operation!).has(field) && filtersOf(ctx.new_, m.operation!).has(field);
      })
      .map((m) => {
        const operation = m.operation!;
        const field = m.change.path[3]!;
        const declared = m.change.kind === "added";
        return {
          operation,
          message: declared ? `Filter ${q(field)} of ${q(operation)} now says what it means.` : `Filter ${q(field)} of ${q(operation)} no longer says what it means.`,
          // The side without a meaning has the plain name in the list.
          before: declared ? memberAt(ctx.old, operation, ["filters"], field) : ["operations", operation, "filterMeanings", field],
          after: declared ? ["operations", operation, "filterMeanings", field] : memberAt(ctx.new_, operation, ["filters"], field),
        };
      });
  },
};
