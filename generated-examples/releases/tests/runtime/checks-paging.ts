/**
 * Completeness checks of bounded reads (docs/wire-protocol.md, "Pagination" and "Task-level
 * operations"): a list or count may only look complete when every record was received or examined.
 * Each check resets the implementation (through Fixture.resetWith / degrade when it needs another
 * state), aggregates the pages or answers itself the way the wire protocol defines completeness,
 * and throws a ContractViolation naming the broken promise.
 */
import { type CheckResult, noMember, noSample, resolve } from "./checks.js";
import { hasMeaning, type MeaningCase, meaningCases, propertyOf as recordProperty } from "./filter-meaning.js";
import { ContractViolation, type Exchange, type Harness, type Input, type OperationSpec, type ResetOptions, violation } from "./harness.js";

type Pagination = NonNullable<OperationSpec["pagination"]>;
type Task = NonNullable<OperationSpec["task"]>;

/** Enough pages for any test data set; a cursor that goes on longer never ends. */
const MAX_PAGES = 10_000;
/** Enough calls for any bounded scan the suite sets up. */
const MAX_TASK_CALLS = 1_000;
/** Pages a traversal may take beyond what its declared total needs before it is judged endless. */
const PAGE_MARGIN = 2;

function sampleOf(h: Harness, op: OperationSpec): Input | undefined {
  const input = h.fixture.sampleInput(op.id, 0);
  return input === undefined ? undefined : { ...input };
}

/** Reset into `options`, or say why the case cannot run. */
async function resetInto(h: Harness, options: ResetOptions, what: string): Promise<{ skip: string } | null> {
  if (!h.fixture.resetWith) return noMember("resetWith(state)", `reset into another known state (a data set, a per-call bound), so ${what} can be checked`, { kind: "resetWith", purpose: what });
  if (!(await h.fixture.resetWith(options))) return { skip: `fixture.resetWith(${JSON.stringify(options)}) answered false — make it provide ${what}` };
  return null;
}

// --- traversal and the suite's own aggregation ----------------------------------------------------

interface Page {
  readonly exchange: Exchange;
  readonly items: readonly unknown[];
  /** Where the next page is (cursor, URL, page number or offset); null when this page ends the traversal. */
  readonly next: string | number | null;
  /** The page said it is missing records (partial true, or errors reported). */
  readonly flagged: boolean;
}

/** A traversal as the wire protocol judges it, aggregated by the suite and never by the implementation. */
interface Traversal {
  readonly pages: readonly Page[];
  readonly items: readonly unknown[];
  readonly declaredTotal: number | null;
  /** 1-based numbers of the pages that said they are missing records. */
  readonly flagged: readonly number[];
  /** Complete only when the style's end signal ended it, no page was flagged, and the items received match the total. */
  readonly complete: boolean;
  /** Why it is incomplete, in words. */
  readonly reasons: readonly string[];
}

function styleOf(p: Pagination): "cursor" | "next-link" | "page" | "offset" {
  return p.style ?? "cursor";
}

/** What says "more pages follow", in words, for messages. */
function nextSignal(p: Pagination): string {
  switch (styleOf(p)) {
    case "cursor":
      return `${p.nextCursorField}`;
    case "next-link":
      return p.nextLink === "header" ? "a Link rel=\"next\"" : `${p.nextLink?.field ?? "a next link"}`;
    default:
      return "a full page";
  }
}

/** What moves a traversal on, in words, for messages: "the cursor", "the next link", "the page number", "the offset". */
function positionWord(p: Pagination): string {
  switch (styleOf(p)) {
    case "cursor":
      return "the cursor";
    case "next-link":
      return "the next link";
    case "page":
      return "the page number";
    default:
      return "the offset";
  }
}

/** The `rel="next"` target of a Link header (RFC 8288), or null. */
function linkNext(header: string | null): string | null {
  if (header === null) return null;
  for (const match of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    for (const param of match[2]!.split(";")) {
      const eq = param.indexOf("=");
      if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "rel") continue;
      const rels = param.slice(eq + 1).trim().replace(/,\s*$/, "").replace(/^"|"$/g, "").toLowerCase().split(/\s+/);
      if (rels.includes("next")) return match[1]!.trim();
    }
  }
  return null;
}

/**
 * Walk the pages of `op` from the first, `limit` items each (null: the platform's page size, when the
 * contract has no page-size field), for at most `maxPages` pages. Every page is checked on the way:
 * output schema, at most `limit` items, a next cursor or link that is a string or null, a stable
 * declared total, and partial/errors that agree with each other. Page and offset traversals end on a
 * page shorter than `limit` (an empty one when the size is unknown) or at the declared total.
 */
