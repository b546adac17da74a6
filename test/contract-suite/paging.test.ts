/**
 * The completeness checks (src/tests-runtime/checks-paging.ts) against a tiny in-process platform
 * whose list and count can break one promise at a time: each promise the checks guard fails its
 * check with a message naming it, and the honest platform passes every check.
 */
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/tests-runtime/checks.js";
import * as paging from "../../src/tests-runtime/checks-paging.js";
import { type ContractSpec, type Fixture, Harness, type OperationSpec, type ResetOptions } from "../../src/tests-runtime/harness.js";

type Fault =
  | "none"
  | "partial-without-errors"
  | "errors-without-partial"
  | "silent-shard"
  | "total-shrinks"
  | "repeats-record"
  | "full-page-ends"
  | "examined-decreases"
  | "incomplete-without-continuation"
  | "count-stops-early"
  | "wrong-final-answer"
  | "ignores-bound"
  | "empty-last-page"
  | "cursor-restarts"
  | "filter-ignored"
  | "total-ignores-filter"
  | "count-ignores-filter"
  | "filter-value-fails";

const RECORDS = 9;
const state = { fault: "none" as Fault, records: RECORDS, bound: 1000, degraded: false };

const list: OperationSpec = {
  id: "list_things",
  method: "GET",
  path: "/things",
  bindings: [
    { field: "cursor", in: "query", name: "cursor" },
    { field: "limit", in: "query", name: "limit" },
  ],
  successStatus: 200,
  kind: "read",
  input: true,
  output: { type: "object", required: ["things", "next_cursor", "total", "partial", "errors"] },
  errors: [],
  idempotency: null,
  preview: null,
  preconditions: [],
  pagination: { cursorField: "cursor", nextCursorField: "next_cursor", itemsField: "things", limitField: "limit", limitMax: 5, totalField: "total", partialField: "partial", errorsField: "errors" },
};

const count: OperationSpec = {
  ...list,
  id: "count_things",
  path: "/thing-count",
  bindings: [{ field: "continuation", in: "query", name: "continuation" }],
  output: { type: "object", required: ["count", "records_examined", "complete", "continuation"] },
  pagination: null,
  task: { recordsExaminedField: "records_examined", completeField: "complete", continuationField: "continuation", answerField: "count" },
};

/** A list and a count declaring the same filter, `kind` (an enum; "d" matches no record). */
const KINDS = ["a", "b", "c"] as const;
const kindInput = { kind: { type: "string", enum: ["a", "b", "c", "d"] } };
const filteredList: OperationSpec = {
  ...list,
  id: "list_filtered",
  path: "/filtered-things",
  bindings: [...list.bindings, { field: "kind", in: "query", name: "kind" }],
  input: { type: "object", properties: { ...kindInput, cursor: { type: "string" }, limit: { type: "integer" } } },
  filters: [{ field: "kind", property: null, match: null, bound: null, ends: null }],
};
/** The same list, its filter saying what it means: a record's kind equals the value. */
const meantList: OperationSpec = { ...filteredList, id: "list_meant", filters: [{ field: "kind", property: "kind", match: "equals", bound: null, ends: null }] };
const filteredCount: OperationSpec = {
  ...count,
  id: "count_filtered",
  path: "/filtered-count",
  bindings: [...count.bindings, { field: "kind", in: "query", name: "kind" }],
  input: { type: "object", properties: { ...kindInput, continuation: { type: "string" } } },
  filters: [{ field: "kind", property: null, match: null, bound: null, ends: null }],
};

/** A page of the filtered list, or null for a failure (500). */
function filteredPage(q: URLSearchParams): object | null {
  const kind = q.get("kind");
  if (state.fault === "filter-value-fails" && kind === "d") return null;
  const all = Array.from({ length: state.records }, (_, i) => ({ id: i, kind: KINDS[i % 3] }));
  const matching = kind === null || state.fault === "filter-ignored" ? all : all.filter((t) => t.kind === kind);
  const from = Number(q.get("cursor") ?? 0);
  const limit = Number(q.get("limit") ?? 5);
  const next = from + limit < matching.length ? String(from + limit) : null;
  const total = state.fault === "total-ignores-filter" ? all.length : matching.length;
  return { things: matching.slice(from, from + limit), next_cursor: next, total, partial: false, errors: [] };
}

