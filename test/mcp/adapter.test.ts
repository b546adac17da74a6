/**
 * Adapter mode through a real MCP Client: a write whose answer was lost after the platform committed
 * is finished by a new server process sharing the journal (one customer, never two); a key reused
 * with other parameters is refused; the release count states its completeness.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { startReleasesServer, STABLE_RELEASES_MIXED, RELEASE_FACTS } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { type LossyProxy, startLossyProxy } from "../e2e/lossy-proxy.js";
import { connectInMemory, connectStdio, text } from "./support.js";

const TOKEN = "mcp-adapter-token-91d3";
const dir = mkdtempSync(join(tmpdir(), "mcp-adapter-"));
let billing: RunningPlatform;

beforeAll(async () => {
  billing = await startBillingServer({ token: TOKEN });
});
afterAll(async () => {
  await billing?.close();
  rmSync(dir, { recursive: true, force: true });
});

const customersWithEmail = (email: string) => (billing.db.prepare("SELECT COUNT(*) AS n FROM customers WHERE email = ?").get(email) as { n: number }).n;

/** Wait until a process is gone (kill -9 is asynchronous). */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`process ${pid} is still alive`);
}

describe("lost response across server processes (stdio)", () => {
  it("the answer is lost after commit: isError unknown/retry_same_key; a new server process with the same journal and key ⇒ the recorded customer, one in all", async () => {
    let dropped = false;
    let proxy: LossyProxy | undefined;
    const env = { BILLING_TOKEN: TOKEN, BILLING_JOURNAL: join(dir, "lost.sqlite") };
    try {
      proxy = await startLossyProxy(billing.url, (req) => {
        if (dropped || req.method !== "POST" || req.url !== "/customers") return false;
        dropped = true;
        return true;
      });
      const args = { email: "mcp.lost@example.com", name: "MCP Lost", idempotency_key: "6b1d3c2e-4f5a-4b7c-8d9e-0a1b2c3d4e5f" };

      const first = await connectStdio("billing.v2", { ...env, BILLING_BASE_URL: proxy.url });
      const lost = await first.call("create_customer", args);
      expect(proxy.stats.dropped).toBe(1);
      expect(lost.isError).toBe(true);
      expect(lost.structuredContent).toBeUndefined();
      expect(text(lost).error).toMatchObject({ class: "transient", outcome: "unknown", nextAction: "retry_same_key", operation: "create_customer", operationKey: args.idempotency_key });
      expect(customersWithEmail(args.email)).toBe(1); // the platform did commit
      expect(JSON.stringify(lost) + first.stderr()).not.toContain(TOKEN);
      // The server process dies (no orderly shutdown): only the journal file survives.
      process.kill(first.pid, "SIGKILL");
      await gone(first.pid);
      await first.close();

      const second = await connectStdio("billing.v2", { ...env, BILLING_BASE_URL: proxy.url });
      try {
        // First the same key with other parameters: the shared journal knows the key and refuses it
        // before anything is sent, as the SDK does (a fresh journal would let the platform answer).
        const forwarded = proxy.stats.forwarded;
        const changed = await second.call("create_customer", { ...args, name: "MCP Lost, renamed" });
        expect(changed.isError).toBe(true);
        expect(text(changed).error).toMatchObject({ code: "CLIENT_OPERATION_KEY_REUSED", class: "conflict", action: "stop_and_surface", operation: "create_customer", outcome: "rejected" });
        expect(proxy.stats.forwarded).toBe(forwarded);
        expect((billing.db.prepare("SELECT COUNT(*) AS n FROM customers WHERE name = ?").get("MCP Lost, renamed") as { n: number }).n).toBe(0);

        // The same call again: the recorded outcome, still one customer.
        const again = await second.call("create_customer", args);
        expect(again.isError).toBeFalsy();
        expect(again.structuredContent).toMatchObject({ email: args.email, name: args.name, id: expect.stringMatching(/^cus_/) });
        expect(customersWithEmail(args.email)).toBe(1);
        expect(JSON.stringify([again, changed]) + second.stderr()).not.toContain(TOKEN);
      } finally {
        await second.close();
      }
    } finally {
      await proxy?.close();
    }
  });

  it("the answer is lost; then three server processes at once, each asked the same call (the tools require the key), recover it: one customer, each gets it", async () => {
    let dropped = false;
    const proxy = await startLossyProxy(billing.url, (req) => {
      if (dropped || req.method !== "POST" || req.url !== "/customers") return false;
      return (dropped = true);
    });
    const env = { BILLING_TOKEN: TOKEN, BILLING_JOURNAL: join(dir, "lost-together.sqlite"), BILLING_BASE_URL: proxy.url };
    const args = { email: "mcp.together@example.com", name: "MCP Together", idempotency_key: "2c7e9a41-0b5d-4e8f-a1c3-7d9b5e3f1a20" };
    const servers = await Promise.all([0, 1, 2, 3].map(() => connectStdio("billing.v2", env)));
    try {
      const lost = await servers[0]!.call("create_customer", args);
      expect(text(lost).error).toMatchObject({ outcome: "unknown", nextAction: "retry_same_key" });
      const answers = await Promise.all(servers.slice(1).map((s) => s.call("create_customer", args)));
      expect(answers.map((a) => a.isError ?? false)).toEqual([false, false, false]);
      expect(customersWithEmail(args.email)).toBe(1);
      expect(new Set(answers.map((a) => (a.structuredContent as { id: string }).id)).size).toBe(1);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      await proxy.close();
    }
  });

  it("a key reused with other parameters from a server with a fresh journal is refused by the platform, nothing created", async () => {
    const key = "0f9e8d7c-6b5a-4c3d-9e1f-2a3b4c5d6e7f";
    const a = await connectInMemory("billing.v2", { baseUrl: billing.url, token: TOKEN, journal: join(dir, "a.sqlite") });
    const b = await connectInMemory("billing.v2", { baseUrl: billing.url, token: TOKEN, journal: join(dir, "b.sqlite") });
    try {
      const made = await a.call("create_customer", { email: "mcp.key@example.com", name: "One", idempotency_key: key });
      expect(made.isError).toBeFalsy();
      const refused = await b.call("create_customer", { email: "mcp.key@example.com", name: "Two", idempotency_key: key });
      expect(refused.isError).toBe(true);
      expect(text(refused).error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", class: "conflict", action: "stop_and_surface", outcome: "rejected" });
      expect(customersWithEmail("mcp.key@example.com")).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe("the release count (releases)", () => {
  const platforms: RunningPlatform[] = [];
  afterAll(async () => {
    for (const p of platforms) await p.close();
  });

  it("count_stable_releases answers the question in one call and says it is complete", async () => {
    const releases = await startReleasesServer({ token: TOKEN, dataset: "mixed" });
    platforms.push(releases);
    const c = await connectInMemory("releases", { baseUrl: releases.url, token: TOKEN, journal: false });
    try {
      const r = await c.call("count_stable_releases", {});
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ count: STABLE_RELEASES_MIXED, records_examined: RELEASE_FACTS.mixed.releases, complete: true, continuation: null });
      const completeness = { complete: true, continuation: null, reasons: [] };
      expect(text(r)).toEqual({ result: r.structuredContent, completeness });
      expect(r._meta?.["contractgen/completeness"]).toEqual(completeness);
    } finally {
      await c.close();
    }
  });

  it("a count that stopped early says complete:false with the continuation; resuming reaches the same count", async () => {
    const releases = await startReleasesServer({ token: TOKEN, dataset: "mixed", countMaxExamined: 15 });
    platforms.push(releases);
    const c = await connectInMemory("releases", { baseUrl: releases.url, token: TOKEN, journal: false });
    try {
      const first = await c.call("count_stable_releases", {});
      const out = first.structuredContent as { count: number; records_examined: number; complete: boolean; continuation: string | null };
      expect(out).toMatchObject({ records_examined: 15, complete: false, continuation: expect.any(String) });
      const completeness = text(first).completeness;
      expect(completeness).toMatchObject({ complete: false, continuation: out.continuation });
      expect(completeness.reasons.join(" ")).toMatch(/continuation/);
      let last = out;
      for (let i = 0; i < 5 && !last.complete; i++) {
        const next = await c.call("count_stable_releases", { continuation: last.continuation });
        expect(next.isError).toBeFalsy();
        last = next.structuredContent as typeof out;
        expect(text(next).completeness.complete).toBe(last.complete);
      }
      expect(last).toEqual({ count: STABLE_RELEASES_MIXED, records_examined: RELEASE_FACTS.mixed.releases, complete: true, continuation: null });
    } finally {
      await c.close();
    }
  });
});