export async function traverse(h: Harness, op: OperationSpec, params: Input, limit: number | null, maxPages = MAX_PAGES): Promise<Traversal> {
  const p = op.pagination!;
  const style = styleOf(p);
  const pages: Page[] = [];
  const items: unknown[] = [];
  const flagged: number[] = [];
  const reasons: string[] = [];
  let declaredTotal: number | null = null;
  /** Page contents and next positions seen, with the page that first showed each. */
  const contents = new Map<string, number>();
  const positions = new Map<string, number>();
  let position: string | number | null = style === "page" ? (p.firstPage ?? 1) : style === "offset" ? 0 : null;
  for (;;) {
    if (pages.length >= maxPages) {
      reasons.push(`stopped after ${maxPages} page(s) with ${nextSignal(p)} still saying more follow`);
      break;
    }
    const input: Input = { ...params };
    if (limit !== null && p.limitField !== null) input[p.limitField] = limit;
    if (style === "cursor" && position !== null) input[p.cursorField!] = position;
    if (style === "page" && p.pageField) input[p.pageField] = position;
    if (style === "offset" && p.offsetField) input[p.offsetField] = position;
    const exchange = style === "next-link" && typeof position === "string" ? await h.call(op, input, { url: position }) : await h.call(op, input);
    const number = pages.length + 1;
    const body = h.expectSuccess(op, exchange, op.output, `page ${number}`);
    const pageItems = p.itemsField === null ? (body as unknown) : body[p.itemsField];
    if (!Array.isArray(pageItems)) throw violation(`${op.id}: a page must hold its items in ${p.itemsField ?? "the output array"}`, exchange);
    if (limit !== null && pageItems.length > limit) throw violation(`${op.id}: page ${number} holds ${pageItems.length} items, more than the ${limit} asked for`, exchange);
    const record: Record<string, unknown> = Array.isArray(body) ? {} : body;
    if (p.totalField) {
      const total = record[p.totalField];
      if (typeof total === "number") {
        if (declaredTotal !== null && total !== declaredTotal) throw violation(`${op.id}: the declared ${p.totalField} changed between pages (${declaredTotal}, then ${total})`, exchange);
        declaredTotal = total;
      }
    }
    let next: string | number | null;
    if (style === "cursor" || (style === "next-link" && p.nextLink !== "header")) {
      const field = style === "cursor" ? p.nextCursorField! : (p.nextLink as { field: string }).field;
      const raw = record[field];
      if (style === "cursor" ? raw !== null && (typeof raw !== "string" || raw === "") : raw !== null && raw !== undefined && (typeof raw !== "string" || raw === "")) {
        throw violation(`${op.id}: ${field} must be ${style === "cursor" ? "a cursor string" : "a URL string"}, or null on the last page`, exchange);
      }
      next = typeof raw === "string" ? raw : null;
    } else if (style === "next-link") {
      next = linkNext(exchange.headers.get("link"));
    } else {
      const seen = items.length + pageItems.length;
      const last = pageItems.length === 0 || (limit !== null && pageItems.length < limit) || (declaredTotal !== null && seen >= declaredTotal);
      next = last ? null : style === "page" ? (position as number) + 1 : (position as number) + pageItems.length;
    }
    const isFlagged = pageFlagged(op, p, record, exchange);
    if (isFlagged) {
      flagged.push(number);
      reasons.push(`page ${number} is missing records`);
    } else if (pageItems.length === 0 && number > 1 && (style === "cursor" || style === "next-link")) {
      // The server decides where a cursor or link traversal ends: the page holding the last records ends it.
      throw violation(
        `${op.id}: the last page's ${nextSignal(p)} must be null and no page may be empty after the first: page ${number - 1} gave ${nextSignal(p)} ${JSON.stringify(pages[number - 2]!.next)}, yet page ${number} is empty${next === null ? " (an empty last page)" : ""}`,
        exchange,
      );
    } else if (pageItems.length === 0 && next !== null) {
      throw violation(`${op.id}: an empty page that is not partial must be the last one (no ${nextSignal(p)})`, exchange);
    }
    // The cursor must advance: a page that repeats an earlier one (or a cursor given twice) never ends.
    if (pageItems.length > 0) {
      const content = JSON.stringify(pageItems);
      const earlier = contents.get(content);
      if (earlier !== undefined) throw violation(`${op.id}: ${positionWord(p)} does not advance: page ${number} repeats page ${earlier}`, exchange);
      contents.set(content, number);
    }
    if (typeof next === "string" && (style === "cursor" || style === "next-link")) {
      const earlier = positions.get(next);
      if (earlier !== undefined) throw violation(`${op.id}: ${positionWord(p)} does not advance: page ${number} gives the ${nextSignal(p)} page ${earlier} gave`, exchange);
      positions.set(next, number);
    }
    items.push(...pageItems);
    pages.push({ exchange, items: pageItems, next, flagged: isFlagged });
    if (next === null) break;
    // Bounded by the declared total: more records than it declares, or more pages than it needs (each
    // page before the last holds a record), and the traversal does not end.
    if (declaredTotal !== null && (items.length > declaredTotal || pages.length >= declaredTotal + PAGE_MARGIN)) {
      throw violation(
        `${op.id}: ${positionWord(p)} does not advance to the end: after ${pages.length} pages (${items.length} items) ${nextSignal(p)} still says more follow, but the declared ${p.totalField} is ${declaredTotal}`,
        exchange,
      );
    }
    position = next;
  }
  const ended = pages[pages.length - 1]?.next === null;
  if (ended && declaredTotal !== null && items.length !== declaredTotal) reasons.push(`received ${items.length} items but the pages declare ${declaredTotal}`);
  return { pages, items, declaredTotal, flagged, complete: ended && reasons.length === 0, reasons };
}

/** The largest page the contract allows, or null (the platform's own size) when it knows no bound. */
function largest(p: Pagination): number | null {
  return p.limitField !== null ? p.limitMax : null;
}

/**
 * Whether a page says it is missing records. Where the contract declares both fields they must
 * agree: a partial page says why in its errors, and a page reporting errors is partial.
 */
