import { describe, expect, it } from "vitest";
import { type PageShape, Paginator } from "../../src/runtime/pagination.js";

const shape: PageShape = {
  cursorField: "cursor",
  nextCursorField: "next_cursor",
  itemsField: "items",
  totalField: "total",
  partialField: "partial",
  errorsField: "errors",
};

const bare: PageShape = { ...shape, totalField: null, partialField: null, errorsField: null };

type Page = Record<string, unknown>;

/**
 * A fake fetchPage over a fixed list of pages: page i is reached with cursor "c<i>" (the first with
 * null). Records every cursor it was called with.
 */
function fakePages(pages: Page[], opts: { nextCursor?: (i: number) => string | null } = {}) {
  const calls: Array<string | null> = [];
  const signals: Array<AbortSignal | undefined> = [];
  const fetchPage = async (cursor: string | null, signal?: AbortSignal): Promise<Page> => {
    calls.push(cursor);
    signals.push(signal);
    const index = cursor === null ? 0 : Number(cursor.slice(1));
    const page = pages[index];
    if (!page) throw new Error(`no page for cursor ${cursor}`);
    const next = opts.nextCursor ? opts.nextCursor(index) : index + 1 < pages.length ? `c${index + 1}` : null;
    return { next_cursor: next, ...page };
  };
  return { fetchPage, calls, signals };
}

describe("Paginator bounds", () => {
  const { fetchPage } = fakePages([{ items: [] }]);
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("rejects maxPages=%s with a RangeError", (maxPages) => {
    expect(() => new Paginator(fetchPage, shape, { maxPages })).toThrow(RangeError);
  });
  it.each([0, -3, 2.5, Number.NaN])("rejects maxItems=%s with a RangeError", (maxItems) => {
    expect(() => new Paginator(fetchPage, shape, { maxPages: 1, maxItems })).toThrow(RangeError);
  });
  it("names the missing bounds when a plain JavaScript caller leaves them out", () => {
    expect(() => new Paginator(fetchPage, shape, undefined as never)).toThrow("a traversal needs bounds: { maxPages, maxItems? }");
  });
  it("accepts positive integer bounds", () => {
    expect(() => new Paginator(fetchPage, shape, { maxPages: 1, maxItems: 1 })).not.toThrow();
  });
  it("has no completeness before a traversal", () => {
    expect(new Paginator(fetchPage, shape, { maxPages: 1 }).completeness).toBeUndefined();
  });
});

