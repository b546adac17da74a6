/**
 * The completeness checks for the next-link, page and offset styles against a tiny in-process
 * platform that can break one promise at a time. The honest platform passes every check; each
 * broken promise fails the check that guards it.
 */
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/tests-runtime/checks.js";
import * as paging from "../../src/tests-runtime/checks-paging.js";
import { type ContractSpec, type Fixture, Harness, type OperationSpec } from "../../src/tests-runtime/harness.js";

type Fault = "none" | "offset-ignored" | "page-size-ignored" | "link-missing" | "link-foreign" | "full-page-short";

const RECORDS = 7;
const state = { fault: "none" as Fault, records: RECORDS };
let baseUrl = "";
let foreignUrl = "";
const foreignHits: string[] = [];

const common = {
  method: "GET" as const,
  successStatus: 200,
  kind: "read" as const,
  input: true,
  errors: [],
  idempotency: null,
  preview: null,
  preconditions: [],
};
const noPosition = { cursorField: null, nextCursorField: null, totalField: null, partialField: null, errorsField: null };

const byPage: OperationSpec = {
  ...common,
  id: "list_by_page",
  path: "/page",
  bindings: [
    { field: "page", in: "query", name: "page" },
    { field: "per_page", in: "query", name: "per_page" },
  ],
  output: { type: "array" },
  pagination: { ...noPosition, style: "page", pageField: "page", firstPage: 1, itemsField: null, limitField: "per_page", limitMax: 5 },
};

const byOffset: OperationSpec = {
  ...common,
  id: "list_by_offset",
  path: "/offset",
  bindings: [
    { field: "offset", in: "query", name: "offset" },
    { field: "count", in: "query", name: "count" },
  ],
  output: { type: "object", required: ["things", "total"] },
  pagination: { ...noPosition, style: "offset", offsetField: "offset", itemsField: "things", totalField: "total", limitField: "count", limitMax: 5 },
};

const byLink: OperationSpec = {
  ...common,
  id: "list_by_link",
  path: "/link",
  bindings: [{ field: "per_page", in: "query", name: "per_page" }],
  output: { type: "array" },
  pagination: { ...noPosition, style: "next-link", nextLink: "header", itemsField: null, limitField: "per_page", limitMax: 5 },
};

const things = (from: number, size: number) => Array.from({ length: Math.max(0, Math.min(size, state.records - from)) }, (_, i) => ({ id: from + i }));

let server: Server;
let foreign: Server;

const fixture: Fixture = {
  get baseUrl() {
    return baseUrl;
  },
  async reset() {
    state.records = RECORDS;
  },
  async resetWith(options) {
    await this.reset();
    if (options.dataset === "empty") state.records = 0;
    return true;
  },
  sampleInput: () => ({}),
};

const h = new Harness({ name: "things", version: "1", auth: { type: "none", header: null }, taxonomy: new Map(), operations: [byPage, byOffset, byLink] } as ContractSpec, fixture);

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", baseUrl);
    const q = url.searchParams;
    const headers: Record<string, string> = { "content-type": "application/json" };
    let body: unknown;
    if (url.pathname === "/page") {
      const size = Number(q.get("per_page") ?? 5);
      const page = Number(q.get("page") ?? 1);
      // Pages of its own size whatever was asked: a caller's short-page test goes wrong.
      body = state.fault === "page-size-ignored" ? things((page - 1) * 5, 5) : things((page - 1) * size, size);
    } else if (url.pathname === "/offset") {
      const offset = state.fault === "offset-ignored" ? 0 : Number(q.get("offset") ?? 0);
      body = { things: things(offset, Number(q.get("count") ?? 5)), total: state.records };
    } else {
      const size = Number(q.get("per_page") ?? 5);
      const page = Number(q.get("page") ?? 1);
      let items = things((page - 1) * size, size);
      if (state.fault === "full-page-short" && page === 1) items = items.slice(0, -1);
      body = items;
      const more = page * size < state.records;
      const target = state.fault === "link-foreign" ? foreignUrl : baseUrl;
      if (more && state.fault !== "link-missing") headers.link = `<${target}/link?page=${page + 1}&per_page=${size}>; rel="next"`;
    }
    res.writeHead(200, headers).end(JSON.stringify(body));
  });
  foreign = createServer((req, res) => {
    foreignHits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" }).end("[]");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => foreign.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => foreign.close(resolve));
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

describe("completeness checks pass against an honest platform, for each style", () => {
  for (const op of [byPage, byOffset, byLink]) {
    for (const [name, run] of [
      ["emptyDataSet", () => paging.emptyDataSet(h, op)],
      ["mixedDataSet", () => paging.mixedDataSet(h, op)],
      ["fullPageHasNext", () => paging.fullPageHasNext(h, op)],
      ["styledTraversal", () => paging.styledTraversal(h, op, {})],
      ["traversalEnds", () => paging.traversalEnds(h, op)],
    ] as const) {
      it(`${op.id}: ${name}`, async () => {
        expect(await outcome("none", run())).toBe("pass");
      });
    }
  }
  it("a style whose pages cannot say they are partial skips the degraded check with a reason", async () => {
    expect(await outcome("none", paging.degradedTraversal(h, byPage))).toMatch(/^skip: .*no partial or errors field/);
  });
});

describe("each broken promise fails its check", () => {
  it("an offset the platform ignores repeats records", async () => {
    expect(await outcome("offset-ignored", paging.mixedDataSet(h, byOffset))).toMatch(/^ContractViolation: .*(differ from|incomplete|declare|does not advance)/);
    expect(await outcome("offset-ignored", paging.traversalEnds(h, byOffset))).toMatch(/^ContractViolation: .*the offset does not advance: page 2 repeats page 1/);
  });
  it("a page larger than the size asked for is refused", async () => {
    expect(await outcome("page-size-ignored", paging.styledTraversal(h, byPage, {}))).toMatch(/^ContractViolation: .*holds 5 items, more than the 2 asked for/);
  });
  it("a full page without a Link rel=next ends the traversal looking complete", async () => {
    expect(await outcome("link-missing", paging.fullPageHasNext(h, byLink))).toMatch(/^ContractViolation: .*(gives no a Link rel="next"|incomplete)/);
  });
  it("a next link to another origin is refused, and nothing is sent there", async () => {
    foreignHits.length = 0;
    expect(await outcome("link-foreign", paging.styledTraversal(h, byLink, {}))).toMatch(/^ContractViolation: .*another origin/);
    expect(foreignHits).toEqual([]);
  });
  it("a page shorter than asked for, before the end, loses records", async () => {
    expect(await outcome("full-page-short", paging.mixedDataSet(h, byLink))).toMatch(/^ContractViolation: /);
  });
});