function pageFlagged(op: OperationSpec, p: Pagination, body: Record<string, unknown>, exchange: Exchange): boolean {
  const partial = p.partialField ? body[p.partialField] === true : null;
  const errors = p.errorsField ? body[p.errorsField] : undefined;
  const errorCount = Array.isArray(errors) ? errors.length : null;
  if (partial === true && errorCount === 0) throw violation(`${op.id}: a page with ${p.partialField}: true must say why in ${p.errorsField}`, exchange);
  if (partial === false && errorCount !== null && errorCount > 0) throw violation(`${op.id}: a page reporting ${p.errorsField} must say ${p.partialField}: true`, exchange);
  return partial === true || (errorCount ?? 0) > 0;
}

/** The records of a healthy traversal with the largest pages: what the other traversals are compared with. */
async function reference(h: Harness, op: OperationSpec, params: Input): Promise<Traversal> {
  const t = await traverse(h, op, params, largest(op.pagination!));
  const last = t.pages[t.pages.length - 1]!.exchange;
  if (t.flagged.length > 0) throw violation(`${op.id}: page ${t.flagged[0]} says it is missing records on a healthy store`, t.pages[t.flagged[0]! - 1]!.exchange);
  if (!t.complete) throw violation(`${op.id}: a healthy traversal is incomplete: ${t.reasons.join("; ")}`, last);
  return t;
}

/** A page size giving about three pages of `n` records. */
function thirdOf(n: number, limitMax: number | null): number {
  return Math.max(1, Math.min(limitMax ?? n, Math.ceil(n / 3)));
}

/** Why pages of a chosen size cannot be asked for, or null when they can. */
function unsized(p: Pagination): string | null {
  return p.limitField === null ? "the contract declares no page-size field, so pages of another size cannot be asked for" : null;
}

// --- pagination ---------------------------------------------------------------------------------------

/**
 * Next-link, page and offset reads in small pages (2 items, when the contract has a page-size
 * field): every page conforms, the traversal ends on its style's last page, nothing is flagged on a
 * healthy store, and the items match the declared total. (Cursor reads: checks.ts `traversal`.)
 */
export async function styledTraversal(h: Harness, op: OperationSpec, params: Input): Promise<CheckResult> {
  const p = op.pagination!;
  const t = await traverse(h, op, params, p.limitField !== null ? Math.min(2, p.limitMax ?? 2) : null);
  const last = t.pages[t.pages.length - 1]!.exchange;
  if (t.flagged.length > 0) throw violation(`${op.id}: page ${t.flagged[0]} says it is missing records on a healthy store`, t.pages[t.flagged[0]! - 1]!.exchange);
  if (!t.complete) throw violation(`${op.id}: the traversal is incomplete: ${t.reasons.join("; ")}`, last);
  if (t.items.length === 0) return { skip: "the sample data set is empty: nothing to traverse" };
}

/** On the empty data set the first page is empty, final and complete, and declares a total of 0. */
export async function emptyDataSet(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const skipped = await resetInto(h, { dataset: "empty" }, "the empty data set");
  if (skipped) return skipped;
  const params = sampleOf(h, op);
  if (!params) return noSample(op);
  const t = await traverse(h, op, params, largest(op.pagination!), 2);
  const first = t.pages[0]!;
  if (t.pages.length !== 1 || t.items.length !== 0) {
    throw violation(`${op.id}: on the empty data set the first page must hold no items and be the last (no ${nextSignal(op.pagination!)})`, first.exchange);
  }
  if (t.declaredTotal !== null && t.declaredTotal !== 0) throw violation(`${op.id}: on the empty data set the declared ${op.pagination!.totalField} must be 0`, first.exchange);
  if (!t.complete) throw violation(`${op.id}: the traversal of the empty data set must be complete: ${t.reasons.join("; ")}`, first.exchange);
}

/**
 * On the mixed data set a traversal in small pages is complete, its totals match, its last cursor
 * is null, and it returns the same records in the same order as one in the largest pages (nothing
 * skipped or repeated at page boundaries).
 */
export async function mixedDataSet(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const skipped = await resetInto(h, { dataset: "mixed" }, "the mixed data set");
  if (skipped) return skipped;
  const params = sampleOf(h, op);
  if (!params) return noSample(op);
  const whole = await reference(h, op, params);
  if (whole.items.length === 0) return { skip: "the mixed data set holds nothing the sample input lists" };
  const cannot = unsized(op.pagination!);
  if (cannot) return { skip: cannot };
  const limit = thirdOf(whole.items.length, op.pagination!.limitMax);
  const t = await traverse(h, op, params, limit);
  const last = t.pages[t.pages.length - 1]!.exchange;
  if (!t.complete) throw violation(`${op.id}: a traversal of the mixed data set in pages of ${limit} is incomplete: ${t.reasons.join("; ")}`, last);
  if (JSON.stringify(t.items) !== JSON.stringify(whole.items)) {
    throw violation(
      `${op.id}: pages of ${limit} returned ${t.items.length} records that differ from the ${whole.items.length} of pages of ${op.pagination!.limitMax ?? "the platform's size"} (skipped or repeated at a page boundary)`,
      last,
    );
  }
}

/**
 * Page limit reached: a page holding `limit` records of a larger set must carry a next cursor, so
 * a traversal that stops there says incomplete, and following it reaches every record.
 */