describe("Paginator traversal", () => {
  it("an empty result is one page, no items, complete", async () => {
    const { fetchPage, calls } = fakePages([{ items: [], total: 0 }]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 5 }).collect();
    expect(calls).toEqual([null]);
    expect(result).toEqual({
      items: [],
      complete: true,
      pagesRead: 1,
      received: 0,
      declaredTotal: 0,
      continuation: null,
      partial: false,
      errors: [],
      stoppedBy: null,
      reasons: [],
    });
  });

  it("an empty result without a declared total is complete too", async () => {
    const { fetchPage } = fakePages([{ items: [] }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 1 }).collect();
    expect(result.complete).toBe(true);
    expect(result.declaredTotal).toBeNull();
  });

  it("reads every page, passing each next cursor unchanged, and is complete", async () => {
    const { fetchPage, calls } = fakePages([
      { items: [1, 2], total: 5 },
      { items: [3, 4], total: 5 },
      { items: [5], total: 5 },
    ]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10 }).collect();
    expect(calls).toEqual([null, "c1", "c2"]);
    expect(result.items).toEqual([1, 2, 3, 4, 5]);
    expect(result).toMatchObject({ complete: true, pagesRead: 3, received: 5, declaredTotal: 5, continuation: null, stoppedBy: null, reasons: [] });
  });

  it("is complete when maxPages equals the number of pages exactly", async () => {
    const { fetchPage, calls } = fakePages([{ items: [1] }, { items: [2] }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 2 }).collect();
    expect(calls).toHaveLength(2);
    expect(result).toMatchObject({ complete: true, stoppedBy: null, continuation: null, pagesRead: 2 });
  });

  it("treats an empty-string next cursor as the end", async () => {
    const { fetchPage, calls } = fakePages([{ items: [1] }], { nextCursor: () => "" });
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 3 }).collect();
    expect(calls).toEqual([null]);
    expect(result.complete).toBe(true);
  });

  it("starts from the given cursor", async () => {
    const { fetchPage, calls } = fakePages([{ items: [1] }, { items: [2] }, { items: [3] }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 5 }, "c1").collect();
    expect(calls).toEqual(["c1", "c2"]);
    expect(result.items).toEqual([2, 3]);
  });

  it("passes the bounds' signal to every page fetch", async () => {
    const { fetchPage, signals } = fakePages([{ items: [1] }, { items: [2] }]);
    const signal = new AbortController().signal;
    await new Paginator<number>(fetchPage, bare, { maxPages: 5, signal }).collect();
    expect(signals).toEqual([signal, signal]);
  });

  it("maxPages reached with more pages: incomplete, stoppedBy maxPages, continuation = next cursor", async () => {
    const { fetchPage, calls } = fakePages([{ items: [1, 2] }, { items: [3, 4] }, { items: [5, 6] }, { items: [7] }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 2 }).collect();
    expect(calls).toEqual([null, "c1"]); // never fetches a page beyond the bound
    expect(result.items).toEqual([1, 2, 3, 4]);
    expect(result.complete).toBe(false);
    expect(result.stoppedBy).toBe("maxPages");
    expect(result.continuation).toBe("c2");
    expect(result.pagesRead).toBe(2);
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]).toMatch(/maxPages=2/);
  });

  it("resuming from the continuation reads the rest without gaps or duplicates", async () => {
    const pages = [{ items: [1, 2] }, { items: [3, 4] }, { items: [5, 6] }, { items: [7] }];
    const first = await new Paginator<number>(fakePages(pages).fetchPage, bare, { maxPages: 2 }).collect();
    const rest = await new Paginator<number>(fakePages(pages).fetchPage, bare, { maxPages: 10 }, first.continuation).collect();
    expect([...first.items, ...rest.items]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(rest.complete).toBe(true);
  });

  it("maxPages reached with a declared total: the total mismatch is not reported as a second reason", async () => {
    const { fetchPage } = fakePages([{ items: [1], total: 3 }, { items: [2], total: 3 }, { items: [3], total: 3 }]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 1 }).collect();
    expect(result).toMatchObject({ complete: false, stoppedBy: "maxPages", continuation: "c1", declaredTotal: 3, received: 1 });
    expect(result.reasons).toHaveLength(1);
  });

  it("maxItems cut mid-page: incomplete, stops yielding, continuation re-reads that page", async () => {
    const { fetchPage, calls } = fakePages([{ items: [1, 2, 3] }, { items: [4, 5, 6] }, { items: [7] }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 10, maxItems: 4 }).collect();
    expect(result.items).toEqual([1, 2, 3, 4]);
    expect(calls).toEqual([null, "c1"]);
    expect(result).toMatchObject({ complete: false, stoppedBy: "maxItems", received: 4, pagesRead: 2, continuation: "c1" });
    expect(result.reasons[0]).toMatch(/maxItems=4/);
  });

  it("maxItems cut inside the first page: continuation is the start cursor (null means from the beginning)", async () => {
    const { fetchPage } = fakePages([{ items: [1, 2, 3] }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 10, maxItems: 2 }).collect();
    expect(result.items).toEqual([1, 2]);
    expect(result).toMatchObject({ complete: false, stoppedBy: "maxItems", continuation: null });
  });

  it("maxItems reached exactly at the end of a page with more pages: incomplete, continuation = next cursor", async () => {
    const { fetchPage, calls } = fakePages([{ items: [1, 2] }, { items: [3, 4] }, { items: [5] }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 10, maxItems: 4 }).collect();
    expect(calls).toEqual([null, "c1"]);
    expect(result.items).toEqual([1, 2, 3, 4]);
    expect(result).toMatchObject({ complete: false, stoppedBy: "maxItems", continuation: "c2" });
  });

  it("maxItems exactly at the end of the last page: complete", async () => {
    const { fetchPage } = fakePages([
      { items: [1, 2], total: 4 },
      { items: [3, 4], total: 4 },
    ]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10, maxItems: 4 }).collect();
    expect(result.items).toEqual([1, 2, 3, 4]);
    expect(result).toMatchObject({ complete: true, stoppedBy: null, continuation: null, reasons: [], received: 4 });
  });

  it("maxItems larger than the result: complete", async () => {
    const { fetchPage } = fakePages([{ items: [1, 2] }, { items: [3] }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 10, maxItems: 100 }).collect();
    expect(result).toMatchObject({ complete: true, stoppedBy: null, received: 3 });
  });

  it("a partial page makes the traversal incomplete, with a reason naming the page", async () => {
    const { fetchPage } = fakePages([{ items: [1], partial: false }, { items: [2], partial: true }, { items: [3] }]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10 }).collect();
    expect(result.items).toEqual([1, 2, 3]);
    expect(result.complete).toBe(false);
    expect(result.partial).toBe(true);
    expect(result.stoppedBy).toBeNull();
    expect(result.continuation).toBeNull();
    expect(result.reasons).toEqual([expect.stringMatching(/page 2 is partial/)]);
  });

  it("ignores the partial flag when the shape declares none", async () => {
    const { fetchPage } = fakePages([{ items: [1], partial: true }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 1 }).collect();
    expect(result).toMatchObject({ complete: true, partial: false });
  });

  it("collects per-page errors tagged with 1-based page numbers", async () => {
    const { fetchPage } = fakePages([
      { items: [1], errors: [] },
      { items: [2], errors: [{ shard: "eu" }, { shard: "us" }] },
      { items: [3], errors: [{ shard: "ap" }] },
    ]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10 }).collect();
    expect(result.items).toEqual([1, 2, 3]);
    expect(result.errors).toEqual([
      { page: 2, error: { shard: "eu" } },
      { page: 2, error: { shard: "us" } },
      { page: 3, error: { shard: "ap" } },
    ]);
    expect(result.complete).toBe(false);
    expect(result.reasons).toEqual([expect.stringMatching(/page 2 reported 2 error/), expect.stringMatching(/page 3 reported 1 error/)]);
  });

  it("empty error lists keep the traversal complete", async () => {
    const { fetchPage } = fakePages([{ items: [1], errors: [] }, { items: [2], errors: [] }]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10 }).collect();
    expect(result).toMatchObject({ complete: true, errors: [] });
  });

  it("a declared total different from what was received is incomplete", async () => {
    const { fetchPage } = fakePages([
      { items: [1, 2], total: 5 },
      { items: [3], total: 5 },
    ]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10 }).collect();
    expect(result).toMatchObject({ complete: false, declaredTotal: 5, received: 3, stoppedBy: null, continuation: null });
    expect(result.reasons).toEqual([expect.stringMatching(/received 3 items but the platform declared 5/)]);
  });

  it("a traversal resumed from a continuation is complete once it reads to the end: the declared total counts the items before it too (found by the skill's incident lab: resuming with --cursor exited 10 forever)", async () => {
    const pages = [{ items: [1], total: 3 }, { items: [2], total: 3 }, { items: [3], total: 3 }];
    const first = await new Paginator<number>(fakePages(pages).fetchPage, shape, { maxPages: 1 }).collect();
    expect(first).toMatchObject({ complete: false, continuation: "c1", stoppedBy: "maxPages" });
    const rest = await new Paginator<number>(fakePages(pages).fetchPage, shape, { maxPages: 10 }, first.continuation).collect();
    expect(rest).toMatchObject({ complete: true, items: [2, 3], received: 2, declaredTotal: 3, continuation: null, reasons: [] });
    // Still incomplete when a page of the resumed part is partial, or when it alone exceeds the total.
    const partial = await new Paginator<number>(fakePages([pages[0]!, { items: [2], total: 3, partial: true }, pages[2]!]).fetchPage, shape, { maxPages: 10 }, "c1").collect();
    expect(partial.complete).toBe(false);
    const excess = await new Paginator<number>(fakePages([pages[0]!, { items: [2, 3, 4, 5], total: 3 }]).fetchPage, shape, { maxPages: 10 }, "c1").collect();
    expect(excess.reasons).toEqual([expect.stringMatching(/received 4 items but the platform declared 3/)]);
  });

  it("more items than the declared total is incomplete too", async () => {
    const { fetchPage } = fakePages([{ items: [1, 2, 3], total: 2 }]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10 }).collect();
    expect(result.complete).toBe(false);
  });

  it("a total changing between pages is reported, and the first declared total is kept", async () => {
    const { fetchPage } = fakePages([
      { items: [1, 2], total: 4 },
      { items: [3, 4], total: 5 },
    ]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10 }).collect();
    expect(result.declaredTotal).toBe(4);
    expect(result.received).toBe(4);
    expect(result.complete).toBe(false);
    expect(result.reasons).toEqual([expect.stringMatching(/total changed from 4 to 5 on page 2/)]);
  });

  it("ignores a total field when the shape declares none", async () => {
    const { fetchPage } = fakePages([{ items: [1], total: 99 }]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 1 }).collect();
    expect(result).toMatchObject({ complete: true, declaredTotal: null });
  });

  it("a page whose items field is missing or not an array yields nothing", async () => {
    const { fetchPage } = fakePages([{ items: "nope" }, {}]);
    const result = await new Paginator<number>(fetchPage, bare, { maxPages: 10 }).collect();
    expect(result).toMatchObject({ items: [], pagesRead: 2, complete: true });
  });

  it("several reasons accumulate", async () => {
    const { fetchPage } = fakePages([
      { items: [1], total: 3, partial: true, errors: ["e"] },
      { items: [2], total: 3 },
    ]);
    const result = await new Paginator<number>(fetchPage, shape, { maxPages: 10 }).collect();
    expect(result.complete).toBe(false);
    expect(result.reasons).toHaveLength(3); // partial, errors, total mismatch
  });

  it("propagates a page fetch failure", async () => {
    const boom = new Error("boom");
    const paginator = new Paginator<number>(async () => Promise.reject(boom), bare, { maxPages: 3 });
    await expect(paginator.collect()).rejects.toBe(boom);
    expect(paginator.completeness).toBeUndefined();
  });

  it("for-await iteration yields items lazily and sets .completeness at the end", async () => {
    const { fetchPage, calls } = fakePages([{ items: [1, 2] }, { items: [3, 4] }, { items: [5] }]);
    const paginator = new Paginator<number>(fetchPage, bare, { maxPages: 2 });
    const seen: number[] = [];
    for await (const item of paginator) {
      seen.push(item);
      if (item === 1) {
        expect(calls).toEqual([null]); // only the first page was read so far
        expect(paginator.completeness).toBeUndefined();
      }
    }
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(paginator.completeness).toMatchObject({ complete: false, stoppedBy: "maxPages", continuation: "c2", pagesRead: 2, received: 4 });
  });

  it("each traversal re-reads from the start and replaces the report", async () => {
    const { fetchPage, calls } = fakePages([{ items: [1] }, { items: [2] }]);
    const paginator = new Paginator<number>(fetchPage, bare, { maxPages: 5 });
    const a = await paginator.collect();
    const b = await paginator.collect();
    expect(calls).toEqual([null, "c1", null, "c1"]);
    expect(a.items).toEqual(b.items);
    expect(paginator.completeness).toMatchObject({ complete: true, received: 2 });
  });

  it("a traversal abandoned early does not leave the previous traversal's report behind", async () => {
    const { fetchPage } = fakePages([{ items: [1, 2] }, { items: [3] }]);
    const paginator = new Paginator<number>(fetchPage, bare, { maxPages: 5 });
    expect((await paginator.collect()).complete).toBe(true);
    for await (const item of paginator) {
      if (item === 1) break; // stops after one item: this traversal is not complete
    }
    expect(paginator.completeness?.complete).not.toBe(true);
  });

  it("collect returns the same completeness as .completeness", async () => {
    const { fetchPage } = fakePages([{ items: [1, 2], total: 2 }]);
    const paginator = new Paginator<number>(fetchPage, shape, { maxPages: 1 });
    const { items, ...report } = await paginator.collect();
    expect(items).toEqual([1, 2]);
    expect(report).toEqual(paginator.completeness);
  });
});
