import type { Rule } from "../rule.js";
import { keywordFindings } from "./_keywords.js";

/** The counterpart of input-constraint-tightened: every call that was valid stays valid. */
export const rule: Rule = {
  id: "input-constraint-loosened",
  severity: "info",
  category: "input",
  description: "An input schema now accepts more values through a keyword no dedicated input rule covers (the counterpart of input-constraint-tightened: a keyword removed or relaxed, an anyOf/oneOf member added, an allOf member removed, a format removed, null allowed).",
  hint: "Nothing to do; callers may now send values that used to be rejected.",
  check: (ctx) => keywordFindings(ctx, "input", ["widened"]),
};