export async function fullPageHasNext(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const params = sampleOf(h, op);
  if (!params) return noSample(op);
  const whole = await reference(h, op, params);
  const n = whole.items.length;
  if (n < 2) return { skip: "the sample data set holds fewer than 2 records: no page can be full of a larger set" };
  const p = op.pagination!;
  const cannot = unsized(p);
  if (cannot) return { skip: cannot };
  const limit = Math.min(p.limitMax ?? n - 1, n - 1);
  const t = await traverse(h, op, params, limit);
  const first = t.pages[0]!;
  if (first.next === null) {
    throw violation(`${op.id}: page 1 holds ${first.items.length} of the ${n} records but ${styleOf(p) === "cursor" ? `says ${p.nextCursorField}: null` : `gives no ${nextSignal(p)}`}, so the traversal ends looking complete`, first.exchange);
  }
  const last = t.pages[t.pages.length - 1]!.exchange;
  if (!t.complete || t.items.length !== n) {
    throw violation(`${op.id}: pages of ${limit} gave ${t.items.length} of the ${n} records${t.reasons.length > 0 ? `: ${t.reasons.join("; ")}` : ""}`, last);
  }
}

/**
 * A degraded store (Fixture.degrade: a shard fails): the pages missing records say so, so the
 * suite's aggregation of the traversal stays incomplete even though later pages are clean, and no
 * record arrives twice.
 */
export async function degradedTraversal(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const p = op.pagination!;
  if (!p.partialField && !p.errorsField) return { skip: "the contract's pages cannot say they are partial (no partial or errors field)" };
  if (!h.fixture.degrade) return noMember("degrade(operation)", "make the store lose part of a page (answering true), so partial pages can be checked", { kind: "degrade", operation: op.id });
  await h.fixture.reset();
  const params = sampleOf(h, op);
  if (!params) return noSample(op);
  const whole = await reference(h, op, params);
  const n = whole.items.length;
  if (n < 2) return { skip: "the sample data set holds fewer than 2 records" };
  // Reads changed nothing: the same state, degraded from here on.
  if (!(await h.fixture.degrade(op.id))) return { skip: `fixture.degrade(${JSON.stringify(op.id)}) answered false — make it degrade ${op.id}'s store` };
  const limit = p.limitField === null ? null : thirdOf(n, p.limitMax);
  const t = await traverse(h, op, params, limit);
  const last = t.pages[t.pages.length - 1]!.exchange;
  const said = [p.partialField && `${p.partialField}: true`, p.errorsField && `a non-empty ${p.errorsField}`].filter(Boolean).join(" or ");
  if (t.flagged.length === 0) {
    if (t.items.length < n) {
      // Show the page that came up short, where the shard's records went missing.
      const short = t.pages.find((page) => page.next !== null && limit !== null && page.items.length < limit) ?? t.pages[t.pages.length - 1]!;
      throw violation(`${op.id}: a degraded traversal received ${t.items.length} of the ${n} records, but no page said ${said}: missing records look complete`, short.exchange);
    }
    return { skip: `degrading ${op.id} left every page whole: nothing to report` };
  }
  // The suite's own aggregation: a clean final page must not make an earlier partial page complete.
  if (t.complete) throw violation(`${op.id}: page ${t.flagged[0]} was partial, yet the traversal aggregates as complete`, last);
  const seen = new Set<string>();
  for (const item of t.items) {
    const key = JSON.stringify(item);
    if (seen.has(key)) throw violation(`${op.id}: a degraded traversal returned a record twice: ${key.slice(0, 200)}`, last);
    seen.add(key);
  }
  // The totals must not claim what was not received: a total shrunk to what arrived hides the missing records.
  if (p.totalField && t.items.length < n && t.declaredTotal === t.items.length) {
    throw violation(`${op.id}: the declared ${p.totalField} ${t.declaredTotal} is what arrived, not the ${n} records there are: it hides the records missing from partial pages`, last);
  }
}

// --- task-level operations --------------------------------------------------------------------------

interface Answer {
  readonly exchange: Exchange;
  readonly examined: number;
  readonly complete: boolean;
  readonly continuation: string | null;
  readonly answer: unknown;
}

/** The task's answer: its answer field, or everything but the task fields when the contract names none. */
function answerOf(task: Task, body: Record<string, unknown>): unknown {
  if (task.answerField) return body[task.answerField];
  const rest: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(body)) if (k !== task.recordsExaminedField && k !== task.completeField && k !== task.continuationField) rest[k] = v;
  return rest;
}

/**
 * Call a task operation and follow its continuations until it says complete (or cannot resume).
 * Each answer is checked: records examined is a count that never decreases (answers are
 * cumulative), a complete answer has no continuation, an incomplete one has one.
 */
