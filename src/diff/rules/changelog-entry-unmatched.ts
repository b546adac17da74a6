import { hasPointer } from "../../contract/source.js";
import { q, type Rule } from "../rule.js";
import { newVersionEntry, overlaps } from "./_changelog.js";

/** A changelog change that points at a node the diff saw no change under: possibly stale text. */
export const rule: Rule = {
  id: "changelog-entry-unmatched",
  severity: "info",
  category: "version",
  phase: "policy",
  description: "A changelog change of the new version matches no change between the two contracts.",
  hint: "Check the changelog entry: point its target at what changed, or remove it.",
  check: (ctx) => {
    const { index, entry } = newVersionEntry(ctx);
    if (!entry || ctx.old.model.version === ctx.new_.model.version) return [];
    const changed = [...ctx.allFindings().flatMap((f) => [f.new?.pointer, f.old?.pointer])].filter((p): p is string => typeof p === "string");
    return entry.changes
      .map((c, j) => ({ ...c, j }))
      .filter((c) => !changed.some((p) => overlaps(p, c.target)))
      .filter((c) => ctx.new_.source === undefined || hasPointer(ctx.new_.source.value, c.target) || c.kind === "removed")
      .map((c) => ({
        operation: /^\/operations\/([^/]+)/.exec(c.target)?.[1]?.replace(/~1/g, "/").replace(/~0/g, "~") ?? null,
        message: `Changelog change ${q(c.kind)} at ${q(c.target)} matches no change between ${q(ctx.old.model.version)} and ${q(ctx.new_.model.version)}.`,
        after: ["changelog", String(index), "changes", String(c.j)],
      }));
  },
};
