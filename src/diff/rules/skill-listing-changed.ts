import { type Rule } from "../rule.js";
import { canonicalOf, listingTokens, skillInputsChanged, type SkillText, skillText } from "./_skill.js";

/**
 * The listing is what an agent keeps in context for every skill it might use, and all it reads
 * before choosing one: a change there changes when agents pick the skill. Compared as emitted text:
 * strings first, then, only if they differ, in canonical order (a reordered document is no change),
 * and tokens are counted only for a finding.
 */
export const rule: Rule = {
  id: "skill-listing-changed",
  severity: "info",
  category: "surface",
  description:
    "The generated Agent Skill's listing (its front matter's name or description, what an agent reads before choosing the skill) changed; a new version alone does not change it.",
  hint: "Nothing to do for callers; regenerate the package so agents see the new listing, and check they still choose the skill for the tasks it serves.",
  check: (ctx) => {
    if (!skillInputsChanged(ctx)) return [];
    const differs = (before: SkillText, after: SkillText) =>
      [before.name !== after.name ? "name" : "", before.description !== after.description ? "description" : ""].filter(Boolean);
    if (differs(skillText(ctx.old.model), skillText(ctx.new_.model)).length === 0) return [];
    const changed = differs(skillText(canonicalOf(ctx.old.model)), skillText(canonicalOf(ctx.new_.model)));
    if (changed.length === 0) return [];
    // Located at the contract field the listing quotes when that field changed, else at the contract itself.
    const field = (["description", "title"] as const).find((key) => ctx.find([key]).length > 0);
    const path = field === undefined ? [] : [field];
    return [
      {
        operation: null,
        message: `The skill's listing changed its ${changed.join(" and ")}: ${listingTokens(ctx.old.model)} → ${listingTokens(ctx.new_.model)} tokens.`,
        before: path,
        after: path,
      },
    ];
  },
};
