import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type Incident,
  INCIDENT_SEED_FACTS,
  INCIDENT_TEAMS,
  incidentSeed,
  NEAR_MISS_INCIDENTS,
  OPEN_P1_CHECKOUT_PRODUCTION,
  startIncidentsServer,
} from "../../examples/incidents/server.js";
import type { Faults, RunningPlatform } from "../../examples/shared/host.js";
import { type Call, client, expectError, type Json, MINUTE, type QueryValue, TestClock } from "./http.js";

const TOKEN = "incidents-test-token";
const SEED = incidentSeed();
const ALL_IDS = SEED.map((i) => i.id);
const FOUR_FILTERS = { status: "open", severity: "P1", service: "checkout", environment: "production" } as const;

let server: RunningPlatform;
let call: Call;
let clock: TestClock;
let faults: Faults;

async function start(options: { countMaxExamined?: number } = {}) {
  clock = new TestClock();
  faults = {};
  server = await startIncidentsServer({ token: TOKEN, now: clock.now, faults, ...options });
  call = client(server.url, TOKEN);
}

beforeEach(() => start());
afterEach(async () => {
  await server.close();
});

interface Traversal {
  pages: Json[];
  ids: string[];
}

/** Follow next_cursor to the end, as a careful client would. */
async function traverse(query: Record<string, QueryValue | undefined>): Promise<Traversal> {
  const pages: Json[] = [];
  let cursor: string | undefined;
  do {
    const reply = await call("GET", "/incidents", { query: { ...query, cursor } });
    expect(reply.status).toBe(200);
    pages.push(reply.body);
    cursor = reply.body.next_cursor ?? undefined;
  } while (cursor && pages.length < 20);
  return { pages, ids: pages.flatMap((p) => p.incidents.map((i: { id: string }) => i.id)) };
}

/** The ids list_incidents must return for these filters, computed from the seed. */
function expectedIds(filter: (i: Incident) => boolean): string[] {
  return SEED.filter(filter).map((i) => i.id);
}

describe("incidents: seed facts", () => {
  it("has INC-001..INC-120, two open P1 checkout incidents in production and near misses of each filter", () => {
    expect(ALL_IDS).toHaveLength(INCIDENT_SEED_FACTS.total);
    expect(ALL_IDS[0]).toBe("INC-001");
    expect(ALL_IDS[119]).toBe("INC-120");
    const answers = SEED.filter((i) => i.status === "open" && i.severity === "P1" && i.service === "checkout" && i.environment === "production");
    expect(answers.map((i) => [i.id, i.owner])).toEqual([
      ["INC-017", "payments-oncall"],
      ["INC-088", "checkout-oncall"],
    ]);
    // Each near miss fails exactly one of the four filters.
    for (const id of NEAR_MISS_INCIDENTS) {
      const i = SEED.find((s) => s.id === id)!;
      const failing = [i.status !== "open", i.severity !== "P1", i.service !== "checkout", i.environment !== "production"].filter(Boolean);
      expect(failing, id).toHaveLength(1);
    }
    for (const kind of ["staging", "mitigated", "resolved", "P2", "payments", "checkout-api"]) {
      expect(NEAR_MISS_INCIDENTS.some((id) => Object.values(SEED.find((s) => s.id === id)!).includes(kind)), kind).toBe(true);
    }
    for (const incident of SEED) expect(INCIDENT_TEAMS).toContain(incident.owner);
  });
});

