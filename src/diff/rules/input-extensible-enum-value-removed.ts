import { q, type Rule } from "../rule.js";
import { findInSchema, mention, reach } from "./_schema.js";

/** Callers were told they may send each listed value: one taken out of an input's known values may now be refused. */
export const rule: Rule = {
  id: "input-extensible-enum-value-removed",
  severity: "breaking",
  category: "input",
  description: "A value was removed from the known values (x-extensible-enum) of an input field.",
  hint: "Stop sending the dropped value; use one the field still lists.",
  check: (ctx) =>
    findInSchema(ctx, "input", ["x-extensible-enum", "*"], ["removed"]).map((m) => ({
      ...reach(m),
      message: `Value ${q(m.change.path.at(-1))} was removed from the known values (x-extensible-enum) of ${mention(m)}.`,
      before: m.change.path,
      after: [...m.schema, "x-extensible-enum"],
    })),
};
