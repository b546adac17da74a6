import { q, type Rule } from "../rule.js";

/** The changelog belongs to the version policy (changelog-entry-missing, -unmatched); its edits are reported so that none is silent. */
export const rule: Rule = {
  id: "changelog-changed",
  severity: "info",
  category: "version",
  description: "A changelog entry was added, removed or edited.",
  hint: "Nothing to do; the changelog rules say whether the entries match the changes.",
  check: (ctx) =>
    ctx.find(["changelog", "*"]).map((m) => ({
      operation: null,
      message: `Changelog entry ${q(m.captures[0]![0])} was ${m.change.kind === "modified" ? "edited" : m.change.kind}.`,
      ...(m.change.kind !== "added" ? { before: m.change.path } : {}),
      ...(m.change.kind !== "removed" ? { after: m.change.path } : {}),
    })),
};
