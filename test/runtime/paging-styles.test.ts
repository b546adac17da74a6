/**
 * Traversals of the non-cursor paging styles through the SDK client, against an in-process HTTP
 * server: page numbers stop on a short page, offsets advance by the items received, next links are
 * followed (in an output field or the Link header) on the platform's origin only, and array outputs
 * are pages of items. A second server stands for a foreign host: it must never see a request.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { type ContractInfo, ContractClient, type OperationSpec, type Validator } from "../../src/runtime/client.js";
import { InvalidInputError } from "../../src/runtime/errors.js";
import { MemoryJournal } from "../../src/runtime/journal.js";
import { nextLinkOf } from "../../src/runtime/pagination.js";
import { platformAndForeignHost } from "../support/recording-server.js";

const TOKEN = "sk_paging_s3cr3t_T0k3n";
const NOTES = Array.from({ length: 5 }, (_, i) => ({ id: `n${i + 1}` }));
const ajv = new Ajv2020({ strict: false });
const compile = (schema: object): Validator => ajv.compile(schema);

const int = (q: URLSearchParams, name: string, fallback: number) => (q.has(name) ? Number(q.get(name)) : fallback);

/** Where the foreign host's address goes in a Link header (set per test). */
let linkTarget: ((base: string, page: number) => string) | null = null;
/** Whether the page and offset endpoints declare a total. */
let withTotal = false;

const { platform, foreign } = platformAndForeignHost((url, base) => {
  const q = url.searchParams;
  switch (url.pathname) {
    case "/page/notes": {
      const size = int(q, "per_page", 2);
      const page = int(q, "page", 0);
      return { body: NOTES.slice(page * size, page * size + size) };
    }
    case "/offset/notes": {
      // The platform caps every page at 2 items, whatever was asked.
      const offset = int(q, "offset", 0);
      return { body: { notes: NOTES.slice(offset, offset + 2), ...(withTotal ? { total: NOTES.length } : {}) } };
    }
    case "/link/notes": {
      const after = int(q, "after", 0);
      const next = after + 2 < NOTES.length ? (after === 0 ? `/link/notes?after=${after + 2}` : `${base}/link/notes?after=${after + 2}`) : null;
      return { body: { notes: NOTES.slice(after, after + 2), next } };
    }
    case "/header/notes": {
      const page = int(q, "page", 1);
      const size = int(q, "per_page", 2);
      const more = page * size < NOTES.length;
      const link = more ? (linkTarget ? linkTarget(base, page + 1) : `${base}/header/notes?page=${page + 1}&per_page=${size}`) : null;
      // Links besides rel="next" (first, last) must not be taken for it.
      const headers: Record<string, string> = { link: [`<${base}/header/notes?page=1&per_page=${size}>; rel="first"`, ...(link ? [`<${link}>; rel="next"`] : []), `<${base}/header/notes?page=3&per_page=${size}>; rel="last"`].join(", ") };
      return { body: NOTES.slice((page - 1) * size, page * size), headers };
    }
    default:
      return { body: null };
  }
}, () => {
  linkTarget = null;
  withTotal = false;
});

const contract = (): ContractInfo => ({
  name: "paging",
  version: "1.0.0",
  baseUrl: platform.base,
  baseUrlEnv: null,
  timeoutMs: 5000,
  auth: { type: "bearer", tokenEnv: "CONTRACTGEN_PAGING_TEST_TOKEN" },
  taxonomy: {},
});

const noteList = { type: "array", items: { type: "object", required: ["id"] } };
const anyInput = compile({ type: "object" });
const base = { mutating: false, idempotent: "natural", keyField: null, preview: null, errors: [], validateInput: anyInput, validatePreview: null } as const;
const styled = { cursorField: null, nextCursorField: null, partialField: null, errorsField: null, totalField: null } as const;

const byPage: OperationSpec = {
  ...base,
  id: "list_by_page",
  method: "GET",
  path: "/page/notes",
  bindings: [
    { field: "page", in: "query", name: "page" },
    { field: "per_page", in: "query", name: "per_page" },
  ],
  pagination: { ...styled, style: "page", pageField: "page", firstPage: 0, itemsField: null, limitField: "per_page", limitDefault: 2, limitMax: 20 },
  validateOutput: compile(noteList),
};

