/**
 * Bounded reads through the generated SDKs against the reference incidents and releases platforms:
 * the incident question answered with filters and projection, completeness over whole traversals.
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import { startReleasesServer, STABLE_RELEASES_MIXED } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";

type IncidentsSdk = typeof import("../../generated-examples/incidents/sdk/index.js");
type ReleasesSdk = typeof import("../../generated-examples/releases/sdk/index.js");
const TOKEN = "e2e-reads-token";

let incidentsSdk: IncidentsSdk;
let releasesSdk: ReleasesSdk;
let incidents: RunningPlatform;
const started: RunningPlatform[] = [];

beforeAll(async () => {
  incidentsSdk = (await import(resolve("test-results/sdk/incidents/sdk/index.js"))) as IncidentsSdk;
  releasesSdk = (await import(resolve("test-results/sdk/releases/sdk/index.js"))) as ReleasesSdk;
  incidents = await startIncidentsServer({ token: TOKEN });
  started.push(incidents);
});
afterAll(async () => {
  for (const p of started) await p.close();
});

const incidentsClient = () => new incidentsSdk.IncidentsClient({ baseUrl: incidents.url, token: TOKEN, journal: false, retry: { initialDelayMs: 5 } });

describe("incidents SDK", () => {
  it("answers the incident question with filters and projection: INC-017 and INC-088, complete", async () => {
    const question = { status: "open", severity: "P1", service: "checkout", environment: "production", fields: ["id", "owner", "title"] } as const;
    const answer = await incidentsClient().listIncidentsAll(question, { maxPages: 10 }).collect();
    expect(answer.items.map((i) => i.id)).toEqual(["INC-017", "INC-088"]);
    expect(answer.items.map((i) => i.owner)).toEqual(["payments-oncall", "checkout-oncall"]);
    for (const item of answer.items) expect(Object.keys(item).sort()).toEqual(["id", "owner", "title"]);
    expect(answer).toMatchObject({ complete: true, declaredTotal: 2, received: 2, continuation: null, partial: false, errors: [], reasons: [] });
  });

  it("reads all 120 incidents in three pages of 40 and reports the traversal complete", async () => {
    const all = await incidentsClient().listIncidentsAll({ fields: ["id"] }, { maxPages: 10 }).collect();
    expect(all).toMatchObject({ complete: true, pagesRead: 3, received: 120, declaredTotal: 120 });
    expect(all.items.at(-1)!.id).toBe("INC-120");
  });

  it("a traversal stopped by maxPages is reported incomplete, with where to continue", async () => {
    const c = incidentsClient();
    const firstPage = await c.listIncidentsAll({ fields: ["id"] }, { maxPages: 1 }).collect();
    expect(firstPage).toMatchObject({ complete: false, pagesRead: 1, received: 40, declaredTotal: 120, stoppedBy: "maxPages" });
    expect(firstPage.continuation).toEqual(expect.any(String));
    expect(firstPage.items.map((i) => i.id)).not.toContain("INC-088"); // INC-088 is on the last page
    // Continuing from where it stopped reads the rest; that traversal alone is not the whole answer.
    const rest = await c.listIncidentsAll({ fields: ["id"], cursor: firstPage.continuation! }, { maxPages: 10 }).collect();
    expect(rest.items.map((i) => i.id)).toContain("INC-088");
    expect(firstPage.received + rest.received).toBe(120);
    expect(rest.continuation).toBeNull();
  });

  it("a partial page makes the whole traversal incomplete, with the page's errors", async () => {
    incidents.faults.partialPages = [{ operation: "list_incidents", page: 2, error: { code: "SHARD_UNAVAILABLE", message: "shard 3 timed out" } }];
    try {
      const r = await incidentsClient().listIncidentsAll({ fields: ["id"] }, { maxPages: 10 }).collect();
      expect(r.complete).toBe(false);
      expect(r.partial).toBe(true);
      expect(r.errors).toEqual([expect.objectContaining({ page: 2 })]);
      expect(r.received).toBeLessThan(120);
    } finally {
      incidents.faults.partialPages = [];
    }
  });
});

describe("releases SDK", () => {
  for (const [dataset, expected] of [["mixed", STABLE_RELEASES_MIXED], ["empty", 0]] as const) {
    it(`counts stable releases (draft == false && prerelease == false) in the ${dataset} data set, completely`, async () => {
      const platform = await startReleasesServer({ token: TOKEN, dataset });
      started.push(platform);
      const c = new releasesSdk.ReleasesClient({ baseUrl: platform.url, token: TOKEN, journal: false });
      const count = await c.countStableReleases({});
      expect(count.count).toBe(expected);
      expect(count.complete).toBe(true);
      const listed = await c.listReleasesAll({ draft: false, prerelease: false }, { maxPages: 20 }).collect();
      expect(listed.complete).toBe(true);
      expect(listed.items.length).toBe(expected);
    });
  }
});