async function runTask(h: Harness, op: OperationSpec, params: Input): Promise<Answer[]> {
  const task = op.task!;
  const answers: Answer[] = [];
  let continuation: string | null = null;
  for (;;) {
    if (answers.length >= MAX_TASK_CALLS) throw violation(`${op.id}: still incomplete after ${MAX_TASK_CALLS} calls: the continuation never ends`, answers[answers.length - 1]!.exchange);
    const input: Input = { ...params };
    if (continuation !== null && task.continuationField) input[task.continuationField] = continuation;
    const exchange = await h.call(op, input);
    const body = h.expectSuccess(op, exchange, op.output, answers.length === 0 ? "a first answer" : `answer ${answers.length + 1}`);
    const examined = body[task.recordsExaminedField];
    const complete = body[task.completeField];
    if (typeof examined !== "number" || !Number.isInteger(examined) || examined < 0) throw violation(`${op.id}: ${task.recordsExaminedField} must be a count of records`, exchange);
    if (typeof complete !== "boolean") throw violation(`${op.id}: ${task.completeField} must be true or false`, exchange);
    const previous = answers[answers.length - 1];
    if (previous && examined < previous.examined) {
      throw violation(`${op.id}: ${task.recordsExaminedField} decreased from ${previous.examined} to ${examined} on resuming (answers are cumulative)`, exchange);
    }
    let next: string | null = null;
    if (task.continuationField) {
      const c = body[task.continuationField];
      if (complete && c !== null && c !== undefined) throw violation(`${op.id}: a complete answer must say ${task.continuationField}: null`, exchange);
      if (!complete && (typeof c !== "string" || c === "")) throw violation(`${op.id}: an incomplete answer (${task.completeField}: false) must carry a ${task.continuationField} to resume from`, exchange);
      next = complete ? null : (c as string);
    }
    answers.push({ exchange, examined, complete, continuation: next, answer: answerOf(task, body) });
    if (complete || next === null) return answers;
    if (previous && examined === previous.examined) throw violation(`${op.id}: resuming examined no further record but is still incomplete`, exchange);
    continuation = next;
  }
}

/** On the empty data set a task completes at once having examined nothing. */
export async function taskEmptyDataSet(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const skipped = await resetInto(h, { dataset: "empty" }, "the empty data set");
  if (skipped) return skipped;
  const params = sampleOf(h, op);
  if (!params) return noSample(op);
  const answers = await runTask(h, op, params);
  const first = answers[0]!;
  if (answers.length !== 1 || !first.complete) throw violation(`${op.id}: on the empty data set the first answer must be complete`, first.exchange);
  if (first.examined !== 0) throw violation(`${op.id}: on the empty data set ${op.task!.recordsExaminedField} must be 0, not ${first.examined}`, first.exchange);
}

/**
 * Over the per-call bound (Fixture.resetWith maxExaminedPerCall, set to about a third of what a
 * complete run examines): no answer claims completeness before every record was examined, an
 * incomplete one carries a continuation, records examined never decrease, and following the
 * continuations ends complete with the answer and the records examined of an unbounded run (and of
 * Fixture.taskResult, when given).
 */
export async function taskBounded(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const task = op.task!;
  await h.fixture.reset();
  const params = sampleOf(h, op);
  if (!params) return noSample(op);
  const unbounded = await runTask(h, op, params);
  const whole = unbounded[unbounded.length - 1]!;
  if (!whole.complete) return { skip: `an unbounded run cannot complete without ${task.continuationField ?? "a continuation"}` };
  const expected = h.fixture.taskResult?.(op.id, params);
  if (expected && whole.examined !== expected.recordsExamined) {
    throw violation(`${op.id}: a complete answer examined ${whole.examined} records, the data set holds ${expected.recordsExamined} to examine`, whole.exchange);
  }
  if (expected && Object.hasOwn(expected, "answer") && JSON.stringify(whole.answer) !== JSON.stringify(expected.answer)) {
    throw violation(`${op.id}: the complete answer is ${JSON.stringify(whole.answer)}, the data set gives ${JSON.stringify(expected.answer)}`, whole.exchange);
  }
  const n = whole.examined;
  if (n < 2) return { skip: "a complete run examines fewer than 2 records: nothing to bound" };
  const bound = Math.max(1, Math.floor(n / 3));
  const skipped = await resetInto(h, { maxExaminedPerCall: bound }, `a per-call bound of ${bound} records`);
  if (skipped) return skipped;
  const bounded = await runTask(h, op, params);
  for (const a of bounded) {
    if (a.complete && a.examined !== n) {
      throw violation(`${op.id}: the answer says ${task.completeField}: true after examining ${a.examined} of the ${n} records (per-call bound ${bound})`, a.exchange);
    }
  }
  const last = bounded[bounded.length - 1]!;
  if (bounded.length === 1 && last.complete) throw violation(`${op.id}: one call examined all ${n} records although the per-call bound was lowered to ${bound}`, last.exchange);
  if (!last.complete) {
    // Only a contract without continuations ends incomplete here: the first answer said so, which is all it can do.
    if (task.continuationField) throw violation(`${op.id}: the bounded run ended incomplete`, last.exchange);
    return;
  }
  if (JSON.stringify(last.answer) !== JSON.stringify(whole.answer)) {
    throw violation(`${op.id}: following the continuations ends with ${JSON.stringify(last.answer)}, an unbounded run answers ${JSON.stringify(whole.answer)}`, last.exchange);
  }
}

// --- where a traversal ends, filters, and counts that agree with lists -------------------------------

/**
 * A traversal ends where the records end, in small pages and in the largest ones: the page holding
 * the last records ends it (its cursor or link is null, so no empty page follows a non-null one),
 * no page before the last is empty, and the cursor advances: a page that repeats an earlier page, a
 * cursor given twice, or more pages than the declared total needs fail at once, naming the page.
 */
