import { createHash } from "node:crypto";

/** JSON with object keys sorted at every level: equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** sha256 (hex) of the canonical JSON of a value. */
export function hashValue(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/** A copy of an input object without the named fields. */
export function without(input: Readonly<Record<string, unknown>>, fields: readonly (string | null)[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...input };
  for (const field of fields) if (field !== null) delete copy[field];
  return copy;
}
