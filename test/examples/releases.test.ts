import { afterEach, describe, expect, it } from "vitest";
import {
  type Release,
  RELEASE_DATASETS,
  RELEASE_FACTS,
  type ReleaseDataset,
  releaseSeed,
  type ReleasesServerOptions,
  STABLE_RELEASES_DEFAULT,
  STABLE_RELEASES_EMPTY,
  STABLE_RELEASES_MIXED,
  startReleasesServer,
} from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { type Call, client, expectError, type Json, MINUTE, type QueryValue, TestClock } from "./http.js";

const TOKEN = "releases-test-token";
const READER_TOKEN = "releases-reader-token";
const isStable = (r: Release) => !r.draft && !r.prerelease;

let server: RunningPlatform | undefined;
let clock: TestClock;

async function start(options: ReleasesServerOptions = {}): Promise<{ call: Call; reader: Call }> {
  clock = new TestClock();
  server = await startReleasesServer({
    token: TOKEN,
    credentials: { [READER_TOKEN]: { caller: "reader", scopes: ["releases:read"] } },
    now: clock.now,
    ...options,
  });
  return { call: client(server.url, TOKEN), reader: client(server.url, READER_TOKEN) };
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function traverse(call: Call, query: Record<string, QueryValue | undefined>): Promise<{ pages: Json[]; releases: Release[] }> {
  const pages: Json[] = [];
  let cursor: string | undefined;
  do {
    const reply = await call("GET", "/releases", { query: { ...query, cursor } });
    expect(reply.status).toBe(200);
    pages.push(reply.body);
    cursor = reply.body.next_cursor ?? undefined;
  } while (cursor && pages.length < 50);
  return { pages, releases: pages.flatMap((p) => p.releases) };
}

async function countAll(call: Call, query: Record<string, QueryValue | undefined> = {}): Promise<Json[]> {
  const answers: Json[] = [];
  let continuation: string | undefined;
  do {
    const reply = await call("GET", "/stable-release-count", { query: { ...query, continuation } });
    expect(reply.status).toBe(200);
    answers.push(reply.body);
    continuation = reply.body.continuation ?? undefined;
  } while (continuation && answers.length < 50);
  return answers;
}

describe("releases: seed facts", () => {
  it.each(RELEASE_DATASETS)("the %s data set matches its documented facts", (dataset) => {
    const seed = releaseSeed(dataset);
    const facts = RELEASE_FACTS[dataset];
    expect(seed).toHaveLength(facts.releases);
    expect(seed.filter((r) => r.draft)).toHaveLength(facts.drafts);
    expect(seed.filter((r) => !r.draft)).toHaveLength(facts.visibleWithoutWrite);
    expect(seed.filter(isStable)).toHaveLength(facts.stable);
  });

  it("documents the stable counts: default 50, mixed 24, empty 0", () => {
    expect([STABLE_RELEASES_DEFAULT, STABLE_RELEASES_MIXED, STABLE_RELEASES_EMPTY]).toEqual([50, 24, 0]);
    const mixed = releaseSeed("mixed");
    // Only the flags decide: tags that look stable (or not) do not.
    expect(mixed.find((r) => r.tag_name === "v2.4.0")).toMatchObject({ draft: false, prerelease: true });
    expect(mixed.find((r) => r.tag_name === "v3.0.0-beta.1")).toMatchObject({ draft: false, prerelease: false });
  });
});

describe("releases: count_stable_releases", () => {
  it.each<[ReleaseDataset, number]>([
    ["default", STABLE_RELEASES_DEFAULT],
    ["mixed", STABLE_RELEASES_MIXED],
    ["empty", STABLE_RELEASES_EMPTY],
  ])("%s: count %i, every visible release examined", async (dataset, stable) => {
    const { call, reader } = await start({ dataset });
    const facts = RELEASE_FACTS[dataset];
    expect((await call("GET", "/stable-release-count")).body).toEqual({ count: stable, records_examined: facts.releases, complete: true, continuation: null });
    // Without releases:write drafts are invisible: fewer records examined, same stable count.
    expect((await reader("GET", "/stable-release-count")).body).toEqual({ count: stable, records_examined: facts.visibleWithoutWrite, complete: true, continuation: null });
  });

  it("tag_prefix narrows what is examined, case-sensitively", async () => {
    const { call } = await start({ dataset: "mixed" });
    const seed = releaseSeed("mixed");
    for (const prefix of ["v1.", "v2.", "v3.", "v3.0.0-beta", "V2.", "v4"]) {
      const considered = seed.filter((r) => r.tag_name.startsWith(prefix));
      expect((await call("GET", "/stable-release-count", { query: { tag_prefix: prefix } })).body, prefix).toEqual({
        count: considered.filter(isStable).length,
        records_examined: considered.length,
        complete: true,
        continuation: null,
      });
    }
  });

  it("honours the per-call bound: cumulative answers, the last one complete", async () => {
    const { call } = await start({ dataset: "mixed", countMaxExamined: 15 });
    const answers = await countAll(call);
    expect(answers.map((a) => [a.records_examined, a.complete])).toEqual([
      [15, false],
      [30, false],
      [40, true],
    ]);
    expect(answers.at(-1)).toEqual({ count: STABLE_RELEASES_MIXED, records_examined: 40, complete: true, continuation: null });
    const seed = releaseSeed("mixed");
    expect(answers[0].count).toBe(seed.slice(0, 15).filter(isStable).length);
  });

  it("continuations are bound to tag_prefix and expire after 10 minutes", async () => {
    const { call } = await start({ dataset: "default", countMaxExamined: 10 });
    const first = await call("GET", "/stable-release-count", { query: { tag_prefix: "v1." } });
    const continuation = first.body.continuation as string;
    expectError(await call("GET", "/stable-release-count", { query: { tag_prefix: "v1.1", continuation } }), 400, "INVALID_FIELD", "continuation");
    clock.advance(10 * MINUTE + 1);
    expectError(await call("GET", "/stable-release-count", { query: { tag_prefix: "v1.", continuation } }), 410, "CURSOR_EXPIRED", "continuation");
  });
});

describe("releases: list_releases", () => {
  it("default: 50 releases newest first, 30 per page by default, total_count 50, null final cursor", async () => {
    const { call } = await start();
    const { pages, releases } = await traverse(call, {});
    expect(pages.map((p) => p.releases.length)).toEqual([30, 20]);
    expect(pages.map((p) => p.total_count)).toEqual([50, 50]);
    expect(pages.map((p) => p.partial)).toEqual([false, false]);
    expect(pages[1].next_cursor).toBeNull();
    expect(releases).toEqual([...releaseSeed("default")].reverse());
  });

  it("mixed: filters match the flags exactly and drafts are only visible with releases:write", async () => {
    const { call, reader } = await start({ dataset: "mixed" });
    const seed = [...releaseSeed("mixed")].reverse();
    const cases: Array<[Record<string, QueryValue>, (r: Release) => boolean]> = [
      [{}, () => true],
      [{ draft: false, prerelease: false }, isStable],
      [{ draft: true }, (r) => r.draft],
      [{ prerelease: true }, (r) => r.prerelease],
      [{ tag_prefix: "v2." }, (r) => r.tag_name.startsWith("v2.")],
      [{ published_after: "2024-06-01T00:00:00Z" }, (r) => r.published_at !== null && r.published_at > "2024-06-01T00:00:00.000Z"],
    ];
    for (const [query, filter] of cases) {
      const all = await traverse(call, { ...query, limit: 7 });
      expect(all.releases.map((r) => r.tag_name), JSON.stringify(query)).toEqual(seed.filter(filter).map((r) => r.tag_name));
      expect(all.pages[0].total_count).toBe(all.releases.length);
      const visible = await traverse(reader, { ...query, limit: 7 });
      expect(visible.releases.map((r) => r.tag_name), `reader ${JSON.stringify(query)}`).toEqual(seed.filter((r) => !r.draft && filter(r)).map((r) => r.tag_name));
    }
    // draft=false&prerelease=false lists exactly the stable releases the count reports.
    expect((await call("GET", "/releases", { query: { draft: false, prerelease: false } })).body.total_count).toBe(STABLE_RELEASES_MIXED);
  });

  it("empty: one empty, complete page", async () => {
    const { call } = await start({ dataset: "empty" });
    expect((await call("GET", "/releases")).body).toEqual({ releases: [], next_cursor: null, total_count: 0, partial: false, errors: [] });
  });

  it("validates booleans, timestamps and page size", async () => {
    const { call } = await start();
    expectError(await call("GET", "/releases", { query: { draft: "yes" } }), 400, "INVALID_FIELD", "draft");
    expectError(await call("GET", "/releases", { query: { published_after: "yesterday" } }), 400, "INVALID_FIELD", "published_after");
    expectError(await call("GET", "/releases", { query: { limit: 101 } }), 400, "INVALID_FIELD", "limit");
    expect((await call("GET", "/releases", { query: { limit: 100 } })).body.releases).toHaveLength(50);
  });
});

describe("releases: get_release", () => {
  it("reads by numeric id; drafts are RELEASE_NOT_FOUND without releases:write", async () => {
    const { call, reader } = await start({ dataset: "mixed" });
    const draft = releaseSeed("mixed").find((r) => r.draft)!;
    const published = releaseSeed("mixed").find((r) => !r.draft && r.name === null)!;
    expect((await call("GET", `/releases/${draft.id}`)).body).toEqual(draft);
    expectError(await reader("GET", `/releases/${draft.id}`), 404, "RELEASE_NOT_FOUND");
    expect((await reader("GET", `/releases/${published.id}`)).body).toEqual(published);
    expectError(await call("GET", "/releases/1"), 404, "RELEASE_NOT_FOUND");
    expectError(await call("GET", "/releases/abc"), 400, "INVALID_FIELD", "release_id");
    expectError(await call("GET", "/releases/0"), 400, "INVALID_FIELD", "release_id");
    expectError(await call("GET", "/releases/1", { token: null }), 401, "TOKEN_INVALID");
  });
});