export async function traversalEnds(h: Harness, op: OperationSpec): Promise<CheckResult> {
  await h.fixture.reset();
  const params = sampleOf(h, op);
  if (!params) return noSample(op);
  const p = op.pagination!;
  const sizes = [...new Set(p.limitField !== null ? [Math.min(2, p.limitMax ?? 2), largest(p)] : [null])];
  let received = 0;
  for (const limit of sizes) {
    const t = await traverse(h, op, params, limit);
    const last = t.pages[t.pages.length - 1]!.exchange;
    if (t.flagged.length > 0) throw violation(`${op.id}: page ${t.flagged[0]} says it is missing records on a healthy store`, t.pages[t.flagged[0]! - 1]!.exchange);
    if (!t.complete) throw violation(`${op.id}: a traversal in pages of ${limit ?? "the platform's size"} is incomplete: ${t.reasons.join("; ")}`, last);
    received = t.items.length;
  }
  if (received === 0) return { skip: "the sample data set is empty: nothing to traverse" };
}

/** At most this many values of a filter are taken from the data (every enum value is tried besides). */
const MAX_OCCURRING_VALUES = 3;

interface FilterCase {
  readonly field: string;
  readonly value: unknown;
  /** An equality filter: every item returned holds `value` in its property of the same name. */
  readonly equality: boolean;
}

function typesOf(s: Record<string, unknown>): string[] {
  if (typeof s.type === "string") return [s.type];
  return Array.isArray(s.type) ? s.type.filter((t): t is string => typeof t === "string") : [];
}

function propertyOf(item: unknown, field: string): unknown {
  return item !== null && typeof item === "object" && !Array.isArray(item) && Object.hasOwn(item, field) ? (item as Record<string, unknown>)[field] : undefined;
}

/**
 * The filter values to try on `op` beside `params`: each value its input schema enumerates (both
 * booleans for a boolean), and a few values its records hold in a property of the filter's name.
 * A filter the sample input already sets is left alone. A filter compares by equality when its
 * records carry the property and its schema is an enum, a boolean, a number, or a constrained
 * string (pattern, format): free text may be a search, which only the totals judge.
 */
function filterCases(h: Harness, op: OperationSpec, params: Input, items: readonly unknown[]): FilterCase[] {
  const root = op.input;
  const schema = resolve(root, root);
  const properties = (schema?.properties ?? {}) as Record<string, unknown>;
  const valid = h.validator(root);
  const cases: FilterCase[] = [];
  // A filter that says what it means is judged by that meaning (filterMeanings), not guessed at here.
  for (const { field } of (op.filters ?? []).filter((f) => !hasMeaning(f))) {
    if (Object.hasOwn(params, field)) continue;
    const s = resolve(root, properties[field]);
    if (!s) continue;
    const values: unknown[] = [];
    const add = (v: unknown): boolean => {
      if (values.some((x) => x === v) || !valid({ ...params, [field]: v })) return false;
      values.push(v);
      return true;
    };
    if (Array.isArray(s.enum)) for (const v of s.enum) add(v);
    const types = typesOf(s);
    if (types.includes("boolean")) {
      add(true);
      add(false);
    }
    let occurring = 0;
    for (const item of items) {
      if (occurring >= MAX_OCCURRING_VALUES) break;
      const v = propertyOf(item, field);
      if (v === null || v === undefined || typeof v === "object") continue;
      if (add(v)) occurring++;
    }
    const constrained =
      Array.isArray(s.enum) || s.const !== undefined || types.some((t) => t === "boolean" || t === "integer" || t === "number") || (types.includes("string") && (typeof s.pattern === "string" || typeof s.format === "string"));
    const equality = constrained && items.some((item) => propertyOf(item, field) !== undefined);
    for (const value of values) cases.push({ field, value, equality });
  }
  return cases;
}

function filterWords(c: FilterCase): string {
  return `with the filter ${c.field}=${JSON.stringify(c.value)}`;
}

/** Run `f`; a violation it throws says which filter value it happened with. */
async function withFilter<T>(op: OperationSpec, c: FilterCase, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof ContractViolation) throw new ContractViolation(`${op.id} ${filterWords(c)}: ${e.message}`);
    throw e;
  }
}

/**
 * Totals and filters agree: for each filter value (every enum value once, a few the data holds),
 * the filtered traversal succeeds and is complete, so its declared total counts exactly the items it
 * returns; for an equality filter every item holds the value, and the items are exactly those of the
 * unfiltered traversal that hold it.
 */
