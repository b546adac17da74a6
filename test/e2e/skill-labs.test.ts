/**
 * The seed labs through the Agent Skill (issue 42): a scripted agent that knows each platform only
 * through its generated skill (bench/skill-agent.mjs: SKILL.md, then the one reference its index
 * links, then the CLI as they show it) answers the incident question, the release count and the
 * refund flow exactly as the generated SDK answers them on the same platform. Bounds that cut every
 * read short make it follow the skill's continuation rules, never answer from a partial read.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { incidentLab, refundLab, releaseCountLab, SkillAgent } from "../../bench/skill-agent.mjs";
import { startBillingServer } from "../../examples/billing/server.js";
import { OPEN_P1_CHECKOUT_PRODUCTION, startIncidentsServer } from "../../examples/incidents/server.js";
import { startReleasesServer, STABLE_RELEASES_MIXED } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { countTokens } from "../../src/budget/catalog.js";

type IncidentsSdk = typeof import("../../generated-examples/incidents/sdk/index.js");
type ReleasesSdk = typeof import("../../generated-examples/releases/sdk/index.js");
type BillingSdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");

const TOKEN = "skill-lab-token-7c1e";
const dir = mkdtempSync(join(tmpdir(), "contractgen-skill-labs-"));
const started: RunningPlatform[] = [];
afterAll(async () => {
  await Promise.all(started.map((p) => p.close()));
});

async function platform(start: Promise<RunningPlatform>): Promise<RunningPlatform> {
  const p = await start;
  started.push(p);
  return p;
}

/** An agent for one generated example: its checked-in skill, its built CLI, a fresh journal. */
function agentFor(example: string, p: RunningPlatform, credential: string | null = TOKEN): SkillAgent {
  const skills = resolve(`generated-examples/${example}/skill`);
  const [name] = readdirSync(skills);
  return new SkillAgent({
    skillDir: join(skills, name!),
    cliMain: resolve(`test-results/sdk/${example}/cli/main.js`),
    countTokens,
    credential,
    baseUrl: p.url,
    journal: join(dir, `${example}-${Math.random().toString(36).slice(2)}.sqlite`),
  });
}

describe("the incident lab through the skill", () => {
  it("answers which open P1 incidents hit checkout in production, with owners and evidence, as the SDK does, reading SKILL.md and one reference", async () => {
    const p = await platform(startIncidentsServer({ token: TOKEN }));
    const agent = agentFor("incidents", p);
    const { answer, continuations } = await incidentLab(agent);
    expect(continuations).toBe(0);
    const sdk = (await import(resolve("test-results/sdk/incidents/sdk/index.js"))) as IncidentsSdk;
    const client = new sdk.IncidentsClient({ baseUrl: p.url, token: TOKEN, journal: false });
    const viaSdk = await client.listIncidentsAll({ status: "open", severity: "P1", service: "checkout", environment: "production", fields: ["id", "owner", "evidence_ref"] }, { maxPages: 10 }).collect();
    expect(viaSdk.complete).toBe(true);
    expect(answer).toEqual(viaSdk.items.map((i) => ({ id: i.id, owner: i.owner, evidence_ref: i.evidence_ref })).sort((a, b) => a.id.localeCompare(b.id)));
    expect(answer.map((i: { id: string }) => i.id)).toEqual([...OPEN_P1_CHECKOUT_PRODUCTION].sort());
    // The skill's body and exactly one reference: nothing else was read.
    expect(agent.cost().files).toEqual(["SKILL.md", "references/triage.md"]);
  });

  it("a read cut to one incident per page is continued as the reference says until whole (exit 10 is never taken for the answer)", async () => {
    const p = await platform(startIncidentsServer({ token: TOKEN }));
    const { answer, continuations } = await incidentLab(agentFor("incidents", p), { limit: 1, maxPages: 1 });
    expect(continuations).toBe(OPEN_P1_CHECKOUT_PRODUCTION.length - 1);
    expect(answer.map((i: { id: string }) => i.id)).toEqual([...OPEN_P1_CHECKOUT_PRODUCTION].sort());
  });
});

describe("the release count through the skill", () => {
  it("counts stable releases as the SDK does; a count bounded per call is resumed with the continuation the reference names", async () => {
    for (const countMaxExamined of [undefined, 7]) {
      const p = await platform(startReleasesServer({ token: TOKEN, dataset: "mixed", ...(countMaxExamined ? { countMaxExamined } : {}) }));
      const { answer, continuations } = await releaseCountLab(agentFor("releases", p));
      const sdk = (await import(resolve("test-results/sdk/releases/sdk/index.js"))) as ReleasesSdk;
      const fresh = await platform(startReleasesServer({ token: TOKEN, dataset: "mixed" }));
      const viaSdk = await new sdk.ReleasesClient({ baseUrl: fresh.url, token: TOKEN, journal: false }).countStableReleases({});
      expect(viaSdk.complete).toBe(true);
      expect(answer).toBe(viaSdk.count);
      expect(answer).toBe(STABLE_RELEASES_MIXED);
      if (countMaxExamined) expect(continuations).toBeGreaterThan(0);
      else expect(continuations).toBe(0);
    }
  });
});

describe("the refund flow through the skill", () => {
  it("previews, confirms with the token from the field the reference names, under one key; the retry is the same refund; the SDK's flow gives the same answers", async () => {
    const p = await platform(startBillingServer({ token: TOKEN }));
    const agent = agentFor("billing.v2", p);
    const { preview, answer, retried } = await refundLab(agent);
    expect(retried).toEqual(answer);
    const sdk = (await import(resolve("test-results/sdk/billing.v2/sdk/index.js"))) as BillingSdk;
    const fresh = await platform(startBillingServer({ token: TOKEN }));
    const client = new sdk.BillingClient({ baseUrl: fresh.url, token: TOKEN, journal: false });
    const sdkPreview = await client.previewRefundInvoice({ invoice_id: "inv_1001", amount: 1000 });
    const sdkDone = await client.refundInvoice({ invoice_id: "inv_1001", amount: 1000, confirm_token: sdkPreview.confirm_token });
    // Tokens, expiries and refund ids are minted per call; everything else is the same answer.
    const stable = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([k]) => !/token|expires|^id$|_id$|_at$/.test(k) || k === "invoice_id"));
    expect(stable(preview)).toEqual(stable(sdkPreview as unknown as Record<string, unknown>));
    expect(stable(answer)).toEqual(stable(sdkDone as unknown as Record<string, unknown>));
    // One refund in all on the agent's platform, as on the SDK's.
    const after = await new sdk.BillingClient({ baseUrl: p.url, token: TOKEN, journal: false }).getInvoice({ invoice_id: "inv_1001" });
    const sdkAfter = await client.getInvoice({ invoice_id: "inv_1001" });
    expect(after.refunded_cents).toBe(1000);
    expect(after.refunded_cents).toBe(sdkAfter.refunded_cents);
    expect(agent.cost().files).toEqual(["SKILL.md", "references/invoices.md"]);
  });
});
