import { type Rule } from "../rule.js";
import { deprecatedInputRemovals, propertySubject, reach } from "./_schema.js";

/**
 * Callers were told to stop sending the field (deprecated, and its sunset reached if it had one):
 * removing it is the announced end, as OpenAPI diff tools judge a deprecated parameter's removal.
 */
export const rule: Rule = {
  id: "input-property-removed-after-deprecation",
  severity: "info",
  category: "input",
  description: "An input property the old contract deprecated was removed, with no sunset date or on or after it (a parameter's deprecated or x-sunset, a property's deprecated or x-sunset).",
  hint: "Make sure callers no longer send the field; those that still do are rejected or ignored.",
  check: (ctx) =>
    deprecatedInputRemovals(ctx)
      .filter((r) => !r.beforeSunset)
      .map(({ m, name, path, sunset }) => ({
        ...reach(m),
        message: `${propertySubject(m, name)} was removed after its deprecation${sunset !== null ? ` (sunset ${sunset})` : ""}.`,
        before: path,
        after: m.schema,
      })),
};