export async function filteredTraversals(h: Harness, op: OperationSpec): Promise<CheckResult> {
  if ((op.filters ?? []).filter((f) => !hasMeaning(f)).length === 0) return { skip: "the operation declares no filters without a meaning" };
  await h.fixture.reset();
  const params = sampleOf(h, op);
  if (!params) return noSample(op);
  const p = op.pagination!;
  const whole = await reference(h, op, params);
  const cases = filterCases(h, op, params, whole.items);
  if (cases.length === 0) return { skip: `no value of the filters (${filterNames(op).join(", ")}) to try: none is an enum or a boolean, or held by the records` };
  for (const c of cases) {
    const t = await withFilter(op, c, () => traverse(h, op, { ...params, [c.field]: c.value }, largest(p)));
    const last = t.pages[t.pages.length - 1]!.exchange;
    if (t.flagged.length > 0) throw violation(`${op.id} ${filterWords(c)}: page ${t.flagged[0]} says it is missing records on a healthy store`, t.pages[t.flagged[0]! - 1]!.exchange);
    if (!t.complete) {
      throw violation(`${op.id} ${filterWords(c)}: ${p.totalField ? `the declared ${p.totalField} must count exactly the items the filtered traversal returns` : "the filtered traversal is incomplete"}: ${t.reasons.join("; ")}`, last);
    }
    if (!c.equality) continue;
    for (const page of t.pages) {
      const wrong = page.items.find((item) => propertyOf(item, c.field) !== undefined && propertyOf(item, c.field) !== c.value);
      if (wrong !== undefined) {
        throw violation(`${op.id} ${filterWords(c)}: every item must satisfy the filter, yet one has ${c.field}=${JSON.stringify(propertyOf(wrong, c.field))}`, page.exchange);
      }
    }
    const expected = whole.items.filter((item) => propertyOf(item, c.field) === c.value).length;
    if (t.items.length !== expected) {
      throw violation(`${op.id} ${filterWords(c)}: the filtered traversal returned ${t.items.length} items, but ${expected} of the unfiltered traversal's hold ${c.field}=${JSON.stringify(c.value)}`, last);
    }
  }
}

/** The names of an operation's filter fields. */
function filterNames(op: OperationSpec): string[] {
  return (op.filters ?? []).map((f) => f.field);
}

function sameFilters(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((f) => b.includes(f));
}

/**
 * A count and the list declaring the same filters agree: for the sample input and each filter value
 * (every enum value once, a few the list's records hold), the count's complete answer is the number
 * of items the list's traversal with the same filter values returns.
 */
export async function taskAgreesWithList(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const filters = filterNames(op);
  if (filters.length === 0) return { skip: "the operation declares no filters" };
  const task = op.task!;
  if (!task.answerField) return { skip: "the task names no answer field to compare with a list" };
  const list = h.contract.operations.find((o) => o.id !== op.id && o.pagination && sameFilters(filterNames(o), filters));
  if (!list) return { skip: `no paginated operation declares the same filters (${filters.join(", ")})` };
  await h.fixture.reset();
  const params = sampleOf(h, op);
  const listParams = sampleOf(h, list);
  if (!params || !listParams) return { skip: `the fixture has no sample input for ${params ? list.id : op.id}` };
  for (const f of filters) {
    if (JSON.stringify(params[f]) !== JSON.stringify(listParams[f])) return { skip: `the sample inputs of ${op.id} and ${list.id} set the filter ${f} differently` };
  }
  const whole = await reference(h, list, listParams);
  const validTask = h.validator(op.input);
  const meant = filterMeaningCases(h, list, listParams, whole.items).map((m): FilterCase => ({ field: m.filter.field, value: m.value, equality: false }));
  const cases = [...filterCases(h, list, listParams, whole.items), ...meant].filter((c) => !Object.hasOwn(params, c.field) && validTask({ ...params, [c.field]: c.value }));
  let compared = 0;
  const compare = async (input: Input, listed: number, c?: FilterCase): Promise<void> => {
    const answers = c ? await withFilter(op, c, () => runTask(h, op, input)) : await runTask(h, op, input);
    const a = answers[answers.length - 1]!;
    // Only a complete numeric answer can be compared (a contract without continuations may end incomplete).
    if (!a.complete || typeof a.answer !== "number") return;
    compared++;
    if (a.answer !== listed) {
      throw violation(
        `${op.id}${c ? ` ${filterWords(c)}` : ""}: the count answers ${a.answer}, but ${list.id} returns ${listed} records for the same filter values: a count and a list sharing their filters must agree`,
        a.exchange,
      );
    }
  };
  await compare(params, whole.items.length);
  for (const c of cases) {
    const t = await withFilter(list, c, () => traverse(h, list, { ...listParams, [c.field]: c.value }, largest(list.pagination!)));
    if (!t.complete) throw violation(`${list.id} ${filterWords(c)}: the filtered traversal is incomplete: ${t.reasons.join("; ")}`, t.pages[t.pages.length - 1]!.exchange);
    await compare({ ...params, [c.field]: c.value }, t.items.length, c);
  }
  if (compared === 0) return { skip: `no complete numeric ${task.answerField} to compare with ${list.id}` };
}

// --- filters that say what they mean -------------------------------------------------------------

/** Records an unfiltered traversal may hold for the suite still to judge completeness against it. */
const MAX_COMPLETENESS_RECORDS = 10_000;

/**
 * The sample input with the filter's property selected, when a projection would leave it out: the
 * records must show the property the filter tests.
 */
function showing(op: OperationSpec, params: Input, property: string): Input {
  const projection = op.projection;
  if (!projection || !projection.selectable.includes(property)) return params;
  const selected = params[projection.field];
  if (!Array.isArray(selected) || selected.includes(property)) return params;
  return { ...params, [projection.field]: [...selected, property] };
}

