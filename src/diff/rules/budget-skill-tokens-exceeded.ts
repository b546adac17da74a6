import { hasSkillBudget, skillOverruns } from "../../budget/skill.js";
import { q, type Rule } from "../rule.js";
import { partTokens, skillInputsChanged } from "./_skill.js";

/** How a message names a part: the listing, the body, or a reference file by its path in the skill. */
function partName(part: string): string {
  return part === "listing" || part === "body" ? `skill's ${part}` : `skill's reference ${q(part)}`;
}

/**
 * validate does not count tokens, so the diff is where a skill over its budget is caught, part by
 * part. Nothing is measured unless the new contract caps its skill. An excess the old side already
 * had, against a cap at least as strict, is not a change and is not reported when the part did not
 * grow since, or grew with nothing changed but the version or the document's order (no texts are
 * rendered to tell: the diff's changes say it).
 */
export const rule: Rule = {
  id: "budget-skill-tokens-exceeded",
  severity: "breaking",
  category: "budget",
  description: "A part of the new contract's generated Agent Skill (the listing, the body or a reference file) takes more tokens than its budget.skill cap.",
  hint: "Shorten the contract's title and description (the listing), group operations in fewer toolsets (the body) or split a large toolset (a reference); agents keep the listing in context and read the body and references whole.",
  check: (ctx) => {
    const model = ctx.new_.model;
    if (!hasSkillBudget(model)) return [];
    const old = ctx.old.model;
    const caps = model.budget.skill;
    const oldCaps = old.budget.skill;
    // Nothing the skill shows changed and no cap is stricter than before: an excess now was one before, not news. Nothing is measured.
    const noStricterCap = (["listingTokens", "bodyTokens", "referenceTokens"] as const).every((key) => caps[key] === null || (oldCaps[key] !== null && oldCaps[key] <= caps[key]));
    if (noStricterCap && !skillInputsChanged(ctx)) return [];
    // The old side is measured only when the new one is over a cap: the message says what it took.
    return skillOverruns(model).flatMap(({ key, part, tokens, limit }) => {
      const was = partTokens(old, part);
      const oldLimit = oldCaps[key];
      const excused = was !== undefined && oldLimit !== null && oldLimit <= limit && was > oldLimit && (tokens <= was || !skillInputsChanged(ctx));
      if (excused) return [];
      const since = was === undefined ? "a new reference file" : `was ${was}`;
      return [
        {
          operation: null,
          message: `The ${partName(part)} exceeded budget.skill.${key} of ${limit}: it takes ${tokens} tokens (${since}).`,
          after: ["budget", "skill", key],
        },
      ];
    });
  },
};
