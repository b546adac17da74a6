import { q, type Rule } from "../rule.js";
import type { Change } from "../structural.js";
import { ANNOTATIONS, keywordFindings, truthChanged } from "./_keywords.js";
import { findInSchema, mention, reach, type SchemaMatch, type SchemaRoot } from "./_schema.js";

/** Judged in that position by other rules: an input default always; readOnly in input, writeOnly in output and uniqueItems when their truth changed. */
const JUDGED: Readonly<Record<SchemaRoot, ReadonlySet<string>>> = { input: new Set(["default"]), output: new Set() };
const FLAGS_JUDGED: Readonly<Record<SchemaRoot, ReadonlySet<string>>> = { input: new Set(["readOnly", "uniqueItems"]), output: new Set(["writeOnly", "uniqueItems"]) };

/** Titles, descriptions, examples: what readers and generated documentation see, not what is valid. */
export const rule: Rule = {
  id: "schema-annotation-changed",
  severity: "info",
  category: "output",
  description: "A schema annotation changed: title, description, examples, deprecated, an output default, readOnly in an output or writeOnly in an input, or a flag set to false where it was absent (or the reverse), or a `true` subschema written or taken out.",
  hint: "Nothing to do; regenerate adapters to carry the new documentation.",
  check: (ctx) => {
    const seen = new Set<Change>();
    const out: SchemaMatch[] = [];
    for (const root of ["input", "output"] as const) {
      for (const keyword of ANNOTATIONS) {
        if (JUDGED[root].has(keyword)) continue;
        for (const m of findInSchema(ctx, root, [keyword])) {
          if (seen.has(m.change) || (FLAGS_JUDGED[root].has(keyword) && truthChanged(m.change.before, m.change.after))) continue;
          seen.add(m.change);
          out.push(m);
        }
      }
    }
    const explicit = (["input", "output"] as const).flatMap((root) => keywordFindings(ctx, root, ["none"]));
    return [...explicit.filter((f, i) => explicit.findIndex((g) => g.message === f.message) === i), ...out.map((m) => {
      const keyword = m.rest[0]!;
      const verb = m.change.kind === "added" ? "added to" : m.change.kind === "removed" ? "removed from" : "changed on";
      return { ...reach(m), message: `Annotation ${q(keyword)} was ${verb} ${mention(m)}.`, before: m.change.kind === "added" ? m.schema : m.change.path, after: m.change.kind === "removed" ? m.schema : m.change.path };
    })];
  },
};
