/**
 * Bounded reads (docs/wire-protocol.md, "Pagination" and "Task-level operations"): keyset pages
 * with declared totals and partial-page reporting, and counts that examine a bounded number of
 * records per call and resume from a continuation. Output field names come from the contract.
 *
 * Cursors and continuations are signed (cursors.ts), expire, and are bound to the input they were
 * issued for (every field except the cursor and the page size), so a cursor reused with other
 * filters is refused instead of silently mixing two traversals.
 */
import type { HostOperation, HostPagination, HostTask } from "../../src/host-runtime/contract.js";
import { hashValue, without } from "../../src/host-runtime/canonical.js";
import type { HandlerContext } from "../../src/host-runtime/contract-host.js";
import { PlatformError } from "../../src/host-runtime/errors.js";
import { MATCH_ALL, type Sql, allOf, anyOf, condition, greaterThan } from "./sql.js";

export interface SortKey {
  readonly column: string;
  readonly direction: "asc" | "desc";
}

/** Expiry rules of cursors and continuations; the contract states them in prose, not in fields. */
export interface CursorPolicy {
  /** How long a cursor stays usable; null for no expiry. */
  readonly ttlMs: number | null;
  /** Code for an expired cursor (e.g. CURSOR_EXPIRED); null to treat it as invalid input. */
  readonly expiredCode: string | null;
}

export interface PageSource<Row> {
  /** Table (or view) name, from handler code. */
  readonly table: string;
  /** The filters (and what the caller may see). */
  readonly where: Sql;
  /** The contract's order. The last key must be unique and every key NOT NULL: each row has one place. */
  readonly orderBy: readonly SortKey[];
  readonly toItem: (row: Row) => object;
}

interface PageCursor {
  /** Sort-key values of the last row handed out. */
  readonly after: unknown[];
  /** Number of the page that issued the cursor (1-based). */
  readonly page: number;
}

/** One page of a paginated operation, shaped as its output (items, next cursor, total, partial, errors). */
export function listPage<Row>(ctx: HandlerContext, validInput: object, source: PageSource<Row>, policy: CursorPolicy): Record<string, unknown> {
  const input = validInput as Readonly<Record<string, unknown>>;
  const page = paginationOf(ctx.operation);
  const limit = pageLimit(page, input);
  const binding = hashValue(without(input, [page.cursorField, page.limitField]));
  const cursorText = input[page.cursorField];
  const cursor = typeof cursorText === "string" ? readPosition<PageCursor>(ctx, page.cursorField, cursorText, "page", binding, policy) : null;

  // A cursor of page 0 starts over (only the seeded defect cursor-restarts issues one).
  const position = cursor && cursor.page > 0 ? after(source.orderBy, cursor.after) : null;
  const where = allOf(source.where, position);
  const order = source.orderBy.map((k) => `${k.column} ${k.direction === "asc" ? "ASC" : "DESC"}`).join(", ");
  // The seeded defect total-ignores-filter counts every record of the table, whatever the filters say.
  const counted = ctx.seededDefect === "total-ignores-filter" ? MATCH_ALL : source.where;
  const total = (ctx.db.prepare(`SELECT COUNT(*) AS n FROM ${source.table} WHERE ${counted.text}`).get(...counted.params) as { n: number }).n;
  // Rows past this page that make it say "more follows": normally one; the seeded defect
  // stops-pagination-early wants a whole further page, so the page before the last ends the traversal.
  const lookahead = ctx.seededDefect === "stops-pagination-early" ? limit + 1 : 1;
  const rows = ctx.db.prepare(`SELECT * FROM ${source.table} WHERE ${where.text} ORDER BY ${order} LIMIT ?`).all(...where.params, limit + lookahead) as Row[];

  const onPage = rows.slice(0, limit);
  const last = onPage[onPage.length - 1];
  const pageNumber = (cursor?.page ?? 0) + 1;
  // The seeded defect empty-last-page-cursor gives every non-empty page a cursor, so an empty page ends the traversal.
  const more = rows.length >= limit + lookahead || (ctx.seededDefect === "empty-last-page-cursor" && onPage.length > 0);
  let next = more && last !== undefined ? issuePosition(ctx, "page", binding, { after: source.orderBy.map((k) => (last as Record<string, unknown>)[k.column]), page: pageNumber }) : null;
  // The seeded defect cursor-restarts: the cursor after page 2 points back to page 1.
  if (ctx.seededDefect === "cursor-restarts" && pageNumber === 2 && next !== null) next = issuePosition(ctx, "page", binding, { after: [], page: 0 });

  let items = onPage.map(source.toItem);
  const pageErrors: Array<Record<string, unknown>> = [];
  const fault = ctx.faults.partialPages?.find((f) => f.operation === ctx.operation.names.id && f.page === pageNumber);
  if (fault && page.partialField !== null) {
    // A shard that timed out: its items are missing from this page and the cursor moves past them.
    items = items.slice(0, Math.max(0, items.length - (fault.missing ?? 1)));
    pageErrors.push({ ...fault.error });
  }

  // The seeded defect drops-partial hides the shard failure: the page looks complete.
  if (ctx.seededDefect === "drops-partial") pageErrors.length = 0;
  const output: Record<string, unknown> = { [page.itemsField]: items, [page.nextCursorField]: next };
  if (page.totalField !== null) output[page.totalField] = ctx.seededDefect === "miscounts-total" ? total + 1 : total;
  if (page.partialField !== null) output[page.partialField] = pageErrors.length > 0;
  if (page.errorsField !== null) output[page.errorsField] = pageErrors;
  return output;
}

/** The page size a request asked for, or the contract's default (the host already refused sizes above the max). */
export function pageLimit(page: CursorPagination, input: Readonly<Record<string, unknown>>): number {
  const requested = input[page.limitField];
  return typeof requested === "number" ? requested : (page.limitDefault ?? page.limitMax);
}

