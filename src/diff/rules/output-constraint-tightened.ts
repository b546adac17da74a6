import type { Rule } from "../rule.js";
import { keywordFindings } from "./_keywords.js";

/** Every value the new schema allows, the old one allowed: consumers see nothing new. */
export const rule: Rule = {
  id: "output-constraint-tightened",
  severity: "info",
  category: "output",
  description: "An output schema now promises narrower values through a keyword no dedicated output rule covers (a bound, constant, pattern, enum, member or subschema added; null no longer returned; a write-only property now returned).",
  hint: "Nothing to do; consumers may rely on the narrower promise from this version on.",
  check: (ctx) => keywordFindings(ctx, "output", ["narrowed"]),
};
