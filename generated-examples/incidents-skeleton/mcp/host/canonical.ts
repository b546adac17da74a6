/** Canonical JSON and its hash are the SDK runtime's (one definition for client and host). */
export { canonicalJson, hashValue } from "../../sdk/runtime/hash.js";

/** A copy of an input object without the named fields. */
export function without(input: Readonly<Record<string, unknown>>, fields: readonly (string | null)[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...input };
  for (const field of fields) if (field !== null) delete copy[field];
  return copy;
}
