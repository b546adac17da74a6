/**
 * The values the suite takes from the data for a filter that says what it means, and the test each
 * returned record must pass (src/tests-runtime/filter-meaning.ts).
 */
import { describe, expect, it } from "vitest";
import { compareOrdered, type Meaning, meaningCases } from "../../src/tests-runtime/filter-meaning.js";

const meaning = (m: Partial<Meaning> & Pick<Meaning, "field" | "property" | "match">): Meaning => ({ bound: null, ends: null, ...m });
const RECORDS = [
  { id: 1, tag_name: "v1.10.0", tags: ["a", "b"], at: "2026-03-01", n: 5 },
  { id: 2, tag_name: "v1.2.0", tags: ["b"], at: "2026-03-02", n: 7 },
  { id: 3, tag_name: "v2.0.0", tags: [], at: "2026-03-03", n: 9 },
  { id: 4, tag_name: "V1.2.5", at: null, n: 11 },
];

describe("values from the data, and what each record must satisfy", () => {
  it("equals: values the records hold; a scalar field gets the value, an array field a list of it", () => {
    const cases = meaningCases(meaning({ field: "n", property: "n", match: "equals" }), RECORDS, { isArray: false });
    expect(cases.map((c) => c.value)).toEqual([5, 7, 9]);
    expect(RECORDS.filter(cases[0]!.satisfies).map((r) => r.id)).toEqual([1]);
    expect(meaningCases(meaning({ field: "n", property: "n", match: "equals" }), RECORDS, { isArray: true })[0]!.value).toEqual([5]);
  });

  it("contains: elements of the records' arrays; a record without the array never satisfies it", () => {
    const cases = meaningCases(meaning({ field: "tag", property: "tags", match: "contains" }), RECORDS, { isArray: true });
    expect(cases.map((c) => c.value)).toEqual([["a"], ["b"]]);
    expect(RECORDS.filter(cases[1]!.satisfies).map((r) => r.id)).toEqual([1, 2]);
    expect(cases[1]!.words).toBe('tags contains "b"');
  });

  it("prefix: half a real value, the same with its case swapped, and a piece from inside it, all case-sensitive", () => {
    const cases = meaningCases(meaning({ field: "p", property: "tag_name", match: "prefix" }), RECORDS, { isArray: false });
    expect(cases.map((c) => c.value)).toEqual(["v2.", "V2.", "2.0"]);
    expect(RECORDS.filter(cases[0]!.satisfies).map((r) => r.id)).toEqual([3]);
    // Neither the case variant nor the inner piece starts any tag_name: a correct platform returns nothing.
    expect(RECORDS.filter(cases[1]!.satisfies)).toEqual([]);
    expect(RECORDS.filter(cases[2]!.satisfies)).toEqual([]);
  });

  it("range: real values at the ends, each end inclusive or exclusive as declared; null never satisfies", () => {
    const from = meaningCases(meaning({ field: "after", property: "at", match: "range", bound: "from", ends: { fromInclusive: false, toInclusive: false } }), RECORDS, { isArray: false });
    expect(from.map((c) => c.value)).toEqual(["2026-03-02", "2026-03-01"]);
    expect(RECORDS.filter(from[0]!.satisfies).map((r) => r.id)).toEqual([3]);
    expect(from[0]!.words).toBe('at is after "2026-03-02" (exclusive)');
    const window = meaningCases(meaning({ field: "w", property: "n", match: "range", ends: { fromInclusive: true, toInclusive: true } }), RECORDS, { isArray: false });
    expect(window.map((c) => c.value)).toEqual([{ from: 7, to: 11 }]);
    expect(RECORDS.filter(window[0]!.satisfies).map((r) => r.id)).toEqual([2, 3, 4]);
    const halfOpen = meaningCases(meaning({ field: "w", property: "n", match: "range", ends: { fromInclusive: true, toInclusive: false } }), RECORDS, { isArray: false });
    expect(RECORDS.filter(halfOpen[0]!.satisfies).map((r) => r.id)).toEqual([2, 3]);
  });

  it("orders numbers, days and instants; nothing else", () => {
    expect(compareOrdered(1, 2)).toBeLessThan(0);
    expect(compareOrdered("2026-03-01T00:00:00Z", "2026-03-01T01:00:00+02:00")).toBeGreaterThan(0);
    expect(compareOrdered("abc", "abd")).toBeNull();
    expect(compareOrdered(1, "2")).toBeNull();
  });

  it("no value when the records hold none", () => {
    expect(meaningCases(meaning({ field: "t", property: "missing", match: "contains" }), RECORDS, { isArray: false })).toEqual([]);
  });
});
