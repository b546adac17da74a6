import { type Rule } from "../rule.js";
import { releaseOf } from "./_pairs.js";
import { deprecatedInputRemovals, propertySubject, reach } from "./_schema.js";

/** Callers were promised the field until its sunset date: they planned their migration by it. */
export const rule: Rule = {
  id: "input-property-removed-before-sunset",
  severity: "breaking",
  category: "input",
  description: "A deprecated input property was removed before its sunset date (judged by the new contract's newest changelog date; for an OpenAPI document, by the date the diff runs).",
  hint: "Keep accepting the field until its sunset date; callers were promised it until then.",
  check: (ctx) => {
    const release = releaseOf(ctx);
    return deprecatedInputRemovals(ctx)
      .filter((r) => r.beforeSunset)
      .map(({ m, name, path, sunset }) => ({
        ...reach(m),
        message: `${propertySubject(m, name)} was removed in ${release.words}, before its sunset date ${sunset}.`,
        before: path,
        after: m.schema,
      }));
  },
};
