import { type Finding, q, type Rule, type RuleFinding } from "../rule.js";

/** The per-place documentation rules whose findings are gathered per operation. */
const DOCUMENTATION = new Set(["schema-annotation-changed", "contract-annotation-changed"]);

/**
 * A new release often rewrites documentation everywhere (a docs URL, a product name): one finding per
 * operation, with each place under it, keeps the review readable without hiding any of them.
 */
export const rule: Rule = {
  id: "documentation-changed",
  severity: "info",
  category: "operation",
  phase: "group",
  description: "Documentation of one operation changed in several places (its description, MCP title, schema titles, descriptions, examples…): gathered into one finding on the operation, each place reported under it.",
  hint: "Nothing to do; regenerate adapters to carry the new documentation.",
  check: (ctx) => {
    const byOperation = new Map<string, Finding[]>();
    for (const f of ctx.findings) {
      const path = ctx.pathOf(f);
      if (!DOCUMENTATION.has(f.rule) || f.operation === null || !path || path[0] !== "operations") continue;
      byOperation.set(f.operation, [...(byOperation.get(f.operation) ?? []), f]);
    }
    return [...byOperation]
      .filter(([, covered]) => covered.length > 1)
      .map(([operation, covered]): RuleFinding => ({
        operation,
        message: `Documentation of ${q(operation)} changed in ${covered.length} places.`,
        before: ["operations", operation],
        after: ["operations", operation],
        covers: covered,
      }));
  },
};
