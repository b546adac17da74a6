import { type Rule } from "../rule.js";
import { showTypes, typeChanges } from "./_input-types.js";
import { reach, subject } from "./_schema.js";

/**
 * A type swap (string → integer) rejects every value callers send today. Pure narrowing has its own
 * rule; pure widening (integer → number) accepts everything it did before and is not reported.
 */
export const rule: Rule = {
  id: "input-property-type-changed",
  severity: "breaking",
  category: "input",
  description: "The JSON type of an input field changed to one that does not accept all the old values.",
  hint: "Convert the values you send to the new type; values of the old type are now rejected.",
  check: (ctx) =>
    typeChanges(ctx)
      .filter((f) => f.change === "changed")
      .map(({ m, before, after }) => ({
        ...reach(m),
        message: `${subject(m)} changed type from ${showTypes(before)} to ${showTypes(after)}.`,
        before: [...m.schema, "type"],
        after: [...m.schema, "type"],
      })),
};