describe("incidents: list_incidents", () => {
  it("120 incidents at 40 per page: 3 pages, total 120 on each, null final cursor, INC-088 on page 3", async () => {
    const { pages, ids } = await traverse({});
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => p.incidents.length)).toEqual([40, 40, 40]);
    expect(pages.map((p) => p.total_matching)).toEqual([120, 120, 120]);
    expect(pages.map((p) => p.partial)).toEqual([false, false, false]);
    expect(pages.map((p) => p.errors)).toEqual([[], [], []]);
    expect(pages[2].next_cursor).toBeNull();
    expect(ids).toEqual(ALL_IDS);
    expect(pages).toHaveLength(INCIDENT_SEED_FACTS.pages);
    for (const [id, page] of Object.entries(INCIDENT_SEED_FACTS.pageOf)) {
      expect(pages[page - 1].incidents.map((i: { id: string }) => i.id)).toContain(id);
    }
  });

  it("orders by opened_at newest first, ties by id (INC-040 and INC-041 share opened_at across the page boundary)", async () => {
    const { pages } = await traverse({});
    const all = pages.flatMap((p) => p.incidents) as Incident[];
    for (let k = 1; k < all.length; k++) {
      const [a, b] = [all[k - 1]!, all[k]!];
      expect(a.opened_at > b.opened_at || (a.opened_at === b.opened_at && a.id < b.id), `${a.id} before ${b.id}`).toBe(true);
    }
    expect(all[39]!.opened_at).toBe(all[40]!.opened_at);
    expect([all[39]!.id, all[40]!.id]).toEqual(["INC-040", "INC-041"]);
  });

  it("status=open, severity=P1, service=checkout, environment=production finds exactly INC-017 and INC-088", async () => {
    const reply = await call("GET", "/incidents", { query: FOUR_FILTERS });
    expect(reply.status).toBe(200);
    expect(reply.body.incidents.map((i: Incident) => [i.id, i.owner])).toEqual([
      ["INC-017", "payments-oncall"],
      ["INC-088", "checkout-oncall"],
    ]);
    expect(reply.body).toMatchObject({ total_matching: 2, next_cursor: null, partial: false, errors: [] });
    // One per page: INC-088 is on the last page.
    const { pages } = await traverse({ ...FOUR_FILTERS, limit: 1 });
    expect(pages.map((p) => p.incidents[0].id)).toEqual([...OPEN_P1_CHECKOUT_PRODUCTION]);
    expect(pages.map((p) => p.total_matching)).toEqual([2, 2]);
  });

  it("every filter and combination matches what the seed says (omitted filters match everything)", async () => {
    const opened = SEED[59]!.opened_at;
    const cases: Array<[Record<string, string>, (i: Incident) => boolean]> = [
      [{ status: "open" }, (i) => i.status === "open"],
      [{ severity: "P1" }, (i) => i.severity === "P1"],
      [{ status: "open", severity: "P1" }, (i) => i.status === "open" && i.severity === "P1"],
      [{ service: "checkout" }, (i) => i.service === "checkout"],
      [{ environment: "staging", service: "checkout" }, (i) => i.environment === "staging" && i.service === "checkout"],
      [{ owner: "payments-oncall" }, (i) => i.owner === "payments-oncall"],
      [{ opened_after: opened }, (i) => i.opened_at > opened],
      // Same instant written with an offset: compared in UTC.
      [{ opened_after: new Date(Date.parse(opened)).toISOString().replace(/\.000Z$/, "+00:00") }, (i) => i.opened_at > opened],
      [{ opened_after: "2026-06-29T14:00:00+02:00", status: "resolved" }, (i) => i.opened_at > "2026-06-29T12:00:00.000Z" && i.status === "resolved"],
    ];
    for (const [query, filter] of cases) {
      const { ids, pages } = await traverse(query);
      expect(ids, JSON.stringify(query)).toEqual(expectedIds(filter));
      expect(pages[0].total_matching, JSON.stringify(query)).toBe(ids.length);
    }
  });

  it("opened_after is exclusive and needs an offset", async () => {
    const at = SEED.find((i) => i.id === "INC-050")!.opened_at;
    const { ids } = await traverse({ opened_after: at });
    expect(ids).toEqual(ALL_IDS.slice(0, 49));
    expectError(await call("GET", "/incidents", { query: { opened_after: "2026-06-01T00:00:00" } }), 400, "INVALID_FIELD", "opened_after");
  });

  it("projection: only the selected fields plus id", async () => {
    const reply = await call("GET", "/incidents", { query: { fields: ["title", "status"], ...FOUR_FILTERS } });
    expect(reply.status).toBe(200);
    for (const item of reply.body.incidents) expect(Object.keys(item).sort()).toEqual(["id", "status", "title"]);
    const idOnly = await call("GET", "/incidents", { query: { fields: ["id"], limit: 5 } });
    expect(idOnly.body.incidents).toEqual(ALL_IDS.slice(0, 5).map((id) => ({ id })));
    // Without fields every property is returned; summary is absent (not null) when none was written.
    const full = await call("GET", "/incidents", { query: { limit: 4 } });
    expect(Object.keys(full.body.incidents[0]).sort()).toEqual(Object.keys(SEED[0]!).sort());
    expect(full.body.incidents[2]).not.toHaveProperty("summary");
    expect(full.body.incidents).toEqual(SEED.slice(0, 4));
  });

  it("rejects bad filters, fields and page sizes with the field named", async () => {
    expectError(await call("GET", "/incidents", { query: { status: "closed" } }), 400, "INVALID_FIELD", "status");
    expectError(await call("GET", "/incidents", { query: { severity: "p1" } }), 400, "INVALID_FIELD", "severity");
    expectError(await call("GET", "/incidents", { query: { fields: ["title", "colour"] } }), 400, "INVALID_FIELD", "fields.1");
    expectError(await call("GET", "/incidents", { query: { fields: ["title", "title"] } }), 400, "INVALID_FIELD", "fields");
    expectError(await call("GET", "/incidents", { query: { limit: 41 } }), 400, "INVALID_FIELD", "limit");
    expectError(await call("GET", "/incidents", { query: { limit: 0 } }), 400, "INVALID_FIELD", "limit");
    expectError(await call("GET", "/incidents", { query: { status: ["open", "resolved"] } }), 400, "INVALID_FIELD", "status");
  });

  it("cursors are bound to their filters and fields and expire after 15 minutes", async () => {
    const first = await call("GET", "/incidents", { query: { status: "resolved", limit: 10 } });
    const cursor = first.body.next_cursor as string;
    expect(typeof cursor).toBe("string");
    expectError(await call("GET", "/incidents", { query: { status: "open", cursor } }), 400, "INVALID_FIELD", "cursor");
    expectError(await call("GET", "/incidents", { query: { status: "resolved", fields: ["title"], cursor } }), 400, "INVALID_FIELD", "cursor");
    expectError(await call("GET", "/incidents", { query: { status: "resolved", cursor: "garbage" } }), 400, "INVALID_FIELD", "cursor");
    clock.advance(15 * MINUTE);
    expect((await call("GET", "/incidents", { query: { status: "resolved", limit: 10, cursor } })).status).toBe(200);
    clock.advance(1);
    expectError(await call("GET", "/incidents", { query: { status: "resolved", limit: 10, cursor } }), 410, "CURSOR_EXPIRED", "cursor");
  });

  it("a partial page says so: partial true, errors filled, and the traversal is visibly incomplete", async () => {
    faults.partialPages = [{ operation: "list_incidents", page: 2, missing: 3, error: { code: "UPSTREAM_TIMEOUT", message: "Shard eu-2 timed out.", source: "shard-eu-2" } }];
    const { pages, ids } = await traverse({});
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => p.partial)).toEqual([false, true, false]);
    expect(pages[1].errors).toEqual([{ code: "UPSTREAM_TIMEOUT", message: "Shard eu-2 timed out.", source: "shard-eu-2" }]);
    expect(pages[1].incidents).toHaveLength(37);
    expect(pages[2].next_cursor).toBeNull();
    expect(pages[2].partial).toBe(false);
    // Completeness (wire protocol): null cursor, no partial page, and received == total. Not here.
    expect(ids.length).toBeLessThan(pages[0].total_matching);
  });
});

