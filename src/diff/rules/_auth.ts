/** Credential alternatives compared by what travels on the wire, for the auth rules. */
import type { AuthAlternatives, AuthModel, AuthSchemeModel, ContractModel, OperationModel } from "../../model/types.js";
import { operationAuth } from "../../model/types.js";

/** How a scheme's credential travels: two schemes sent alike are the same credential to a caller. */
export function wireOf(scheme: AuthSchemeModel): string {
  if (scheme.type === "apiKey") return `API key in ${scheme.in} ${scheme.in === "header" ? scheme.paramName.toLowerCase() : scheme.paramName}`;
  return scheme.type === "basic" ? "HTTP basic" : "bearer token";
}

/** Each alternative as the set of what it sends. */
export function wireAlternatives(auth: AuthModel, alternatives: AuthAlternatives): Array<Set<string>> {
  return alternatives.map((alternative) => new Set(alternative.flatMap((name) => auth.schemes.filter((s) => s.name === name).map(wireOf))));
}

/**
 * What callers equipped for an old alternative must now add: for the first old alternative (an empty
 * one when none was required) that no new alternative is a subset of, the credentials of the new
 * alternative that needs the fewest additions. Null when every old caller still gets through.
 */
export function newlyRequired(before: AuthModel, beforeAlternatives: AuthAlternatives, after: AuthModel, afterAlternatives: AuthAlternatives): string[] | null {
  const olds = beforeAlternatives.length === 0 ? [new Set<string>()] : wireAlternatives(before, beforeAlternatives);
  const news = wireAlternatives(after, afterAlternatives);
  if (news.length === 0) return null;
  for (const old of olds) {
    const missing = news.map((n) => [...n].filter((w) => !old.has(w)));
    if (missing.some((m) => m.length === 0)) continue;
    return missing.reduce((best, m) => (m.length < best.length ? m : best));
  }
  return null;
}

/** Operations present on both sides with their effective alternatives, and whether either side overrides. */
export function operationPairs(
  before: { operation(id: string): OperationModel | undefined },
  after: { model: ContractModel },
): Array<{ id: string; before: OperationModel; after: OperationModel; overridden: boolean }> {
  return after.model.operations.flatMap((op) => {
    // The old side looks a renamed operation up under its new id (DiffSide.operation).
    const old = before.operation(op.names.id);
    return old ? [{ id: op.names.id, before: old, after: op, overridden: old.auth !== null || op.auth !== null }] : [];
  });
}

export { operationAuth };
