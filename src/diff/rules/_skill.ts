import { countTokens } from "../../budget/catalog.js";
import { type SkillTexts, skillTexts, skillTokens } from "../../budget/skill.js";
import type { ContractModel } from "../../model/types.js";
import type { DiffContext } from "../rule.js";

/*
 * The generated Agent Skill as the skill rules compare it (not a rule: files starting with "_" are
 * not registered). Rendering a body builds every operation's command spec and counting tokens is not
 * free, so each piece is built only when a rule asks for it and kept per model (models are
 * immutable): the listing and body rules share one rendering per side, and the budget rule reads the
 * budget module's measurement, which it keeps per model too.
 *
 * One thing changes the emitted text without changing what the contract says, and the rules see
 * through it: the order of what the diff holds to be sets (operations, errors, toolsets, credential
 * schemes: reordered in the document, they reorder the skill's lines). The version is not in the
 * listing or the body (only in the front matter's metadata), so a new version alone is no change.
 */

const byKey = <T>(items: readonly T[], key: (item: T) => string): T[] => [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

const canonicals = new WeakMap<ContractModel, ContractModel>();

/**
 * `model` with the lists the skill renders in document order, which the diff holds to be sets
 * (operations, errors, toolsets, credential schemes), sorted by name: its skill says what the
 * model's says, in an order the document does not choose. A shallow copy: cheap on a large contract.
 */
export function canonicalOf(model: ContractModel): ContractModel {
  let copy = canonicals.get(model);
  if (!copy) {
    const auth = model.transport.auth;
    copy = {
      ...model,
      operations: byKey(model.operations, (op) => op.names.id),
      errors: byKey(model.errors, (e) => e.code),
      toolsets: byKey(model.toolsets, (t) => t.name),
      transport: { ...model.transport, auth: { ...auth, schemes: byKey(auth.schemes, (scheme) => scheme.name) } },
    };
    canonicals.set(model, copy);
  }
  return copy;
}

/** Parts of the diff's tree the skill's listing and body do not show. */
const NOT_IN_SKILL: ReadonlySet<string> = new Set(["version", "changelog", "budget"]);

/**
 * Whether the sides differ in anything the skill's listing or body shows: a change the diff's tree
 * records outside the version, the changelog and the budget, or another contract name (which names
 * the skill and its CLI, and which the tree does not hold). When not, the skills say the same and
 * nothing needs rendering: an unchanged contract, or a new version alone, costs the rules nothing.
 */
export function skillInputsChanged(ctx: DiffContext): boolean {
  return ctx.old.model.name !== ctx.new_.model.name || ctx.changes.some((c) => !NOT_IN_SKILL.has(c.path[0]!));
}

/** What an agent reads of the skill before choosing it (the front matter's name and description) and the body it reads after. */
export type SkillText = SkillTexts;

const texts = new WeakMap<ContractModel, SkillText>();

export function skillText(model: ContractModel): SkillText {
  let text = texts.get(model);
  if (!text) texts.set(model, (text = skillTexts(model)));
  return text;
}

const listingCosts = new WeakMap<ContractModel, number>();
const bodyCosts = new WeakMap<ContractModel, number>();

/** o200k_base tokens of the listing (`name: …` and `description: …`), counted as `contractgen budget` counts them. */
export function listingTokens(model: ContractModel): number {
  let tokens = listingCosts.get(model);
  if (tokens === undefined) listingCosts.set(model, (tokens = countTokens(skillText(model).listing)));
  return tokens;
}

/** o200k_base tokens of the body, counted as `contractgen budget` counts them. */
export function bodyTokens(model: ContractModel): number {
  let tokens = bodyCosts.get(model);
  if (tokens === undefined) bodyCosts.set(model, (tokens = countTokens(skillText(model).body())));
  return tokens;
}

/** A part's tokens as `skillOverruns` names it (`listing`, `body` or `references/<group>.md`), or undefined: the skill has no such part. */
export function partTokens(model: ContractModel, part: string): number | undefined {
  const cost = skillTokens(model);
  if (part === "listing") return cost.listing.o200k_base;
  if (part === "body") return cost.body.o200k_base;
  return cost.references.find((r) => r.path === part)?.o200k_base;
}

/** How two texts differ line by line, cheaply and deterministically. */
export interface LineChange {
  /** Lines added and removed, as multisets: a line that moved is neither. */
  readonly added: number;
  readonly removed: number;
  /** The first line (in the new text; else in the old) that was added or removed and is not blank; null when only the order changed. */
  readonly first: { readonly line: string; readonly side: "added" | "removed" } | null;
}

export function lineChange(before: string, after: string): LineChange {
  const a = before.split("\n");
  const b = after.split("\n");
  // Counted in a Map: lines are contract text, never plain-object keys.
  const surplus = new Map<string, number>();
  for (const line of b) surplus.set(line, (surplus.get(line) ?? 0) + 1);
  for (const line of a) surplus.set(line, (surplus.get(line) ?? 0) - 1);
  let added = 0;
  let removed = 0;
  for (const n of surplus.values()) {
    if (n > 0) added += n;
    else removed -= n;
  }
  const isChanged = (line: string, sign: 1 | -1) => line.trim() !== "" && sign * (surplus.get(line) ?? 0) > 0;
  const firstAdded = b.find((line) => isChanged(line, 1));
  const firstRemoved = firstAdded === undefined ? a.find((line) => isChanged(line, -1)) : undefined;
  const first = firstAdded !== undefined ? { line: firstAdded, side: "added" as const } : firstRemoved !== undefined ? { line: firstRemoved, side: "removed" as const } : null;
  return { added, removed, first };
}

/** A line cut to `max` characters (an ellipsis marks the cut), for quoting in a message. */
export function cutLine(line: string, max = 100): string {
  const chars = [...line.trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}