function filteredCountAnswer(q: URLSearchParams): object {
  const kind = q.get("kind");
  const all = Array.from({ length: state.records }, (_, i) => KINDS[i % 3]);
  const counted = kind === null || state.fault === "count-ignores-filter" ? all.length : all.filter((k) => k === kind).length;
  return { count: counted, records_examined: all.length, complete: true, continuation: null };
}

/** Page `from` (a record index) of the things, honest unless the fault says otherwise. */
function page(from: number, limit: number): object {
  const n = state.records;
  let items = Array.from({ length: Math.max(0, Math.min(limit, n - from)) }, (_, i) => ({ id: from + i }));
  let next: number | null = from + limit < n ? from + limit : null;
  if (state.fault === "full-page-ends" && items.length === limit) next = null;
  // Every non-empty page says more follow: an empty page ends the traversal.
  if (state.fault === "empty-last-page" && items.length > 0) next = from + items.length;
  // The cursor after page 2 points back to page 1.
  if (state.fault === "cursor-restarts" && from === limit && next !== null) next = 0;
  let partial = false;
  let errors: object[] = [];
  if (state.degraded && from === 0) {
    items = items.slice(0, -1);
    partial = true;
    errors = [{ code: "UPSTREAM_TIMEOUT", message: "shard 1 timed out" }];
    if (state.fault === "partial-without-errors") errors = [];
    if (state.fault === "errors-without-partial") partial = false;
    if (state.fault === "silent-shard") [partial, errors] = [false, []];
  }
  if (state.degraded && state.fault === "repeats-record" && from > 0) items = [{ id: 0 }, ...items.slice(0, -1)];
  const total = state.degraded && state.fault === "total-shrinks" ? n - 1 : n;
  return { things: items, next_cursor: next === null ? null : String(next), total, partial, errors };
}

/** A cumulative count over `bound` records per call, resumed after record `after`; every record counts. */
function countAnswer(after: number): object {
  const n = state.records;
  const step = state.fault === "ignores-bound" ? n : state.bound;
  const examined = Math.min(n, after + step);
  let complete = examined >= n;
  let continuation: string | null = complete ? null : String(examined);
  if (state.fault === "count-stops-early") [complete, continuation] = [true, null];
  if (state.fault === "incomplete-without-continuation" && !complete) continuation = null;
  const reported = state.fault === "examined-decreases" && after > 0 ? after - 1 : examined;
  // Counts a record twice when resuming.
  const answer = complete && after > 0 && state.fault === "wrong-final-answer" ? examined + 1 : examined;
  return { count: answer, records_examined: reported, complete, continuation };
}

let server: Server;
let baseUrl = "";

const fixture: Fixture = {
  get baseUrl() {
    return baseUrl;
  },
  async reset() {
    Object.assign(state, { records: RECORDS, bound: 1000, degraded: false });
  },
  async resetWith(options: ResetOptions) {
    await this.reset();
    if (options.dataset === "empty") state.records = 0;
    if (options.maxExaminedPerCall !== undefined) state.bound = options.maxExaminedPerCall;
    return true;
  },
  async degrade() {
    state.degraded = true;
    return true;
  },
  sampleInput: () => ({}),
};

const h = new Harness({ name: "things", version: "1", auth: { type: "none", header: null }, taxonomy: new Map(), operations: [list, count, filteredList, filteredCount] } as ContractSpec, fixture);

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const at = Number(url.searchParams.get("cursor") ?? url.searchParams.get("continuation") ?? 0);
    const body =
      url.pathname === "/filtered-things"
        ? filteredPage(url.searchParams)
        : url.pathname === "/filtered-count"
          ? filteredCountAnswer(url.searchParams)
          : url.pathname === "/things"
            ? page(at, Number(url.searchParams.get("limit") ?? 5))
            : countAnswer(at);
    if (body === null) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "INTERNAL", message: "failed" } }));
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function outcome(fault: Fault, check: Promise<CheckResult>): Promise<string> {
  state.fault = fault;
  try {
    const result = await check;
    return result ? `skip: ${result.skip}` : "pass";
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
  } finally {
    state.fault = "none";
  }
}

