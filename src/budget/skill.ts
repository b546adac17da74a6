/**
 * The generated Agent Skill's three token costs (o200k_base, the catalogue's tokenizer): the listing
 * (the front matter's `name` and `description`, what sits in an agent's context before the skill is
 * chosen), the body (SKILL.md without its front matter, read when it is chosen) and each reference
 * file (read only when a task needs it), against the contract's `budget.skill` ceilings.
 */
import { emitSkill, skillBody, skillDescription, skillListingText, skillName } from "../emit/skill/skill.js";
import type { ContractModel, SkillBudgetModel } from "../model/types.js";
import { countTokens, countTokensCl100k } from "./catalog.js";

export interface SkillPartCost {
  readonly o200k_base: number;
  readonly cl100k_base: number;
}

export interface SkillCost {
  /** The skill's name (its folder under `skill/`). */
  readonly name: string;
  readonly listing: SkillPartCost;
  readonly body: SkillPartCost;
  /** `references/<group>.md` and its cost, in the skill's group order. */
  readonly references: ReadonlyArray<{ readonly path: string } & SkillPartCost>;
}

/** One part over its `budget.skill` ceiling. */
export interface SkillOverrun {
  /** The ceiling's key under `budget.skill`. */
  readonly key: keyof SkillBudgetModel;
  /** `listing`, `body` or the reference's path (`references/<group>.md`). */
  readonly part: string;
  readonly tokens: number;
  readonly limit: number;
}

function cost(text: string): SkillPartCost {
  return { o200k_base: countTokens(text), cl100k_base: countTokensCl100k(text) };
}

/** The skill's texts the budget measures: the listing (its `name` and `description`, and both as one text) and the body, rendered on first use. */
export interface SkillTexts {
  readonly name: string;
  readonly description: string;
  readonly listing: string;
  body(): string;
}

/** The skill's listing and body as `generate` writes them (for the diff, which reads emitters only through the budget). */
export function skillTexts(model: ContractModel): SkillTexts {
  let body: string | undefined;
  // SKILL.md's body as the file holds it: no leading blank lines, one final newline.
  return { name: skillName(model), description: skillDescription(model), listing: skillListingText(model), body: () => (body ??= `${skillBody(model).trimEnd()}\n`.replace(/^\n+/, "")) };
}

/** A SKILL.md split into its front matter (between the `---` lines) and its body (the rest, leading blank lines dropped). */
export function splitSkillFile(text: string): { frontMatter: string; body: string } {
  const end = text.startsWith("---\n") ? text.indexOf("\n---\n", 3) : -1;
  if (end < 0) return { frontMatter: "", body: text };
  return { frontMatter: text.slice(4, end + 1), body: text.slice(end + 5).replace(/^\n+/, "") };
}

// Models are immutable: a model's skill is measured once however many readers ask.
const costs = new WeakMap<ContractModel, SkillCost>();

/** The skill's listing, body and per-reference costs, measured on the files `generate` writes. */
export function skillTokens(model: ContractModel): SkillCost {
  let measured = costs.get(model);
  if (!measured) {
    const files = [...emitSkill(model)];
    const main = files.find(([path]) => /^skill\/[^/]+\/SKILL\.md$/.test(path));
    if (!main) throw new Error("The skill emitter wrote no SKILL.md.");
    const root = main[0].slice(0, -"SKILL.md".length);
    const { body } = splitSkillFile(main[1]);
    measured = {
      name: root.slice("skill/".length, -1),
      listing: cost(skillListingText(model)),
      body: cost(body),
      references: files.filter(([path]) => path !== main[0] && path.startsWith(root)).map(([path, text]) => ({ path: path.slice(root.length), ...cost(text) })),
    };
    costs.set(model, measured);
  }
  return measured;
}

/** Whether the contract caps any part of its skill. */
export function hasSkillBudget(model: ContractModel): boolean {
  const { listingTokens, bodyTokens, referenceTokens } = model.budget.skill;
  return listingTokens !== null || bodyTokens !== null || referenceTokens !== null;
}

/** The parts over their ceilings, listing first, then body, then each reference in order. */
export function skillOverruns(model: ContractModel, measured: SkillCost = skillTokens(model)): SkillOverrun[] {
  const caps = model.budget.skill;
  const out: SkillOverrun[] = [];
  if (caps.listingTokens !== null && measured.listing.o200k_base > caps.listingTokens) {
    out.push({ key: "listingTokens", part: "listing", tokens: measured.listing.o200k_base, limit: caps.listingTokens });
  }
  if (caps.bodyTokens !== null && measured.body.o200k_base > caps.bodyTokens) {
    out.push({ key: "bodyTokens", part: "body", tokens: measured.body.o200k_base, limit: caps.bodyTokens });
  }
  if (caps.referenceTokens !== null) {
    for (const r of measured.references) {
      if (r.o200k_base > caps.referenceTokens) out.push({ key: "referenceTokens", part: r.path, tokens: r.o200k_base, limit: caps.referenceTokens });
    }
  }
  return out;
}