describe("incidents: count_incidents", () => {
  it("counts what list_incidents returns for the same filters, examining the whole register", async () => {
    const reply = await call("GET", "/incident-count", { query: FOUR_FILTERS });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ count: 2, records_examined: 120, complete: true, continuation: null });
    const all = await call("GET", "/incident-count");
    expect(all.body).toEqual({ count: 120, records_examined: 120, complete: true, continuation: null });
    const open = await call("GET", "/incident-count", { query: { status: "open" } });
    expect(open.body.count).toBe(expectedIds((i) => i.status === "open").length);
  });

  it("honours the per-call examination bound and resumes cumulatively from the continuation", async () => {
    await server.close();
    await start({ countMaxExamined: 50 });
    const answers: Json[] = [];
    let continuation: string | undefined;
    do {
      const reply = await call("GET", "/incident-count", { query: { ...FOUR_FILTERS, continuation } });
      expect(reply.status).toBe(200);
      answers.push(reply.body);
      continuation = reply.body.continuation ?? undefined;
    } while (continuation && answers.length < 10);
    expect(answers.map((a) => [a.records_examined, a.complete, a.count])).toEqual([
      [50, false, 1], // INC-017
      [100, false, 2], // INC-088
      [120, true, 2],
    ]);
    expect(answers[2].continuation).toBeNull();
  });

  it("continuations are bound to the filters and expire", async () => {
    await server.close();
    await start({ countMaxExamined: 50 });
    const first = await call("GET", "/incident-count", { query: { status: "open" } });
    const continuation = first.body.continuation as string;
    expectError(await call("GET", "/incident-count", { query: { status: "mitigated", continuation } }), 400, "INVALID_FIELD", "continuation");
    // A list cursor is not a continuation.
    const page = await call("GET", "/incidents", { query: { status: "open", limit: 1 } });
    expectError(await call("GET", "/incident-count", { query: { status: "open", continuation: page.body.next_cursor } }), 400, "INVALID_FIELD", "continuation");
    clock.advance(15 * MINUTE + 1);
    expectError(await call("GET", "/incident-count", { query: { status: "open", continuation } }), 410, "CURSOR_EXPIRED", "continuation");
  });
});

