import { q, type Rule } from "../rule.js";

/** A type no operation reaches on either side changes nothing a caller sends or receives. */
export const rule: Rule = {
  id: "unused-type-changed",
  severity: "info",
  category: "type",
  description: "A shared type that no operation uses (on either side) changed.",
  hint: "Nothing to do; no operation sends or returns the type.",
  check: (ctx) => {
    const used = (name: string) => [ctx.old, ctx.new_].some((side) => side.reachLabels(name).length > 0);
    const seen = new Set<string>();
    return ctx.find(["types", "*", "*", "**"]).flatMap((m) => {
      const name = m.captures[0]![0]!;
      if (seen.has(name) || used(name)) return [];
      seen.add(name);
      return [{ operation: null, message: `Shared type ${q(name)}, which no operation uses, changed.`, before: ["types", name], after: ["types", name], subtree: true }];
    });
  },
};
