/**
 * The seed labs through code mode (issue 43): a scripted agent that knows each platform only through
 * its built MCP server in `--mode code` (bench/code-agent.mjs: the two tools, search_docs' answers,
 * its programs' results) answers the incident question, the release count and the refund flow as the
 * generated SDK answers them on the same platform. Reads cut short are continued from what the
 * result says; a preview is confirmed only in a later execute; a confirmation re-run is one effect.
 */
import { resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CodeAgent, incidentLabCode, refundLabCode, releaseCountLabCode } from "../../bench/code-agent.mjs";
import { startBillingServer } from "../../examples/billing/server.js";
import { OPEN_P1_CHECKOUT_PRODUCTION, startIncidentsServer } from "../../examples/incidents/server.js";
import { startReleasesServer, STABLE_RELEASES_MIXED } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { countTokens } from "../../src/budget/catalog.js";
import { connectStdio, type Connected, freshJournal, removeJournals } from "../mcp/support.js";

type BillingSdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");

const TOKEN = "code-lab-token-3d9a";
const started: RunningPlatform[] = [];
const connections: Connected[] = [];
afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await Promise.all(started.map((p) => p.close()));
  removeJournals();
});

async function platform(start: Promise<RunningPlatform>): Promise<RunningPlatform> {
  const p = await start;
  started.push(p);
  return p;
}

/** An agent over the built server of `example` in code mode, pointed at `p`, with a fresh journal. */
async function agentFor(example: string, envPrefix: string, p: RunningPlatform): Promise<CodeAgent> {
  const connected = await connectStdio(example, { [`${envPrefix}_TOKEN`]: TOKEN, [`${envPrefix}_BASE_URL`]: p.url }, ["--mode", "code", "--journal", freshJournal()]);
  connections.push(connected);
  return new CodeAgent({ client: connected.client, countTokens });
}

describe("the incident lab through code mode", () => {
  it("answers which open P1 incidents hit checkout in production, with owners and evidence, in one search and one program; the catalogue is the two tools", async () => {
    const p = await platform(startIncidentsServer({ token: TOKEN }));
    const agent = await agentFor("incidents", "INCIDENTS", p);
    const { answer, continuations } = await incidentLabCode(agent);
    expect(agent.tools).toEqual(["search_docs", "execute"]);
    expect(continuations).toBe(0);
    expect([agent.searches, agent.executes]).toEqual([1, 1]);
    expect(answer.map((i: { id: string }) => i.id)).toEqual([...OPEN_P1_CHECKOUT_PRODUCTION].sort());
    for (const incident of answer) expect(Object.keys(incident).sort()).toEqual(["evidence_ref", "id", "owner"]);
  });

  it("a traversal cut to one page of one incident says it is incomplete, and is continued from its continuation until whole", async () => {
    const p = await platform(startIncidentsServer({ token: TOKEN }));
    const { answer, continuations } = await incidentLabCode(await agentFor("incidents", "INCIDENTS", p), { maxPages: 1, limit: 1 });
    expect(continuations).toBe(OPEN_P1_CHECKOUT_PRODUCTION.length - 1);
    expect(answer.map((i: { id: string }) => i.id)).toEqual([...OPEN_P1_CHECKOUT_PRODUCTION].sort());
  });
});

describe("the release count through code mode", () => {
  it("counts stable releases as the SDK does; a count bounded per call is continued in the program until complete", async () => {
    for (const countMaxExamined of [undefined, 7]) {
      const p = await platform(startReleasesServer({ token: TOKEN, dataset: "mixed", ...(countMaxExamined ? { countMaxExamined } : {}) }));
      const { answer, continuations } = await releaseCountLabCode(await agentFor("releases", "RELEASES", p));
      expect(answer).toBe(STABLE_RELEASES_MIXED);
      if (countMaxExamined) expect(continuations).toBeGreaterThan(0);
      else expect(continuations).toBe(0);
    }
  });
});

describe("the refund flow through code mode", () => {
  it("refuses a program that previews and confirms in one go; confirms in a later execute with the preview's token; the re-run is the same refund, one effect", async () => {
    const p = await platform(startBillingServer({ token: TOKEN }));
    const { oneGo, preview, answer, retried } = await refundLabCode(await agentFor("billing.v2", "BILLING", p));
    expect(oneGo.error).toMatchObject({ code: "CODE_THREW", thrown: { code: "CODE_CONFIRM_SAME_PROGRAM", field: "confirm_token" } });
    expect(preview).toMatchObject({ invoice_id: "inv_1001" });
    expect(retried).toEqual(answer);
    const sdk = (await import(resolve("test-results/sdk/billing.v2/sdk/index.js"))) as BillingSdk;
    const after = await new sdk.BillingClient({ baseUrl: p.url, token: TOKEN, journal: false }).getInvoice({ invoice_id: "inv_1001" });
    expect(after.refunded_cents).toBe(1000);
  });
});