describe("completeness checks pass against an honest platform", () => {
  for (const [name, run] of [
    ["emptyDataSet", () => paging.emptyDataSet(h, list)],
    ["mixedDataSet", () => paging.mixedDataSet(h, list)],
    ["fullPageHasNext", () => paging.fullPageHasNext(h, list)],
    ["degradedTraversal", () => paging.degradedTraversal(h, list)],
    ["taskEmptyDataSet", () => paging.taskEmptyDataSet(h, count)],
    ["taskBounded", () => paging.taskBounded(h, count)],
    ["traversalEnds", () => paging.traversalEnds(h, list)],
    ["filteredTraversals", () => paging.filteredTraversals(h, filteredList)],
    ["taskAgreesWithList", () => paging.taskAgreesWithList(h, filteredCount)],
    ["filterMeanings", () => paging.filterMeanings(h, meantList)],
  ] as const) {
    it(name, async () => {
      expect(await outcome("none", run())).toBe("pass");
    });
  }
});

describe("each broken promise fails its check, saying which", () => {
  const cases: Array<[Fault, () => Promise<CheckResult>, RegExp]> = [
    ["silent-shard", () => paging.degradedTraversal(h, list), /received 8 of the 9 records, but no page said partial: true or a non-empty errors/],
    ["partial-without-errors", () => paging.degradedTraversal(h, list), /partial: true must say why in errors/],
    ["errors-without-partial", () => paging.degradedTraversal(h, list), /reporting errors must say partial: true/],
    ["total-shrinks", () => paging.degradedTraversal(h, list), /declared total 8 is what arrived, not the 9 records/],
    ["repeats-record", () => paging.degradedTraversal(h, list), /returned a record twice/],
    ["full-page-ends", () => paging.fullPageHasNext(h, list), /page 1 holds 5 of the 9 records but says next_cursor: null|healthy traversal is incomplete/],
    ["count-stops-early", () => paging.taskBounded(h, count), /complete: true after examining 3 of the 9 records/],
    ["examined-decreases", () => paging.taskBounded(h, count), /records_examined decreased/],
    ["incomplete-without-continuation", () => paging.taskBounded(h, count), /incomplete answer \(complete: false\) must carry a continuation/],
    ["wrong-final-answer", () => paging.taskBounded(h, count), /ends with 10, an unbounded run answers 9/],
    ["ignores-bound", () => paging.taskBounded(h, count), /one call examined all 9 records although the per-call bound was lowered to 3/],
    ["empty-last-page", () => paging.traversalEnds(h, list), /the last page's next_cursor must be null and no page may be empty after the first: page 5 gave next_cursor "9", yet page 6 is empty \(an empty last page\)/],
    ["cursor-restarts", () => paging.traversalEnds(h, list), /the cursor does not advance: page 3 repeats page 1/],
    ["filter-ignored", () => paging.filteredTraversals(h, filteredList), /with the filter kind="a": every item must satisfy the filter, yet one has kind="b"/],
    ["total-ignores-filter", () => paging.filteredTraversals(h, filteredList), /with the filter kind="a": the declared total must count exactly the items the filtered traversal returns: received 3 items but the pages declare 9/],
    ["filter-value-fails", () => paging.filteredTraversals(h, filteredList), /list_filtered with the filter kind="d": /],
    ["filter-ignored", () => paging.filterMeanings(h, meantList), /list_meant with the filter kind="a" \(only records whose kind equals "a"\): every item must satisfy the filter, yet the record with id=1 has kind="b"/],
    ["total-ignores-filter", () => paging.filterMeanings(h, meantList), /list_meant with the filter kind="a" \(only records whose kind equals "a"\): the declared total must count exactly the items the filtered traversal returns: received 3 items but the pages declare 9/],
    ["count-ignores-filter", () => paging.taskAgreesWithList(h, filteredCount), /count_filtered with the filter kind="a": the count answers 9, but list_filtered returns 3 records for the same filter values/],
  ];
  for (const [fault, run, message] of cases) {
    it(fault, async () => {
      expect(await outcome(fault, run())).toMatch(new RegExp(`^ContractViolation: .*(${message.source})`));
    });
  }
});