export interface ScanSource {
  readonly table: string;
  /** The records a scan examines: what the caller may see, narrowed by filters that limit the scan. */
  readonly examined: Sql;
  /** The records it counts, among those examined. */
  readonly counted: Sql;
  /** Unique NOT NULL column giving the scan order. */
  readonly key: string;
}

export interface ScanPolicy extends CursorPolicy {
  /** The contract's bound on records examined by one call. */
  readonly maxExaminedPerCall: number;
}

/** Cumulative progress of a count, across the calls of one scan. */
export interface ScanProgress {
  readonly counted: number;
  readonly examined: number;
  readonly complete: boolean;
  readonly continuation: string | null;
}

interface ScanPosition {
  readonly after: unknown;
  readonly counted: number;
  readonly examined: number;
}

/** Examine up to the per-call bound of records after the continuation (if any), counting matches. */
export function countScan(ctx: HandlerContext, validInput: object, source: ScanSource, policy: ScanPolicy): ScanProgress {
  const input = validInput as Readonly<Record<string, unknown>>;
  const task = taskOf(ctx.operation);
  const binding = hashValue(without(input, [task.continuationField]));
  const text = task.continuationField !== null ? input[task.continuationField] : undefined;
  const resumed = typeof text === "string" && task.continuationField !== null ? readPosition<ScanPosition>(ctx, task.continuationField, text, "scan", binding, policy) : null;

  const examined = allOf(source.examined, resumed ? greaterThan(source.key, resumed.after) : null);
  const batch = ctx.db
    .prepare(
      `SELECT COUNT(*) AS examined, COALESCE(SUM(CASE WHEN ${source.counted.text} THEN 1 ELSE 0 END), 0) AS counted, MAX(${source.key}) AS last
       FROM (SELECT * FROM ${source.table} WHERE ${examined.text} ORDER BY ${source.key} LIMIT ?)`,
    )
    .get(...source.counted.params, ...examined.params, policy.maxExaminedPerCall) as { examined: number; counted: number; last: unknown };

  const progress = {
    counted: (resumed?.counted ?? 0) + batch.counted,
    examined: (resumed?.examined ?? 0) + batch.examined,
  };
  const rest = allOf(source.examined, greaterThan(source.key, batch.last));
  const more =
    batch.last !== null &&
    ctx.seededDefect !== "count-stops-early" &&
    ctx.db.prepare(`SELECT 1 FROM ${source.table} WHERE ${rest.text} LIMIT 1`).get(...rest.params) !== undefined;
  return {
    ...progress,
    complete: !more,
    continuation: more ? issuePosition(ctx, "scan", binding, { after: batch.last, ...progress }) : null,
  };
}

/** The task fields of a count's output, named as the contract names them. */
export function taskFields(op: HostOperation, progress: ScanProgress): Record<string, unknown> {
  const task = taskOf(op);
  const fields: Record<string, unknown> = {
    [task.recordsExaminedField]: progress.examined,
    [task.completeField]: progress.complete,
  };
  if (task.continuationField !== null) fields[task.continuationField] = progress.continuation;
  return fields;
}

// -- cursors and continuations -------------------------------------------------------------------

function issuePosition(ctx: HandlerContext, kind: string, binding: string, position: object): string {
  return ctx.cursors.encode({ op: ctx.operation.names.id, kind, binding, issuedAt: ctx.now().getTime(), position });
}

function readPosition<T>(ctx: HandlerContext, field: string, text: string, kind: string, binding: string, policy: CursorPolicy): T {
  const payload = ctx.cursors.decode(text);
  if (!payload || payload.op !== ctx.operation.names.id || payload.kind !== kind || typeof payload.issuedAt !== "number") {
    throw ctx.invalidInput(field, `${field} is not a value this operation issued; restart without it.`);
  }
  if (payload.binding !== binding) {
    throw ctx.invalidInput(field, `${field} was issued for different filters; send the same filters, or restart without it.`);
  }
  if (policy.ttlMs !== null && ctx.now().getTime() - payload.issuedAt > policy.ttlMs) {
    const message = `${field} has expired; restart from the beginning.`;
    throw policy.expiredCode ? new PlatformError(policy.expiredCode, message, { field }) : ctx.invalidInput(field, message);
  }
  return payload.position as T;
}

/** Rows strictly after `values` in the given order: (k1 > v1) OR (k1 = v1 AND k2 > v2) OR … */
function after(order: readonly SortKey[], values: readonly unknown[]): Sql {
  return anyOf(
    ...order.map((key, i) => {
      const ties = order.slice(0, i).map((k, j) => condition(`${k.column} = ?`, values[j]));
      return allOf(...ties, condition(`${key.column} ${key.direction === "asc" ? ">" : "<"} ?`, values[i]));
    }),
  );
}

/** The reference platforms page by keyset cursor only, with a bounded page size. */
type CursorPagination = HostPagination & { readonly cursorField: string; readonly nextCursorField: string; readonly itemsField: string; readonly limitField: string; readonly limitMax: number };

function paginationOf(op: HostOperation): CursorPagination {
  const p = op.pagination;
  if (!p) throw new Error(`${op.names.id} is not paginated.`);
  if (p.cursorField === null || p.nextCursorField === null || p.itemsField === null || p.limitField === null || p.limitMax === null) {
    throw new Error(`${op.names.id}: the reference platforms page by cursor, with items and a bounded limit.`);
  }
  return p as CursorPagination;
}

function taskOf(op: HostOperation): HostTask {
  if (!op.task) throw new Error(`${op.names.id} is not a task-level operation.`);
  return op.task;
}
