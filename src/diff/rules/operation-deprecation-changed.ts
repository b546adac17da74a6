import { q, type Rule } from "../rule.js";

/**
 * What a deprecation says besides its sunset moving earlier (operation-sunset-moved-earlier): the
 * version that deprecated it, the replacement, a sunset given, moved later or dropped. Callers get as
 * long or longer; an OpenAPI document, which cannot say `since`, restates it with every version.
 */
export const rule: Rule = {
  id: "operation-deprecation-changed",
  severity: "info",
  category: "operation",
  description: "An operation's deprecation changed without shortening it: its since version, its replacement, or a sunset date given, moved later or dropped.",
  hint: "Nothing to do; move callers to the replacement before the sunset date, if there is one.",
  check: (ctx) =>
    ctx
      .find(["operations", "*", "deprecated", "*"], ["added", "removed", "modified"])
      .filter((m) => {
        const key = m.change.path[3];
        const [was, now] = [m.change.before, m.change.after];
        // Dates are YYYY-MM-DD, so text order is date order; an earlier one is operation-sunset-moved-earlier's.
        return key !== "sunset" || typeof was !== "string" || typeof now !== "string" || now >= was;
      })
      .map((m) => {
        const key = m.change.path[3]!;
        const was = m.change.before ?? null;
        const now = m.change.after ?? null;
        return {
          operation: m.operation,
          message: `The deprecation of ${q(m.operation)}: ${key} ${was === null ? `${q(String(now))} was given` : now === null ? `${q(String(was))} was dropped` : `changed from ${q(String(was))} to ${q(String(now))}`}.`,
          before: was === null ? ["operations", m.operation!, "deprecated"] : m.change.path,
          after: now === null ? ["operations", m.operation!, "deprecated"] : m.change.path,
        };
      }),
};