const byOffset: OperationSpec = {
  ...base,
  id: "list_by_offset",
  method: "GET",
  path: "/offset/notes",
  bindings: [
    { field: "offset", in: "query", name: "offset" },
    { field: "count", in: "query", name: "count" },
  ],
  pagination: { ...styled, style: "offset", offsetField: "offset", itemsField: "notes", totalField: "total", limitField: "count", limitDefault: null, limitMax: 25 },
  validateOutput: compile({ type: "object", required: ["notes"], properties: { notes: noteList, total: { type: "integer" } } }),
};

const byLinkField: OperationSpec = {
  ...base,
  id: "list_by_link_field",
  method: "GET",
  path: "/link/notes",
  bindings: [],
  pagination: { ...styled, style: "next-link", nextLink: { kind: "field", field: "next" }, itemsField: "notes", limitField: null, limitMax: null },
  validateOutput: compile({ type: "object", required: ["notes"], properties: { notes: noteList, next: { type: ["string", "null"] } } }),
};

const byLinkHeader: OperationSpec = {
  ...base,
  id: "list_by_link_header",
  method: "GET",
  path: "/header/notes",
  bindings: [{ field: "per_page", in: "query", name: "per_page" }],
  pagination: { ...styled, style: "next-link", nextLink: { kind: "header", header: "Link" }, itemsField: null, limitField: "per_page", limitDefault: 30, limitMax: 100 },
  validateOutput: compile(noteList),
};

const client = () => new ContractClient(contract(), { token: TOKEN, journal: new MemoryJournal(), retry: { maxAttempts: 1 } });
const ids = (items: unknown[]) => items.map((n) => (n as { id: string }).id);

describe("page-number paging", () => {
  it("counts pages from firstPage and stops on the first short page", async () => {
    const result = await client().paginate(byPage, { per_page: 2 }, { maxPages: 10 }).collect();
    expect(ids(result.items)).toEqual(["n1", "n2", "n3", "n4", "n5"]);
    // page 2 holds 1 of 2 items: the last; no request for page 3.
    expect(platform.seen.map((s) => s.query.get("page"))).toEqual(["0", "1", "2"]);
    expect(result).toMatchObject({ complete: true, pagesRead: 3, continuation: null, stoppedBy: null });
  });

  it("ends on an empty page when every page was full", async () => {
    const result = await client().paginate(byPage, { per_page: 5 }, { maxPages: 10 }).collect();
    expect(result.items).toHaveLength(5);
    expect(platform.seen.map((s) => s.query.get("page"))).toEqual(["0", "1"]);
    expect(result.complete).toBe(true);
  });

  it("judges a short page by the contract's default page size when the call gives none", async () => {
    // limitDefault 2 and the platform's default of 2: page 2 (1 item) is short.
    const result = await client().paginate(byPage, {}, { maxPages: 10 }).collect();
    expect(platform.seen.map((s) => s.query.get("page"))).toEqual(["0", "1", "2"]);
    expect(result.complete).toBe(true);
  });

  it("a maxPages stop is incomplete and resumes from the page number it gives", async () => {
    const first = await client().paginate(byPage, { per_page: 2 }, { maxPages: 1 }).collect();
    expect(first).toMatchObject({ complete: false, stoppedBy: "maxPages", continuation: 1 });
    const rest = await client().paginate(byPage, { per_page: 2 }, { maxPages: 10, resumeFrom: first.continuation! }).collect();
    expect(ids([...first.items, ...rest.items])).toEqual(["n1", "n2", "n3", "n4", "n5"]);
    expect(rest.complete).toBe(true);
  });
});

