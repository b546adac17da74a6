/**
 * Filter conditions as SQL text plus bound parameters. Column names come from handler code, never
 * from requests; every value is a bound parameter.
 */

export interface Sql {
  readonly text: string;
  readonly params: readonly unknown[];
}

export const MATCH_ALL: Sql = { text: "1 = 1", params: [] };

/** Conditions that all hold; absent (null) conditions are left out, so omitted filters match everything. */
export function allOf(...conditions: ReadonlyArray<Sql | null>): Sql {
  const present = conditions.filter((c): c is Sql => c !== null);
  if (present.length === 0) return MATCH_ALL;
  return { text: present.map((c) => `(${c.text})`).join(" AND "), params: present.flatMap((c) => c.params) };
}

export function anyOf(...conditions: readonly Sql[]): Sql {
  if (conditions.length === 0) return { text: "1 = 0", params: [] };
  return { text: conditions.map((c) => `(${c.text})`).join(" OR "), params: conditions.flatMap((c) => c.params) };
}

/** column = value, or null (no condition) when the filter was omitted. Booleans compare as 0/1. */
export function equals(column: string, value: unknown): Sql | null {
  if (value === undefined) return null;
  return { text: `${column} = ?`, params: [typeof value === "boolean" ? Number(value) : value] };
}

/** column > value (strictly after), or null when omitted. */
export function greaterThan(column: string, value: unknown): Sql | null {
  if (value === undefined) return null;
  return { text: `${column} > ?`, params: [value] };
}

/** Case-sensitive prefix match (LIKE would ignore ASCII case and treat % and _ as wildcards). */
export function startsWith(column: string, prefix: string | undefined): Sql | null {
  if (prefix === undefined) return null;
  return { text: `substr(${column}, 1, length(?)) = ?`, params: [prefix, prefix] };
}

export function condition(text: string, ...params: unknown[]): Sql {
  return { text, params };
}
