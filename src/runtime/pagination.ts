/**
 * Bounded traversal of paginated reads that reports whether the answer is complete. Never a
 * silently truncated list: a traversal is complete only when it ended on its style's end signal
 * (cursor: the next cursor is null; next-link: no next link; page/offset: a short or empty page, or
 * the declared total reached), no page was partial or reported errors, and the items received match
 * the declared total.
 */

export type PagingStyle = "cursor" | "next-link" | "page" | "offset";

export interface PageShape {
  /** Absent means cursor (shapes written before styles existed). */
  readonly style?: PagingStyle;
  readonly cursorField: string | null;
  readonly nextCursorField: string | null;
  /** Next-link style: an output field with the next page's URL, or the `Link` response header. */
  readonly nextLink?: { readonly kind: "field"; readonly field: string } | { readonly kind: "header"; readonly header: "Link" } | null;
  readonly pageField?: string | null;
  readonly firstPage?: 0 | 1;
  readonly offsetField?: string | null;
  /** Null when the response body itself is the page's array. */
  readonly itemsField: string | null;
  readonly totalField: string | null;
  readonly partialField: string | null;
  readonly errorsField: string | null;
}

/**
 * Where a page is: a cursor (string), a next-page URL (string), a page number or an offset
 * (number); null for the first page of a traversal that starts where the input says.
 */
export type PagePosition = string | number | null;

/** A fetched page with what the traversal needs from the HTTP exchange besides the body. */
export class PageResponse {
  constructor(
    readonly body: unknown,
    /** The URL the page was read from (relative next links resolve against it). */
    readonly url: string,
    /** The `Link` response header, if any (the only header a traversal reads). */
    readonly link: string | null,
  ) {}
}

export interface TraversalBounds {
  /** Stop after this many pages (required: every traversal is bounded). */
  readonly maxPages: number;
  /** Stop once this many items were received. */
  readonly maxItems?: number;
  readonly signal?: AbortSignal;
  /**
   * Start from a previous traversal's `continuation` (page, offset and next-link styles; a cursor
   * continuation goes in the cursor input field). The only way to resume a next-link traversal.
   */
  readonly resumeFrom?: string | number;
}

export interface Completeness {
  /**
   * True only when every item that matched was received: from the first page, all of them; from a
   * continuation (`resumeFrom`, a cursor given in the input), every item from there to the end.
   */
  readonly complete: boolean;
  readonly pagesRead: number;
  readonly received: number;
  /** The total the platform declared (first page), when the contract declares one. */
  readonly declaredTotal: number | null;
  /**
   * Where to resume when incomplete, for the style's input field: a cursor, a next-page URL, a page
   * number or an offset (re-reads the page a maxItems cut fell in, except offsets, which resume
   * exactly); null when done.
   */
  readonly continuation: string | number | null;
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

/** Fetch the page at a position: its body, or a PageResponse when the style needs the URL or headers. */
type FetchPage = (position: PagePosition, signal?: AbortSignal) => Promise<unknown>;

/** Options of page and offset traversals: the page size asked for, when known (a shorter page is the last). */
export interface PagingOptions {
  readonly limit?: number | null;
}

/** The `rel="next"` target of an RFC 8288 Link header value, or null. */
export function nextLinkOf(header: string | null): string | null {
  if (header === null) return null;
  // `<uri>; param; rel="a b", <uri>; …`: a URI cannot hold `>`; the parameters run to the next `<`.
  for (const match of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    for (const param of match[2]!.split(";")) {
      const eq = param.indexOf("=");
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "rel") continue;
      const value = param.slice(eq + 1).trim().replace(/,\s*$/, "").replace(/^"|"$/g, "");
      if (value.toLowerCase().split(/\s+/).includes("next")) return match[1]!.trim();
    }
  }
  return null;
}

/**
 * The absolute URL of a next link if the traversal may follow it, else why not. Only the origin of
 * the first request is followed: the request carries the credential, which must never reach
 * another host a page happens to name.
 */