/** The cases of every filter of `op` with a meaning, values from `records`, each valid input beside `params`. */
function filterMeaningCases(h: Harness, op: OperationSpec, params: Input, records: readonly unknown[]): MeaningCase[] {
  const root = op.input;
  const properties = (resolve(root, root)?.properties ?? {}) as Record<string, unknown>;
  const valid = h.validator(root);
  const out: MeaningCase[] = [];
  for (const filter of (op.filters ?? []).filter(hasMeaning)) {
    if (Object.hasOwn(params, filter.field)) continue;
    const schema = resolve(root, Object.hasOwn(properties, filter.field) ? properties[filter.field] : undefined);
    const isArray = schema !== null && (schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array")));
    out.push(...meaningCases(filter, records, { isArray }).filter((c) => valid({ ...params, [filter.field]: c.value })));
  }
  return out;
}

/** How a record is named in a message: its identity fields when the contract names them, else the record itself (cut short). */
function recordName(op: OperationSpec, record: unknown): string {
  const identity = op.projection?.identity ?? [];
  const named = identity.length > 0 ? identity : ["id"];
  const shown = named.filter((f) => recordProperty(record, f) !== undefined).map((f) => `${f}=${JSON.stringify(recordProperty(record, f))}`);
  if (shown.length > 0) return `the record with ${shown.join(", ")}`;
  const text = JSON.stringify(record) ?? String(record);
  return `the record ${text.length > 160 ? `${text.slice(0, 160)}…` : text}`;
}

function meaningWords(m: MeaningCase): string {
  return `with the filter ${m.filter.field}=${JSON.stringify(m.value)} (only records whose ${m.words})`;
}

/**
 * Each filter that says what it means selects exactly the records that satisfy it: for values taken
 * from the records of the unfiltered traversal (an element of an array for contains, a held value
 * for equals, a prefix and near misses of a string for prefix, a window with real values at its
 * ends for range), each sent through the field's own wire encoding, the filtered traversal succeeds
 * (no value from the data is refused or fails), is complete (its declared total counts exactly the
 * items it returns), every item satisfies the meaning, and no record of the unfiltered traversal
 * that satisfies it is missing.
 */
export async function filterMeanings(h: Harness, op: OperationSpec): Promise<CheckResult> {
  const meant = (op.filters ?? []).filter(hasMeaning);
  if (meant.length === 0) return { skip: "no filter of the operation says what it means" };
  await h.fixture.reset();
  const sample = sampleOf(h, op);
  if (!sample) return noSample(op);
  const p = op.pagination!;
  const unset = meant.filter((f) => !Object.hasOwn(sample, f.field));
  if (unset.length === 0) return { skip: `the sample input already sets every filter with a meaning (${meant.map((f) => f.field).join(", ")})` };
  let tried = 0;
  const empty: string[] = [];
  // Filters whose property the sample already shows share one unfiltered traversal.
  const references = new Map<string, Traversal>();
  for (const filter of unset) {
    const params = showing(op, sample, filter.property);
    const key = JSON.stringify(params);
    const whole = references.get(key) ?? (await reference(h, op, params));
    references.set(key, whole);
    const cases = filterMeaningCases(h, op, params, whole.items).filter((c) => c.filter.field === filter.field);
    if (cases.length === 0) {
      empty.push(`${filter.field} (no ${filter.property} value${filter.match === "contains" ? " element" : ""} among ${whole.items.length} records that the input schema accepts)`);
      continue;
    }
    for (const c of cases) {
      tried++;
      await judgeMeaning(h, op, p, params, whole.items, c);
    }
  }
  if (tried === 0) return { skip: `the data holds no value to try for ${empty.join("; ")}` };
}

async function judgeMeaning(h: Harness, op: OperationSpec, p: Pagination, params: Input, all: readonly unknown[], c: MeaningCase): Promise<void> {
  const t = await withMeaning(op, c, () => traverse(h, op, { ...params, [c.filter.field]: c.value }, largest(p)));
  const last = t.pages[t.pages.length - 1]!.exchange;
  if (t.flagged.length > 0) throw violation(`${op.id} ${meaningWords(c)}: page ${t.flagged[0]} says it is missing records on a healthy store`, t.pages[t.flagged[0]! - 1]!.exchange);
  if (!t.complete) {
    throw violation(`${op.id} ${meaningWords(c)}: ${p.totalField ? `the declared ${p.totalField} must count exactly the items the filtered traversal returns` : "the filtered traversal is incomplete"}: ${t.reasons.join("; ")}`, last);
  }
  const property = c.filter.property;
  for (const page of t.pages) {
    const wrong = page.items.find((item) => !c.satisfies(item));
    if (wrong !== undefined) {
      const held = recordProperty(wrong, property);
      throw violation(
        `${op.id} ${meaningWords(c)}: every item must satisfy the filter, yet ${recordName(op, wrong)} has ${property}=${held === undefined ? "(absent)" : JSON.stringify(held)}`,
        page.exchange,
      );
    }
  }
  if (all.length > MAX_COMPLETENESS_RECORDS) return;
  const expected = all.filter((item) => c.satisfies(item));
  if (t.items.length < expected.length) {
    const returned = new Set(t.items.map((item) => JSON.stringify(item)));
    const missing = expected.find((item) => !returned.has(JSON.stringify(item)));
    throw violation(
      `${op.id} ${meaningWords(c)}: the filtered traversal returned ${t.items.length} items, but ${expected.length} records of the unfiltered traversal satisfy the filter${missing !== undefined ? `; missing: ${recordName(op, missing)} (${property}=${JSON.stringify(recordProperty(missing, property))})` : ""}`,
      last,
    );
  }
}

/** Run `f`; a violation it throws says which filter value and meaning it happened with. */
async function withMeaning<T>(op: OperationSpec, c: MeaningCase, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof ContractViolation) throw new ContractViolation(`${op.id} ${meaningWords(c)}: ${e.message}`);
    throw e;
  }
}

