/**
 * What a filter with a declared meaning (docs/contract-format.md, "filters") promises, as values the
 * suite can send and a test each returned record must pass. Pure: the values come from records an
 * unfiltered traversal returned, so they are real data of the platform under test, and nothing here
 * assumes how that platform stores, orders or pages them.
 */
import type { FilterRecord } from "../../sdk/runtime/data.js";

/** A filter that says which record property it tests and how. */
export type Meaning = FilterRecord & { readonly property: string; readonly match: NonNullable<FilterRecord["match"]> };

export function hasMeaning(filter: FilterRecord): filter is Meaning {
  return filter.property !== null && filter.match !== null;
}

/** One value to send in a filter's field, and what every record the filtered list returns must then satisfy. */
export interface MeaningCase {
  readonly filter: Meaning;
  /** The value for the filter's field, before its wire encoding. */
  readonly value: unknown;
  /** The test in words, e.g. `tag_name starts with "v1.2" (case-sensitive)`. */
  readonly words: string;
  readonly satisfies: (record: unknown) => boolean;
}

/** How the field carrying the value is shaped: contains accepts one value or a list of them (every one contained). */
export interface FieldShape {
  readonly isArray: boolean;
}

/** At most this many values of one filter are tried. */
export const MAX_VALUES_PER_FILTER = 3;
/** Records looked at for values: enough variety, bounded work on a large data set. */
const MAX_RECORDS_SAMPLED = 1_000;

export function propertyOf(record: unknown, property: string): unknown {
  return record !== null && typeof record === "object" && !Array.isArray(record) && Object.hasOwn(record, property) ? (record as Record<string, unknown>)[property] : undefined;
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

/** Distinct scalar values, first seen first, at most `max`. */
function distinct(values: Iterable<unknown>, max: number): Array<string | number | boolean> {
  const out: Array<string | number | boolean> = [];
  for (const v of values) {
    if (out.length >= max) break;
    if (isScalar(v) && !out.includes(v)) out.push(v);
  }
  return out;
}

function* sampled(records: readonly unknown[]): Generator<unknown> {
  for (let i = 0; i < records.length && i < MAX_RECORDS_SAMPLED; i++) yield records[i];
}

/**
 * Order two values of a range property: numbers as numbers, strings as the instants or days they
 * name (RFC 3339 date-time or full-date); null when they cannot be ordered.
 */
export function compareOrdered(a: unknown, b: unknown): number | null {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") {
    const x = Date.parse(a);
    const y = Date.parse(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return null;
    return x - y;
  }
  return null;
}

/** Swap the case of every letter: a case-sensitive prefix of one case says nothing of the other. */
function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
}

const quote = (v: unknown) => JSON.stringify(v);

/**
 * The values to try for `filter`, taken from `records` (what an unfiltered traversal returned):
 * equals a value a record holds; contains an element of a record's array; prefix the first half of
 * a record's string, the same with its case swapped, and a piece from inside it (a prefix match
 * must tell them apart); range a window whose ends are real values (so the ends' inclusiveness
 * shows). Empty when the records hold no usable value.
 */
export function meaningCases(filter: Meaning, records: readonly unknown[], field: FieldShape): MeaningCase[] {
  const p = filter.property;
  const held = () => [...sampled(records)].map((r) => propertyOf(r, p));
  switch (filter.match) {
    case "equals":
      return distinct(held(), MAX_VALUES_PER_FILTER).map((v) => ({
        filter,
        value: field.isArray ? [v] : v,
        words: `${p} equals ${quote(v)}`,
        satisfies: (r) => propertyOf(r, p) === v,
      }));
    case "contains":
      return distinct(held().flatMap((v) => (Array.isArray(v) ? v : [])), MAX_VALUES_PER_FILTER).map((v) => ({
        filter,
        value: field.isArray ? [v] : v,
        words: `${p} contains ${quote(v)}`,
        satisfies: (r) => {
          const x = propertyOf(r, p);
          return Array.isArray(x) && x.some((e) => e === v);
        },
      }));
    case "prefix": {
      const strings = distinct(held().filter((v) => typeof v === "string" && v.length > 0), 64) as string[];
      if (strings.length === 0) return [];
      const source = strings[Math.floor(strings.length / 2)]!;
      const half = Math.max(1, Math.ceil(source.length / 2));
      const candidates = [source.slice(0, half), swapCase(source.slice(0, half)), source.slice(1, 1 + half)].filter((v) => v.length > 0);
      return [...new Set(candidates)].slice(0, MAX_VALUES_PER_FILTER).map((v) => ({
        filter,
        value: field.isArray ? [v] : v,
        words: `${p} starts with ${quote(v)} (case-sensitive)`,
        satisfies: (r) => {
          const x = propertyOf(r, p);
          return typeof x === "string" && x.startsWith(v);
        },
      }));
    }
    case "range":
      return rangeCases(filter, held());
  }
}

function rangeCases(filter: Meaning, held: readonly unknown[]): MeaningCase[] {
  const p = filter.property;
  const values = distinct(held, MAX_RECORDS_SAMPLED).filter((v) => compareOrdered(v, v) !== null);
  if (values.length === 0) return [];
  const sorted = [...values].sort((a, b) => compareOrdered(a, b) ?? 0);
  const ends = filter.ends ?? { fromInclusive: true, toInclusive: false };
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
  const after = (x: unknown, from: unknown) => {
    const c = compareOrdered(x, from);
    return c !== null && (ends.fromInclusive ? c >= 0 : c > 0);
  };
  const before = (x: unknown, to: unknown) => {
    const c = compareOrdered(x, to);
    return c !== null && (ends.toInclusive ? c <= 0 : c < 0);
  };
  const endWord = (inclusive: boolean) => (inclusive ? "inclusive" : "exclusive");
  if (filter.bound === "from") {
    return [...new Set([at(0.5), at(0.25)])].map((from) => ({
      filter,
      value: from,
      words: `${p} is ${ends.fromInclusive ? "at or after" : "after"} ${quote(from)} (${endWord(ends.fromInclusive)})`,
      satisfies: (r) => after(propertyOf(r, p), from),
    }));
  }
  if (filter.bound === "to") {
    return [...new Set([at(0.5), at(0.75)])].map((to) => ({
      filter,
      value: to,
      words: `${p} is ${ends.toInclusive ? "at or before" : "before"} ${quote(to)} (${endWord(ends.toInclusive)})`,
      satisfies: (r) => before(propertyOf(r, p), to),
    }));
  }
  const from = at(0.25);
  const to = at(0.75);
  return [
    {
      filter,
      value: { from, to },
      words: `${p} is within ${quote(from)} (${endWord(ends.fromInclusive)}) to ${quote(to)} (${endWord(ends.toInclusive)})`,
      satisfies: (r) => {
        const x = propertyOf(r, p);
        return after(x, from) && before(x, to);
      },
    },
  ];
}
