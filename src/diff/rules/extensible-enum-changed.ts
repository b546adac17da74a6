import { q, type Rule } from "../rule.js";
import { findInSchema, mention, reach } from "./_schema.js";

/**
 * An extensible enum lists the values a field is known to take and tells consumers to expect others:
 * a value added to an output is what they were told to handle, unlike a closed enum's
 * (output-enum-value-added). Everything but an input value removed (input-extensible-enum-value-removed)
 * is compatible.
 */
export const rule: Rule = {
  id: "extensible-enum-changed",
  severity: "info",
  category: "output",
  description: "The known values (x-extensible-enum) of a field changed compatibly: a value added, an output value removed, or the list given or dropped.",
  hint: "Nothing to do; consumers of an extensible enum already handle values it does not list.",
  check: (ctx) =>
    (["input", "output"] as const).flatMap((root) => [
      ...findInSchema(ctx, root, ["x-extensible-enum", "*"], root === "input" ? ["added"] : ["added", "removed"]).map((m) => ({
        ...reach(m),
        message: `Value ${q(m.change.path.at(-1))} was ${m.change.kind === "added" ? "added to" : "removed from"} the known values (x-extensible-enum) of ${mention(m)}.`,
        before: m.change.kind === "removed" ? m.change.path : [...m.schema, "x-extensible-enum"],
        after: m.change.kind === "added" ? m.change.path : [...m.schema, "x-extensible-enum"],
      })),
      ...findInSchema(ctx, root, ["x-extensible-enum"], ["added", "removed"]).map((m) => ({
        ...reach(m),
        message: `The known values (x-extensible-enum) of ${mention(m)} were ${m.change.kind === "added" ? "listed" : "dropped"}.`,
        before: m.change.kind === "removed" ? m.change.path : m.schema,
        after: m.change.kind === "added" ? m.change.path : m.schema,
      })),
    ]),
};
