import { q, type Rule } from "../rule.js";
import { bodyTokens, canonicalOf, cutLine, lineChange, skillInputsChanged, skillText } from "./_skill.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The body is what an agent reads once it has chosen the skill: how to run the CLI, the contract's
 * rules, the commands. Compared as emitted text: strings first; only if they differ, in canonical order (a
 * reordered document is no change), then lines and tokens. The message stays bounded on a large
 * contract: line counts and one quoted line, not the whole difference.
 */
export const rule: Rule = {
  id: "skill-body-changed",
  severity: "info",
  category: "surface",
  description:
    "The generated Agent Skill's body (SKILL.md after its front matter: running the CLI, the contract's rules, the command index) changed; a new version alone does not change it.",
  hint: "Nothing to do for callers; regenerate the package so agents read the new instructions.",
  check: (ctx) => {
    if (!skillInputsChanged(ctx)) return [];
    if (skillText(ctx.old.model).body() === skillText(ctx.new_.model).body()) return [];
    const before = skillText(canonicalOf(ctx.old.model)).body();
    const after = skillText(canonicalOf(ctx.new_.model)).body();
    if (before === after) return [];
    const { added, removed, first } = lineChange(before, after);
    const lines = added === 0 && removed === 0 ? "its lines were reordered" : `${plural(added, "line")} added and ${removed} removed`;
    const where = first === null ? "" : `, first ${first.side} ${q(cutLine(first.line))}`;
    return [
      {
        operation: null,
        message: `The skill's body changed (${lines}${where}): ${bodyTokens(ctx.old.model)} → ${bodyTokens(ctx.new_.model)} tokens.`,
        before: [],
        after: [],
      },
    ];
  },
};