describe("offset paging", () => {
  it("advances the offset by the items received, and ends on an empty page when the page size is unknown", async () => {
    // No page size asked for and none declared: pages of 2 advance the offset by 2, the last by 1.
    const result = await client().paginate(byOffset, {}, { maxPages: 10 }).collect();
    expect(platform.seen.map((s) => s.query.get("offset"))).toEqual(["0", "2", "4", "5"]);
    expect(ids(result.items)).toEqual(["n1", "n2", "n3", "n4", "n5"]);
    expect(result).toMatchObject({ complete: true, pagesRead: 4 });
  });

  it("takes a page shorter than the size asked for as the last", async () => {
    const result = await client().paginate(byOffset, { count: 3 }, { maxPages: 10 }).collect();
    expect(platform.seen.map((s) => s.query.get("offset"))).toEqual(["0"]);
    expect(ids(result.items)).toEqual(["n1", "n2"]);
  });

  it("stops once the declared total is reached, and a maxItems cut resumes at the exact offset", async () => {
    withTotal = true;
    const whole = await client().paginate(byOffset, {}, { maxPages: 10 }).collect();
    expect(platform.seen.map((s) => s.query.get("offset"))).toEqual(["0", "2", "4"]);
    expect(whole).toMatchObject({ complete: true, received: 5, declaredTotal: 5 });
    const cut = await client().paginate(byOffset, {}, { maxPages: 10, maxItems: 3 }).collect();
    expect(cut).toMatchObject({ complete: false, stoppedBy: "maxItems", continuation: 3 });
    const rest = await client().paginate(byOffset, { offset: cut.continuation }, { maxPages: 10 }).collect();
    expect(ids(rest.items)).toEqual(["n4", "n5"]);
  });
});

describe("next-link paging", () => {
  it("follows a relative or absolute next link in an output field until it is null", async () => {
    const result = await client().paginate(byLinkField, {}, { maxPages: 10 }).collect();
    expect(ids(result.items)).toEqual(["n1", "n2", "n3", "n4", "n5"]);
    expect(platform.seen.map((s) => s.query.get("after"))).toEqual([null, "2", "4"]);
    expect(result).toMatchObject({ complete: true, pagesRead: 3 });
  });

  it("follows the Link header's rel=next (array pages), sending the credential to the platform only", async () => {
    const result = await client().paginate(byLinkHeader, { per_page: 2 }, { maxPages: 10 }).collect();
    expect(ids(result.items)).toEqual(["n1", "n2", "n3", "n4", "n5"]);
    expect(platform.seen.map((s) => s.query.get("page"))).toEqual([null, "2", "3"]);
    expect(platform.seen.every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(result.complete).toBe(true);
  });

  it("refuses a next link to another origin: nothing reaches it, and the traversal says it is incomplete", async () => {
    linkTarget = (_base, page) => `${foreign.base}/header/notes?page=${page}&per_page=2`;
    const result = await client().paginate(byLinkHeader, { per_page: 2 }, { maxPages: 10 }).collect();
    expect(foreign.seen).toEqual([]);
    expect(ids(result.items)).toEqual(["n1", "n2"]);
    expect(result.complete).toBe(false);
    expect(result.reasons.join(" ")).toMatch(/another origin/);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it("refuses to resume from a next link on another origin before anything is sent", async () => {
    const paginator = client().paginate(byLinkHeader, {}, { maxPages: 10, resumeFrom: `${foreign.base}/header/notes?page=2` });
    await expect(paginator.collect()).rejects.toBeInstanceOf(InvalidInputError);
    expect(foreign.seen).toEqual([]);
    expect(platform.seen).toEqual([]);
  });

  it("a maxPages stop gives the next link as the continuation, and resuming from it finishes", async () => {
    const first = await client().paginate(byLinkHeader, { per_page: 2 }, { maxPages: 1 }).collect();
    expect(first).toMatchObject({ complete: false, stoppedBy: "maxPages", continuation: `${platform.base}/header/notes?page=2&per_page=2` });
    const rest = await client().paginate(byLinkHeader, { per_page: 2 }, { maxPages: 10, resumeFrom: first.continuation! }).collect();
    expect(ids([...first.items, ...rest.items])).toEqual(["n1", "n2", "n3", "n4", "n5"]);
  });
});

describe("RFC 8288 Link header parsing", () => {
  it.each([
    ['<https://a.test/x?page=2>; rel="next"', "https://a.test/x?page=2"],
    ['<https://a.test/1>; rel="prev", <https://a.test/3>; rel="next", <https://a.test/9>; rel="last"', "https://a.test/3"],
    ["<https://a.test/3>; rel=next", "https://a.test/3"],
    ['<https://a.test/3>; title="a, b; c"; rel="prefetch next"', "https://a.test/3"],
    ['<https://a.test/3>; REL="Next"', "https://a.test/3"],
  ])("%s → %s", (header, next) => {
    expect(nextLinkOf(header)).toBe(next);
  });
  it.each([null, "", '<https://a.test/1>; rel="prev", <https://a.test/9>; rel="last"', '<https://a.test/3>; rel="nextpage"'])("%s has no next link", (header) => {
    expect(nextLinkOf(header)).toBeNull();
  });
});
