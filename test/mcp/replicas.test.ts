/**
 * Two replicas of the generated MCP server (adapter mode, the built bin over Streamable HTTP) on one
 * PostgreSQL journal: a replica killed with SIGKILL after the platform committed its call, then the
 * same call on the other replica ⇒ one effect, the first one's answer; 50 concurrent calls of one
 * intent spread over both ⇒ one effect.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";
import { built, newClient, TOKEN } from "./support.js";

const postgres = await postgresAvailable();
let platform: RunningPlatform;
beforeAll(async () => {
  platform = await startBillingServer({ token: TOKEN });
});
afterAll(async () => {
  await platform?.close();
  await dropSchemas();
});

/** A proxy in front of the platform that forwards the first executed refund and never answers it (the answer is lost with its replica). */
async function swallowFirstRefund(target: string) {
  let swallowed = 0;
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const forwarded = await fetch(new URL(req.url ?? "/", target), { method: req.method, headers: { ...(req.headers as Record<string, string>), host: new URL(target).host }, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
      const body = Buffer.from(await forwarded.arrayBuffer());
      // The first executed refund (its answer has a refund id; a preview's has a confirm token).
      if (req.method === "POST" && swallowed === 0 && /"id":"re_/.test(body.toString("utf8"))) {
        swallowed++;
        return; // committed by the platform; the answer never leaves
      }
      res.writeHead(forwarded.status, Object.fromEntries(forwarded.headers));
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = new URL(target);
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}${base.pathname.replace(/\/$/, "")}`,
    swallowed: () => swallowed,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

function startReplica(journal: string, baseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [built("billing.v2", "mcp/main.js"), "--http", "--journal", journal], {
    env: { PATH: process.env.PATH ?? "", BILLING_TOKEN: TOKEN, BILLING_BASE_URL: baseUrl },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      stderr += String(d);
      const m = /serving MCP over Streamable HTTP at (\S+)/.exec(stderr);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once("exit", (code) => reject(new Error(`replica exited ${code}: ${stderr}`)));
  });
}

async function connect(url: string) {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function refundedCents(url: string, invoice: string): Promise<number> {
  const client = await connect(url);
  try {
    const r = (await client.callTool({ name: "get_invoice", arguments: { invoice_id: invoice } })) as CallToolResult;
    return (r.structuredContent as { refunded_cents: number }).refunded_cents;
  } finally {
    await client.close();
  }
}

describe.skipIf(!postgres)("two MCP server replicas on one PostgreSQL journal", () => {
  it("50 concurrent create_customer calls with one key, spread over A and B: one customer, one answer", async () => {
    const journal = await freshSchemaUrl();
    const a = await startReplica(journal, platform.url);
    const b = await startReplica(journal, platform.url);
    const clients = await Promise.all(Array.from({ length: 10 }, (_, i) => connect(i % 2 === 0 ? a.url : b.url)));
    try {
      const count = () => (platform.db.prepare("SELECT COUNT(*) AS n FROM customers").get() as { n: number }).n;
      const before = count();
      const args = { email: "replicas@example.com", name: "Fifty Calls", idempotency_key: "5f0c8a43-6a4e-4d7b-9d0e-2f1b9c7a5e11" };
      const results = (await Promise.all(Array.from({ length: 50 }, (_, i) => clients[i % clients.length]!.callTool({ name: "create_customer", arguments: args })))) as CallToolResult[];
      for (const r of results) expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
      expect(new Set(results.map((r) => (r.structuredContent as { id: string }).id)).size).toBe(1);
      expect(count()).toBe(before + 1);
    } finally {
      for (const c of clients) await c.close();
      a.child.kill("SIGKILL");
      b.child.kill("SIGKILL");
    }
  });

  it("replica A killed after the platform executed its refund; the same call on replica B: one refund, the first one", async () => {
    const journal = await freshSchemaUrl();
    const proxy = await swallowFirstRefund(platform.url);
    const a = await startReplica(journal, proxy.url);
    const b = await startReplica(journal, proxy.url);
    try {
      const before = await refundedCents(b.url, "inv_1003");
      const onA = await connect(a.url);
      const preview = (await onA.callTool({ name: "refund_invoice", arguments: { invoice_id: "inv_1003", amount: 250 } })) as CallToolResult;
      const token = (preview.structuredContent as { confirm_token: string }).confirm_token;
      // The model executes without a key of its own: the adapter mints one and records it in the shared journal.
      const execute = { invoice_id: "inv_1003", amount: 250, dry_run: false, confirm_token: token };
      void onA.callTool({ name: "refund_invoice", arguments: execute }).catch(() => undefined);
      for (let i = 0; i < 500 && proxy.swallowed() === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(proxy.swallowed()).toBe(1);
      a.child.kill("SIGKILL");
      expect(await refundedCents(b.url, "inv_1003")).toBe(before + 250); // the platform did execute

      // The retry lands on B, which finds A's intent (same arguments) and sends A's key: the recorded refund.
      const onB = await connect(b.url);
      const retried = (await onB.callTool({ name: "refund_invoice", arguments: execute })) as CallToolResult;
      await onB.close();
      expect(retried.isError ?? false, JSON.stringify(retried.content)).toBe(false);
      expect(retried.structuredContent).toMatchObject({ invoice_id: "inv_1003", amount: 250 });
      expect(await refundedCents(b.url, "inv_1003")).toBe(before + 250);
    } finally {
      a.child.kill("SIGKILL");
      b.child.kill("SIGKILL");
      await proxy.close();
    }
  });
});
