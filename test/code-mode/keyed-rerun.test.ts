/**
 * A keyed operation run from code mode keeps the SDK's exactly-once promise across executes: when the
 * answer of a program's keyed create is lost (committed on the platform, never answered), or the
 * program ends at its time limit after the create, the same program run again by a later execute
 * over the same client (its journal a SQLite file) gets the recorded outcome, and the platform holds
 * exactly one customer.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { createExecutor } from "../../src/code-runtime/execute.js";
import { DEFAULT_SANDBOX_LIMITS } from "../../src/code-runtime/sandbox.js";
import { parseContract } from "../../src/contract/parse.js";
import { codeMethods } from "../../src/emit/code/methods.js";
import { type LossyProxy, startLossyProxy } from "../e2e/lossy-proxy.js";

type BillingSdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");

const TOKEN = "keyed-rerun-token";
const dir = mkdtempSync(join(tmpdir(), "contractgen-code-rerun-"));
let platform: RunningPlatform;
let sdk: BillingSdk;
let proxy: LossyProxy;
let dropNextCreate = false;

beforeAll(async () => {
  platform = await startBillingServer({ token: TOKEN });
  sdk = (await import(resolve("test-results/sdk/billing.v2/sdk/index.js"))) as BillingSdk;
  // Drops the answer of the next POST /customers once the platform has committed it.
  proxy = await startLossyProxy(platform.url, (req) => {
    if (!dropNextCreate || req.method !== "POST" || req.url !== "/customers") return false;
    dropNextCreate = false;
    return true;
  });
});
afterAll(async () => {
  await proxy?.close();
  await platform?.close();
});

/** Customers with this email, read by a client of its own straight from the platform. */
async function customersWithEmail(email: string): Promise<number> {
  const reader = new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal: false });
  const { items, complete } = await reader.listCustomersAll({ email }, { maxPages: 5 }).collect();
  expect(complete).toBe(true);
  return items.length;
}

/** An executor over a client that reaches the platform through the proxy and keeps a journal file. */
function executorWithJournal(name: string, timeMs = DEFAULT_SANDBOX_LIMITS.timeMs) {
  const client = new sdk.BillingClient({ baseUrl: proxy.url, token: TOKEN, journal: join(dir, `${name}.sqlite`), retry: { initialDelayMs: 5 } });
  return { client, executor: createExecutor(client, codeMethods(parseContract("specs/billing.v2.yaml").model!), { limits: { ...DEFAULT_SANDBOX_LIMITS, timeMs } }) };
}

describe("a keyed create run from code mode, then run again", () => {
  it("its answer lost: the program fails with the outcome unknown; the same program in a later execute gets the customer, and there is one", async () => {
    const { client, executor } = executorWithJournal("lost");
    const email = "lost.in.code@example.com";
    const program = `const customer = await client.createCustomer({ email: "${email}", name: "Lost In Code" }); return { id: customer.id, email: customer.email };`;
    dropNextCreate = true;
    const dropped = proxy.stats.dropped;
    const first = await executor.execute(program);
    expect(proxy.stats.dropped).toBe(dropped + 1);
    // The SDK's own error reaches the model: outcome unknown, retry with the same key.
    expect(first).toMatchObject({ ok: false, error: { code: "CODE_THREW", thrown: { outcome: "unknown", action: "retry_same_key", operation: "create_customer" } } });
    expect(await customersWithEmail(email)).toBe(1); // the platform did commit

    const again = await executor.execute(program);
    expect(again).toMatchObject({ ok: true, value: { email } });
    expect((again.value as { id: string }).id).toMatch(/^cus_/);
    expect(await customersWithEmail(email)).toBe(1);
    client.close();
  });

  it("ended at its time limit after the create: the program without the loop, run again, gets the recorded customer, and there is one", async () => {
    const { client, executor } = executorWithJournal("time-limit", 3000);
    const email = "timed.out.in.code@example.com";
    // The program's own key: the same intent in every run of it.
    const create = `const customer = await client.createCustomer({ email: "${email}", name: "Timed Out", idempotency_key: "0b7e2f5c-4d1a-4c3e-9f60-2a8d5b1c7e93" });`;
    const looping = await executor.execute(`${create}\nfor (;;) {}`);
    expect(looping).toMatchObject({ ok: false, error: { code: "CODE_TIME_LIMIT" }, calls: 1 });
    expect(await customersWithEmail(email)).toBe(1);
    const forwarded = proxy.stats.forwarded;

    const again = await executor.execute(`${create}\nreturn { id: customer.id, email: customer.email };`);
    expect(again).toMatchObject({ ok: true, value: { email } });
    // Answered from the journal: the platform was not asked again.
    expect(proxy.stats.forwarded).toBe(forwarded);
    expect(await customersWithEmail(email)).toBe(1);
    client.close();
  });
});
