import { countTokens } from "../../budget/catalog.js";
import { listingText, skillTokens } from "../../budget/skill.js";
import { type SkillGroup, skillBody, skillDescription, skillGroups, skillListing, skillName, skillParts } from "../../emit/skill/skill.js";
import type { ContractModel } from "../../model/types.js";
import { canonicalJson, MAX_SCHEMA_PATH } from "../tree.js";

/*
 * The generated Agent Skill as the skill rules compare it (not a rule: files starting with "_" are
 * not registered). Rendering a body builds every operation's command spec and counting tokens is not
 * free, so each piece is built only when a rule asks for it and kept per model (models are
 * immutable): the three skill rules share one rendering per side.
 *
 * Two things change the emitted text without changing what the contract says, and the rules see
 * through both: the version (the skill names it; the version rules judge it), and the order of what
 * the diff holds to be sets (operations, errors, toolsets, mapping keys…: reordered in the document,
 * they reorder the skill's lines).
 */

/** The model each derived copy was made from: copies share their original's command groups. */
const origins = new WeakMap<ContractModel, ContractModel>();

const versioned = new WeakMap<ContractModel, Map<string, ContractModel>>();

/** `model` with its version set to `version` (itself when it already has it), one copy per version. */
export function atVersion(model: ContractModel, version: string): ContractModel {
  if (model.version === version) return model;
  let copies = versioned.get(model);
  if (!copies) versioned.set(model, (copies = new Map()));
  let copy = copies.get(version);
  if (!copy) {
    copy = { ...model, version };
    copies.set(version, copy);
    origins.set(copy, origins.get(model) ?? model);
  }
  return copy;
}

/** Lists the diff holds to be sets: their order in the document means nothing (the keys the nothing-silent test's canonical model sorts). */
const SET_LISTS: ReadonlySet<string> = new Set(["allOf", "anyOf", "oneOf", "required", "enum", "type", "scopes", "filters", "errors", "states", "selectable", "identity", "types", "operations", "toolsets", "schemes", "bindings"]);

/** A deep copy with every object's keys sorted and every set-like list in a canonical order (bounded in depth like the diff's trees). */
function canonicalCopy(value: unknown, key: string | undefined, depth: number): unknown {
  if (value === null || typeof value !== "object" || depth > MAX_SCHEMA_PATH) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => canonicalCopy(item, undefined, depth + 1));
    if (key === undefined || !SET_LISTS.has(key)) return items;
    // Ordered by content without source locations, which follow the document's order.
    const keyed = items.map((item) => [canonicalJson(item, true), item] as const);
    return keyed.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    // Keys are contract names (properties, schemes): defined as own properties, so "__proto__" stays a key.
    Object.defineProperty(out, k, { value: canonicalCopy((value as Record<string, unknown>)[k], k, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const canonicals = new WeakMap<ContractModel, ContractModel>();

/** `model` with mapping keys and set-like lists in one order: its skill says what the model's says, in an order the document does not choose. */
export function canonicalOf(model: ContractModel): ContractModel {
  let copy = canonicals.get(model);
  if (!copy) canonicals.set(model, (copy = canonicalCopy(model, undefined, 0) as ContractModel));
  return copy;
}

const groupsCache = new WeakMap<ContractModel, SkillGroup[]>();

/** The skill's command groups; a copy at another version shares its original's (groups do not name the version). */
function groupsOf(model: ContractModel): SkillGroup[] {
  const origin = origins.get(model) ?? model;
  let groups = groupsCache.get(origin);
  if (!groups) groupsCache.set(origin, (groups = skillGroups(origin)));
  return groups;
}

/** SKILL.md's body as the file holds it (and as `contractgen budget` measures it): trailing blank lines cut to one newline, no leading ones. */
function writtenBody(body: string): string {
  return `${body.trimEnd()}\n`.replace(/^\n+/, "");
}

/** What an agent reads of the skill before choosing it (the front matter's name and description) and the body it reads after. */
export interface SkillText {
  readonly name: string;
  readonly description: string;
  /** SKILL.md after its front matter, as `generate` writes it; rendered on first use. */
  body(): string;
}

const texts = new WeakMap<ContractModel, SkillText>();

export function skillText(model: ContractModel): SkillText {
  let text = texts.get(model);
  if (!text) {
    let body: string | undefined;
    text = { name: skillName(model), description: skillDescription(model), body: () => (body ??= writtenBody(skillBody(model, groupsOf(model)))) };
    texts.set(model, text);
  }
  return text;
}

const listingCosts = new WeakMap<ContractModel, number>();
const bodyCosts = new WeakMap<ContractModel, number>();

/** o200k_base tokens of the listing (`name: …` and `description: …`), counted as `contractgen budget` counts them. */
export function listingTokens(model: ContractModel): number {
  let tokens = listingCosts.get(model);
  if (tokens === undefined) listingCosts.set(model, (tokens = countTokens(listingText(skillListing(model)))));
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

const partsCache = new WeakMap<ContractModel, ReadonlyMap<string, string>>();

/** A part's text (named as for partTokens), or undefined. */
function partText(model: ContractModel, part: string): string | undefined {
  let parts = partsCache.get(model);
  if (!parts) {
    const skill = skillParts(model);
    parts = new Map([["listing", listingText(skill.listing)], ["body", writtenBody(skill.body)], ...skill.references]);
    partsCache.set(model, parts);
  }
  return parts.get(part);
}

/**
 * Whether a part says the same on both sides: equal once both are canonical and at the new version.
 * A count that grew only because of the order or the version is not growth.
 */
export function samePart(before: ContractModel, after: ContractModel, part: string): boolean {
  const a = partText(atVersion(canonicalOf(before), after.version), part);
  return a !== undefined && a === partText(canonicalOf(after), part);
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
