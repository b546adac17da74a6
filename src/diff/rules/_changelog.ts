import type { ChangelogEntryModel } from "../../model/types.js";
import type { DiffContext } from "../rule.js";

/*
 * The version policy rules' view of the changelog (not a rule: files starting with "_" are not
 * registered). changelog-entry-missing and changelog-entry-unmatched are two sides of one matching:
 * a finding and a changelog change match when their document pointers overlap.
 */

/** The new contract's changelog entry for its own version, and its index (-1 when there is none). */
export function newVersionEntry(ctx: DiffContext): { index: number; entry: ChangelogEntryModel | undefined } {
  const index = ctx.new_.model.changelog.findIndex((e) => e.version === ctx.new_.model.version);
  return { index, entry: ctx.new_.model.changelog[index] };
}

export { overlaps } from "../rule.js";
