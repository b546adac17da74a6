import { q, type Rule } from "../rule.js";

/** The version itself: judged by the version policy (version-not-increased, version-major-bump-required); reported so that a bump is never silent. */
export const rule: Rule = {
  id: "version-changed",
  severity: "info",
  category: "version",
  description: "The contract's version changed.",
  hint: "Nothing to do; the version policy rules say whether the bump matches the changes.",
  check: (ctx) =>
    ctx.find(["version"], ["modified"]).map((m) => ({ operation: null, message: `The contract version changed from ${q(m.change.before)} to ${q(m.change.after)}.`, before: ["version"], after: ["version"] })),
};
