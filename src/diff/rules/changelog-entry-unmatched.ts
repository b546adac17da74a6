import { hasPointer } from "../../spec/source.js";
import { q, type Rule } from "../rule.js";

/** A changelog change that points at a node the diff saw no change under: possibly stale text. */
export const rule: Rule = {
  id: "changelog-entry-unmatched",
  severity: "info",
  category: "version",
  phase: "policy",
  description: "A changelog change of the new version matches no change between the two contracts.",
  hint: "Check the changelog entry: point its target at what changed, or remove it.",
  check: (ctx) => {
    const index = ctx.new_.model.changelog.findIndex((e) => e.version === ctx.new_.model.version);
    const entry = ctx.new_.model.changelog[index];
    if (!entry || ctx.old.model.version === ctx.new_.model.version) return [];
    const changed = [...ctx.findings.flatMap((f) => [f.new?.pointer, f.old?.pointer])].filter((p): p is string => typeof p === "string");
    return entry.changes
      .map((c, j) => ({ ...c, j }))
      .filter((c) => !changed.some((p) => p === c.target || p.startsWith(`${c.target}/`) || c.target.startsWith(`${p}/`)))
      .filter((c) => ctx.new_.source === undefined || hasPointer(ctx.new_.source.value, c.target) || c.kind === "removed")
      .map((c) => ({
        operation: /^\/operations\/([^/]+)/.exec(c.target)?.[1]?.replace(/~1/g, "/").replace(/~0/g, "~") ?? null,
        message: `Changelog change ${q(c.kind)} at ${q(c.target)} matches no change between ${q(ctx.old.model.version)} and ${q(ctx.new_.model.version)}.`,
        after: ["changelog", String(index), "changes", String(c.j)],
      }));
  },
};