export function followable(raw: string, pageUrl: string, origin: string): { url: string } | { refused: string } {
  let url: URL;
  try {
    url = new URL(raw, pageUrl);
  } catch {
    return { refused: "the next link is not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { refused: `the next link's scheme ${JSON.stringify(url.protocol.slice(0, -1).slice(0, 20))} is not http or https` };
  if (url.username !== "" || url.password !== "") return { refused: "the next link carries user:password credentials" };
  if (url.origin !== origin) return { refused: `the next link points to another origin (${url.origin}); it was not followed, so no credential went there` };
  url.hash = "";
  return { url: url.href };
}

/**
 * Where a next-link page says the next one is: its URL when the traversal may follow it (on
 * `origin`, the first request's), else why not; null on the last page. `page` is the page's body
 * when it is an object (a next-link field is read there), `response` what it came with.
 */
export function nextPageLink(shape: PageShape, page: Readonly<Record<string, unknown>>, response: PageResponse | null, origin: string | null): { url: string } | { refused: string } | null {
  const source = shape.nextLink;
  const raw = source?.kind === "header" ? nextLinkOf(response?.link ?? null) : source?.kind === "field" && Object.hasOwn(page, source.field) ? page[source.field] : null;
  if (typeof raw !== "string" || raw === "") return null;
  return origin === null ? { refused: "the page's own URL is unknown, so the next link cannot be checked" } : followable(raw, response?.url ?? "", origin);
}

export class Paginator<T> implements AsyncIterable<T> {
  private report: Completeness | undefined;

  constructor(
    private readonly fetchPage: FetchPage,
    private readonly shape: PageShape,
    private readonly bounds: TraversalBounds,
    private readonly startPosition: PagePosition = null,
    private readonly options: PagingOptions = {},
  ) {
    // A traversal is always bounded: a caller in plain JavaScript can still leave the bounds out.
    if (typeof bounds !== "object" || bounds === null) throw new TypeError("a traversal needs bounds: { maxPages, maxItems? }");
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
    const style = shape.style ?? "cursor";
    const limit = this.options.limit ?? null;
    // Page and offset traversals always know where they are: the first page is explicit.
    let position: PagePosition = this.startPosition ?? (style === "page" ? (shape.firstPage ?? 1) : style === "offset" ? 0 : null);
    let origin: string | null = null;
    let pagesRead = 0;
    let received = 0;
    let declaredTotal: number | null = null;
    let partial = false;
    let stoppedBy: Completeness["stoppedBy"] = null;
    const errors: Array<{ page: number; error: unknown }> = [];
    const reasons: string[] = [];
    let continuation: PagePosition = null;

    for (;;) {
      if (pagesRead >= maxPages) {
        stoppedBy = "maxPages";
        continuation = position;
        reasons.push(`stopped after maxPages=${maxPages} with more pages available`);
        break;
      }
      const fetched = await this.fetchPage(position, signal);
      pagesRead++;
      const response = fetched instanceof PageResponse ? fetched : null;
      // Next links are followed on the origin of the first request only.
      if (origin === null && response !== null) origin = originOf(response.url);
      const body = response ? response.body : fetched;
      const page: Record<string, unknown> = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
      const listed = shape.itemsField === null ? body : page[shape.itemsField];
      const items = Array.isArray(listed) ? (listed as T[]) : [];
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

      // The position of the next page, or null when this page ends the traversal.
      let next: PagePosition = null;
      if (style === "cursor") {
        const raw = shape.nextCursorField !== null ? page[shape.nextCursorField] : null;
        next = typeof raw === "string" && raw !== "" ? raw : null;
      } else if (style === "next-link") {
        const target = nextPageLink(shape, page, response, origin);
        if (target !== null && "url" in target) next = target.url;
        else if (target !== null) reasons.push(`page ${pagesRead}: ${target.refused}`);
      } else {
        const total = declaredTotal;
        const seen = received + items.length;
        // A short page (or an empty one when the page size is unknown) is the last; so is the total.
        const last = items.length === 0 || (limit !== null && items.length < limit) || (total !== null && seen >= total);
        if (!last) next = style === "page" ? (position as number) + 1 : (position as number) + items.length;
      }

      let cut = false;
      let yielded = 0;
      for (const item of items) {
        if (maxItems !== undefined && received >= maxItems) {
          cut = true;
          break;
        }
        received++;
        yielded++;
        yield item;
      }
      const moreBeyondBound = cut || (maxItems !== undefined && received >= maxItems && next !== null);
      if (moreBeyondBound) {
        stoppedBy = "maxItems";
        // Cut inside a page: resuming re-reads that page (an offset resumes exactly after the last item).
        continuation = cut ? (style === "offset" ? (position as number) + yielded : position) : next;
        reasons.push(`stopped after maxItems=${maxItems} with more items available`);
        break;
      }
      if (next === null) break;
      position = next;
    }
    // The declared total counts the whole result. A traversal resumed from a continuation knows how
    // many items came before it only for offsets; from a cursor, link or page it cannot tell, so it
    // answers for the items from where it started (the caller holds what came before) and reports
    // only an impossible excess.
    const start = this.startPosition;
    const before = start === null || (style === "page" && start === (shape.firstPage ?? 1)) ? 0 : style === "offset" && typeof start === "number" ? start : null;
    if (stoppedBy === null && declaredTotal !== null && (before === null ? received > declaredTotal : before + received !== declaredTotal)) {
      reasons.push(before === null || before === 0 ? `received ${received} items but the platform declared ${declaredTotal}` : `received ${received} items after the first ${before} but the platform declared ${declaredTotal}`);
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

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** How a traversal reads one page: the input with the page's position set, or (next-link) the page's URL. */
export type PageReader = (input: Record<string, unknown>, url: string | null, signal: AbortSignal | undefined) => Promise<unknown>;

/** An operation's paging as the operation table records it. */
export type TraversalShape = PageShape & { readonly limitField: string | null; readonly limitDefault?: number | null };

/**
 * A bounded traversal of one paginated read, whatever reads its pages (the SDK client over HTTP, a
 * contract host in process): the position goes in the cursor, page or offset input field, a next
 * link is followed by URL, and a start position comes from the input or `bounds.resumeFrom`.
 */
export function traverse<T>(shape: TraversalShape, input: object, bounds: TraversalBounds, read: PageReader): Paginator<T> {
  const given = input as Record<string, unknown>;
  const own = (name: string) => (Object.prototype.hasOwnProperty.call(given, name) ? given[name] : undefined);
  const style = shape.style ?? "cursor";
  if (style === "cursor") {
    const cursorField = shape.cursorField!;
    const start = typeof own(cursorField) === "string" ? (own(cursorField) as string) : null;
    return new Paginator<T>(
      (cursor, signal) => {
        const pageInput: Record<string, unknown> = { ...given };
        if (cursor === null) delete pageInput[cursorField];
        else pageInput[cursorField] = cursor;
        return read(pageInput, null, signal);
      },
      shape,
      bounds,
      start,
    );
  }
  // Page and offset positions live in an input field; a next-link position is the URL itself.
  const positionField = style === "page" ? (shape.pageField ?? null) : style === "offset" ? (shape.offsetField ?? null) : null;
  const at = positionField !== null ? own(positionField) : undefined;
  const start: PagePosition = typeof bounds.resumeFrom === "string" || typeof bounds.resumeFrom === "number" ? bounds.resumeFrom : Number.isInteger(at) ? (at as number) : null;
  const requested = shape.limitField !== null ? own(shape.limitField) : undefined;
  const limit = typeof requested === "number" ? requested : (shape.limitDefault ?? null);
  return new Paginator<T>(
    (position, signal) => {
      if (style === "next-link" && typeof position === "string") return read(given, position, signal);
      const pageInput: Record<string, unknown> = { ...given };
      if (positionField !== null && typeof position === "number") pageInput[positionField] = position;
      return read(pageInput, null, signal);
    },
    shape,
    bounds,
    start,
    { limit },
  );
}
