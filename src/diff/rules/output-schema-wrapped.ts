import type { Rule } from "../rule.js";
import { reach, subject } from "./_schema.js";
import { schemaWraps } from "./_wraps.js";

/**
 * An output schema that became one member of a new allOf/anyOf/oneOf, reported as the wrap, once:
 * the members added beside it are judged one by one by the keyword rules (an anyOf/oneOf member
 * is one more alternative, an allOf member one more constraint), not as the old schema's content
 * removed.
 */
export const rule: Rule = {
  id: "output-schema-wrapped",
  severity: "info",
  category: "output",
  description: "An output schema became one member of a new allOf, anyOf or oneOf; the members added beside it are judged by the keyword rules.",
  hint: "Nothing to do for the wrap itself; see the findings about the members added beside it.",
  check: (ctx) =>
    schemaWraps(ctx, "output").map(({ m, keyword, count }) => ({
      ...reach(m),
      message: count === 1 ? `${subject(m)} became the only member of a new ${keyword} (the same values as before).` : `${subject(m)} became one of the ${count} members of a new ${keyword}.`,
      before: m.schema,
      after: [...m.schema, keyword],
    })),
};
