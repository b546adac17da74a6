/**
 * Bounded traversal of cursor-paginated reads that reports whether the answer is complete. Never a
 * silently truncated list: a traversal is complete only when the last page's cursor is null, no
 * page was partial or reported errors, and the items received match the declared total.
 */

export interface PageShape {
  readonly cursorField: string;
  readonly nextCursorField: string;
  readonly itemsField: string;
  readonly totalField: string | null;
  readonly partialField: string | null;
  readonly errorsField: string | null;
}

export interface TraversalBounds {
  /** Stop after this many pages (required: every traversal is bounded). */
  readonly maxPages: number;
  /** Stop once this many items were received. */
  readonly maxItems?: number;
  readonly signal?: AbortSignal;
}

export interface Completeness {
  /** True only when every item that matched was received. */
  readonly complete: boolean;
  readonly pagesRead: number;
  readonly received: number;
  /** The total the platform declared (first page), when the contract declares one. */
  readonly declaredTotal: number | null;
  /** Cursor to resume from when incomplete (re-reads the page a maxItems cut fell in); null when done. */
  readonly continuation: string | null;
  /** Some page said it is missing items. */
  readonly partial: boolean;
  /** Per-page errors the platform reported, tagged with the page number (1-based). */
  readonly errors: ReadonlyArray<{ readonly page: number; readonly error: unknown }>;
  /** Which bound ended the traversal early, if any. */
  readonly stoppedBy: "maxPages" | "maxItems" | null;
  /** Why the traversal is incomplete, in words; empty when complete. */
  readonly reasons: readonly string[];
}

export interface Collected<T> extends Completeness {
  readonly items: T[];
}

type FetchPage = (cursor: string | null, signal?: AbortSignal) => Promise<Record<string, unknown>>;

export class Paginator<T> implements AsyncIterable<T> {
  private report: Completeness | undefined;

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly shape: PageShape,
    private readonly bounds: TraversalBounds,
    private readonly startCursor: string | null = null,
  ) {
    if (!Number.isInteger(bounds.maxPages) || bounds.maxPages < 1) throw new RangeError("maxPages must be a positive integer");
    if (bounds.maxItems !== undefined && (!Number.isInteger(bounds.maxItems) || bounds.maxItems < 1)) {
      throw new RangeError("maxItems must be a positive integer");
    }
  }

  /** Completeness of the last finished traversal (after iterating or collecting). */
  get completeness(): Completeness | undefined {
    return this.report;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    // A new traversal: until it finishes, there is no report (never the previous traversal's).
    this.report = undefined;
    const { maxPages, maxItems, signal } = this.bounds;
    const shape = this.shape;
    let cursor = this.startCursor;
    let pagesRead = 0;
    let received = 0;
    let declaredTotal: number | null = null;
    let partial = false;
    let stoppedBy: Completeness["stoppedBy"] = null;
    const errors: Array<{ page: number; error: unknown }> = [];
    const reasons: string[] = [];
    let continuation: string | null = null;

    for (;;) {
      if (pagesRead >= maxPages) {
        stoppedBy = "maxPages";
        continuation = cursor;
        reasons.push(`stopped after maxPages=${maxPages} with more pages available`);
        break;
      }
      const page = await this.fetchPage(cursor, signal);
      pagesRead++;
      const items = Array.isArray(page[shape.itemsField]) ? (page[shape.itemsField] as T[]) : [];
      const next = page[shape.nextCursorField];
      const nextCursor = typeof next === "string" && next !== "" ? next : null;
      if (shape.totalField !== null && typeof page[shape.totalField] === "number") {
        const total = page[shape.totalField] as number;
        if (declaredTotal === null) declaredTotal = total;
        else if (declaredTotal !== total) reasons.push(`the declared total changed from ${declaredTotal} to ${total} on page ${pagesRead}`);
      }
      if (shape.partialField !== null && page[shape.partialField] === true) {
        partial = true;
        reasons.push(`page ${pagesRead} is partial`);
      }
      if (shape.errorsField !== null && Array.isArray(page[shape.errorsField])) {
        const pageErrors = page[shape.errorsField] as unknown[];
        for (const error of pageErrors) errors.push({ page: pagesRead, error });
        if (pageErrors.length > 0) reasons.push(`page ${pagesRead} reported ${pageErrors.length} error(s)`);
      }
      let cut = false;
      for (const item of items) {
        if (maxItems !== undefined && received >= maxItems) {
          cut = true;
          break;
        }
        received++;
        yield item;
      }
      const moreBeyondBound = cut || (maxItems !== undefined && received >= maxItems && nextCursor !== null);
      if (moreBeyondBound) {
        stoppedBy = "maxItems";
        // Cut inside a page: resuming re-reads that page, the only cursor that reaches its remainder.
        continuation = cut ? cursor : nextCursor;
        reasons.push(`stopped after maxItems=${maxItems} with more items available`);
        break;
      }
      if (nextCursor === null) break;
      cursor = nextCursor;
    }
    if (stoppedBy === null && declaredTotal !== null && received !== declaredTotal) {
      reasons.push(`received ${received} items but the platform declared ${declaredTotal}`);
    }
    this.report = {
      complete: reasons.length === 0,
      pagesRead,
      received,
      declaredTotal,
      continuation,
      partial,
      errors,
      stoppedBy,
      reasons,
    };
  }

  /** Read pages within the bounds; the items come with the completeness of the traversal. */
  async collect(): Promise<Collected<T>> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return { items, ...this.report! };
  }
}