describe("incidents: get_incident and assign_incident", () => {
  it("reads one incident with every field", async () => {
    const reply = await call("GET", "/incidents/INC-017");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(SEED[16]);
    expectError(await call("GET", "/incidents/INC-999"), 404, "INCIDENT_NOT_FOUND");
    expectError(await call("GET", "/incidents/17"), 400, "INVALID_FIELD", "incident_id");
  });

  it("reassigns at the expected revision: owner, revision + 1 and updated_at (UTC) change", async () => {
    const before = SEED[16]!;
    clock.advance(MINUTE);
    const reply = await call("PUT", "/incidents/INC-017/owner", { headers: { "If-Match": String(before.revision) }, body: { owner: "checkout-oncall" } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ...before, owner: "checkout-oncall", revision: before.revision + 1, updated_at: clock.now().toISOString() });
    expect((await call("GET", "/incidents", { query: { ...FOUR_FILTERS, owner: "checkout-oncall" } })).body.total_matching).toBe(2);
  });

  it("stale expected_revision: 412 REVISION_CONFLICT, nothing changes", async () => {
    const before = SEED[87]!; // INC-088
    const error = expectError(
      await call("PUT", "/incidents/INC-088/owner", { headers: { "If-Match": String(before.revision + 1) }, body: { owner: "payments-oncall" } }),
      412,
      "REVISION_CONFLICT",
      // The precondition's input field (the If-Match header carries it).
      "expected_revision",
    );
    expect(error.details).toEqual({ revision: before.revision });
    expect((await call("GET", "/incidents/INC-088")).body).toEqual(before);
  });

  it("assigning the current owner succeeds without a change, whatever expected_revision says", async () => {
    const before = SEED[87]!;
    const reply = await call("PUT", "/incidents/INC-088/owner", { headers: { "If-Match": "99" }, body: { owner: before.owner } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(before);
  });

  it("refuses resolved incidents, unknown teams and a missing expected_revision", async () => {
    const resolved = SEED.find((i) => i.status === "resolved")!;
    expectError(
      await call("PUT", `/incidents/${resolved.id}/owner`, { headers: { "If-Match": String(resolved.revision) }, body: { owner: resolved.owner === "platform-oncall" ? "search-oncall" : "platform-oncall" } }),
      409,
      "INCIDENT_RESOLVED",
    );
    expectError(await call("PUT", "/incidents/INC-017/owner", { headers: { "If-Match": String(SEED[16]!.revision) }, body: { owner: "nobody-oncall" } }), 422, "UNKNOWN_TEAM", "owner");
    expectError(await call("PUT", "/incidents/INC-017/owner", { body: { owner: "checkout-oncall" } }), 400, "INVALID_FIELD", "expected_revision");
    expectError(await call("PUT", "/incidents/INC-404/owner", { headers: { "If-Match": "1" }, body: { owner: "checkout-oncall" } }), 404, "INCIDENT_NOT_FOUND");
    expect((await call("GET", "/incidents/INC-017")).body).toEqual(SEED[16]);
  });
});

describe("incidents: auth", () => {
  it("401 TOKEN_INVALID (the contract's unauthenticated code) without a valid bearer token", async () => {
    expectError(await call("GET", "/incidents", { token: null }), 401, "TOKEN_INVALID");
    expectError(await call("GET", "/incident-count", { token: "stale" }), 401, "TOKEN_INVALID");
  });
});
