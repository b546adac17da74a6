/**
 * Replicas on one PostgreSQL journal (the generated billing SDK, built by global-setup, against the
 * reference platform): an intent recorded by one replica is what another replica's retry finds, so a
 * lost response never becomes a second effect, even when the retry lands elsewhere. Separate SQLite
 * files, one per machine, are shown to fail the same scenario (the test can tell the difference).
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";
import { type LossyProxy, startLossyProxy } from "./lossy-proxy.js";

const SDK = resolve("test-results/sdk/billing.v2/sdk/index.js");
const TOKEN = "e2e-replicas-token";
type Sdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");

const postgres = await postgresAvailable();
let sdk: Sdk;
let platform: RunningPlatform;
const dir = mkdtempSync(join(tmpdir(), "contractgen-e2e-replicas-"));

beforeAll(async () => {
  sdk = (await import(SDK)) as Sdk;
  platform = await startBillingServer({ token: TOKEN });
});
afterAll(async () => {
  await platform?.close();
  await dropSchemas();
});

async function customersWithEmail(email: string): Promise<number> {
  const c = new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal: false });
  const { items, complete } = await c.listCustomersAll({ email }, { maxPages: 5 }).collect();
  expect(complete).toBe(true);
  return items.length;
}

/** One SDK call in another Node process: the second replica. */
async function onReplicaB(method: string, input: unknown, options: Record<string, unknown>): Promise<{ ok: boolean; result?: any; error?: any }> {
  const args = [resolve("test/e2e/sdk-call.mjs"), JSON.stringify({ sdk: SDK, clientClass: "BillingClient", method, input, options })];
  const { stdout } = await promisify(execFile)(process.execPath, args, { encoding: "utf8" });
  return JSON.parse(stdout);
}

/** Replica A's create, whose answer is lost after the platform committed it (A gives up: no retry of its own). */
async function lostOnReplicaA(journal: string, input: { email: string; name: string }): Promise<{ proxy: LossyProxy; key: string }> {
  let dropped = false;
  const proxy = await startLossyProxy(platform.url, (req) => {
    if (dropped || req.method !== "POST" || req.url !== "/customers") return false;
    dropped = true;
    return true;
  });
  const a = new sdk.BillingClient({ baseUrl: proxy.url, token: TOKEN, journal, retry: { maxAttempts: 1 } });
  const failure = await a.createCustomer(input).then(
    () => null,
    (e: unknown) => e,
  );
  a.close();
  expect(failure).toBeInstanceOf(sdk.UnknownOutcomeError);
  expect(await customersWithEmail(input.email)).toBe(1); // the platform did commit
  return { proxy, key: (failure as InstanceType<Sdk["UnknownOutcomeError"]>).operationKey! };
}

describe.skipIf(!postgres)("replicas on one PostgreSQL journal", () => {
  it("a response lost on replica A, the retry on replica B (another process): one customer, the first one", async () => {
    const journal = await freshSchemaUrl();
    const input = { email: "replica.lost@example.com", name: "Lost On A" };
    const { proxy, key } = await lostOnReplicaA(journal, input);
    try {
      // Both replicas call the same platform (the proxy passes everything after the lost answer).
      const b = await onReplicaB("createCustomer", input, { baseUrl: proxy.url, token: TOKEN, journal });
      expect(b.error ?? null).toBeNull();
      expect(await customersWithEmail(input.email)).toBe(1);
      // B sent A's key: asking again under it is answered from the shared journal, no second effect.
      const again = await onReplicaB("createCustomer", { ...input, idempotency_key: key }, { baseUrl: proxy.url, token: TOKEN, journal });
      expect(again.result.id).toBe(b.result.id);
      expect(await customersWithEmail(input.email)).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it("50 concurrent calls of one intent spread over two replicas: one customer", async () => {
    const journal = await freshSchemaUrl();
    const [a, b] = [0, 1].map(() => new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal }));
    try {
      const input = { email: "replica.concurrent@example.com", name: "Fifty Calls", idempotency_key: "0b7c6a52-3f1e-4d2a-9c8b-5e4f3a2b1c0d" };
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a! : b!).createCustomer(input)));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect(await customersWithEmail(input.email)).toBe(1);
    } finally {
      a!.close();
      b!.close();
    }
  });

  it("the same scenario with a SQLite file per replica makes two customers (why replicas need the shared store)", async () => {
    const input = { email: "replica.sqlite@example.com", name: "Two Files" };
    const { proxy } = await lostOnReplicaA(join(dir, "replica-a.sqlite"), input);
    try {
      const b = await onReplicaB("createCustomer", input, { baseUrl: proxy.url, token: TOKEN, journal: join(dir, "replica-b.sqlite") });
      expect(b.ok).toBe(true);
      expect(await customersWithEmail(input.email)).toBe(2);
    } finally {
      await proxy.close();
    }
  });
});
