import { q, type Rule } from "../rule.js";

/** The words of each part of a filter's meaning, for the message. */
const PARTS: ReadonlyMap<string, string> = new Map([
  ["property", "property"],
  ["match", "match"],
  ["bound", "bound"],
  ["fromInclusive", "from-inclusive"],
  ["toInclusive", "to-inclusive"],
]);

/**
 * The same value now selects other records (another property, another way to match, another end of
 * the window, an end that now includes or excludes its value): a caller's results change silently.
 */
export const rule: Rule = {
  id: "filter-meaning-changed",
  severity: "breaking",
  category: "projection",
  description: "What a filter tests changed: the record property, the match, the bound, or whether a range end includes its value.",
  hint: "Check every call that sends the filter: the same value now selects other records.",
  check: (ctx) => {
    // One finding per filter, naming every part that changed.
    const byFilter = new Map<string, { operation: string; field: string; parts: string[] }>();
    for (const m of ctx.find(["operations", "*", "filterMeanings", "*", "*"], ["modified"])) {
      const operation = m.operation!;
      const field = m.change.path[3]!;
      const part = PARTS.get(m.change.path[4]!) ?? m.change.path[4]!;
      const key = JSON.stringify([operation, field]);
      const entry = byFilter.get(key) ?? { operation, field, parts: [] };
      entry.parts.push(`${part} ${q(m.change.before)} → ${q(m.change.after)}`);
      byFilter.set(key, entry);
    }
    return [...byFilter.values()].map(({ operation, field, parts }) => ({
      operation,
      message: `The meaning of filter ${q(field)} of ${q(operation)} changed: ${parts.join(", ")}.`,
      before: ["operations", operation, "filterMeanings", field],
      after: ["operations", operation, "filterMeanings", field],
    }));
  },
};
