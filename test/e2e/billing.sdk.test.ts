/**
 * The generated billing SDK (generated-examples/billing.v2, built by global-setup) against the
 * reference billing platform: every behaviour the contract promises, end to end over HTTP.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { type LossyProxy, startLossyProxy } from "./lossy-proxy.js";

const SDK = resolve("test-results/sdk/billing.v2/sdk/index.js");
const TOKEN = "e2e-billing-token";
type Sdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");

let sdk: Sdk;
let platform: RunningPlatform;
const dir = mkdtempSync(join(tmpdir(), "contractgen-e2e-billing-"));
let journals = 0;
const freshJournal = () => join(dir, `journal-${++journals}.sqlite`);

beforeAll(async () => {
  sdk = (await import(SDK)) as Sdk;
  platform = await startBillingServer({ token: TOKEN });
});
afterAll(async () => {
  await platform?.close();
});

function client(options: Record<string, unknown> = {}) {
  return new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal: freshJournal(), retry: { initialDelayMs: 5 }, ...options });
}

/** Customers with this email, counted through the platform's own list operation. */
async function customersWithEmail(email: string): Promise<number> {
  const c = client({ journal: false });
  const { items, complete } = await c.listCustomersAll({ email }, { maxPages: 5 }).collect();
  expect(complete).toBe(true);
  return items.length;
}

/**
 * Run one SDK call in a separate Node process (same built SDK, its own memory). Asynchronously:
 * the platform serves from this process and must keep answering while the child runs.
 */
async function inSecondProcess(method: string, input: unknown, options: Record<string, unknown>): Promise<{ ok: boolean; result?: any; error?: any }> {
  const args = [resolve("test/e2e/sdk-call.mjs"), JSON.stringify({ sdk: SDK, clientClass: "BillingClient", method, input, options })];
  const { stdout } = await promisify(execFile)(process.execPath, args, { encoding: "utf8" });
  return JSON.parse(stdout);
}

describe("billing SDK against the reference platform", () => {
  it("lost response after commit, then a retry from a second process with the same journal: exactly one customer", async () => {
    const journal = freshJournal();
    let proxy: LossyProxy | undefined;
    try {
      // The first create's answer is lost; everything after passes through.
      let dropped = false;
      proxy = await startLossyProxy(platform.url, (req) => {
        if (dropped || req.method !== "POST" || req.url !== "/customers") return false;
        dropped = true;
        return true;
      });
      const first = client({ baseUrl: proxy.url, journal });
      const input = { email: "lost.response@example.com", name: "Lost Response" };
      const failure = await first.createCustomer(input).then(
        () => null,
        (e: unknown) => e,
      );
      first.close();
      expect(failure).toBeInstanceOf(sdk.UnknownOutcomeError);
      const unknown = failure as InstanceType<Sdk["UnknownOutcomeError"]>;
      expect(unknown.outcome).toBe("unknown");
      expect(unknown.nextAction).toBe("retry_same_key");
      expect(unknown.operationKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(proxy.stats.dropped).toBe(1);
      expect(await customersWithEmail(input.email)).toBe(1); // the platform did commit

      // Same intent, same journal, another process: it recovers the key and gets the first customer.
      const second = await inSecondProcess("createCustomer", input, { baseUrl: proxy.url, token: TOKEN, journal });
      expect(second.error ?? null).toBeNull();
      expect(second.ok).toBe(true);
      expect(second.result.email).toBe(input.email);
      expect(await customersWithEmail(input.email)).toBe(1);

      // And once completed, the journal answers without a second effect even when asked again.
      const third = await inSecondProcess("createCustomer", { ...input, idempotency_key: unknown.operationKey }, { baseUrl: proxy.url, token: TOKEN, journal });
      expect(third.result.id).toBe(second.result.id);
      expect(proxy.stats.forwarded).toBe(2); // the third call was answered from the journal
      expect(await customersWithEmail(input.email)).toBe(1);
    } finally {
      await proxy?.close();
    }
  });

  it("changed parameters under a used key are rejected, locally and by the platform, with no new effect", async () => {
    const key = "6f1c1f2e-9a57-4c4e-9d0b-3f2a1c5b7e10";
    const c = client();
    const created = await c.createCustomer({ email: "key.owner@example.com", name: "Key Owner", idempotency_key: key });
    expect(created.email).toBe("key.owner@example.com");

    const local = await c.createCustomer({ email: "key.thief@example.com", name: "Key Thief", idempotency_key: key }).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(sdk.ConflictError);
    expect(local).toMatchObject({ code: "CLIENT_OPERATION_KEY_REUSED", errorClass: "conflict", outcome: "rejected" });

    // A client without that journal reaches the platform, which refuses it too.
    const remote = await client({ journal: false }).createCustomer({ email: "key.thief@example.com", name: "Key Thief", idempotency_key: key }).catch((e: unknown) => e);
    expect(remote).toBeInstanceOf(sdk.ConflictError);
    expect(remote).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", errorClass: "conflict", action: "stop_and_surface", status: 409, operationId: key });
    expect(await customersWithEmail("key.thief@example.com")).toBe(0);
  });

  it("distinct keys with equal parameters create two customers", async () => {
    const c = client();
    const input = { email: "twice@example.com", name: "Twice" };
    const a = await c.createCustomer({ ...input, idempotency_key: "0b9a3c58-1d3e-4c57-a1f7-5f8e2d6c4b01" });
    const b = await c.createCustomer({ ...input, idempotency_key: "0b9a3c58-1d3e-4c57-a1f7-5f8e2d6c4b02" });
    expect(a.id).not.toBe(b.id);
    expect(await customersWithEmail(input.email)).toBe(2);
  });

  it("the same key and parameters retried execute once", async () => {
    const c = client({ journal: false });
    const input = { email: "retry.same@example.com", name: "Retry Same", idempotency_key: "7d2f9e40-5b8a-4f1c-9e3d-2a6b8c0d4e11" };
    const a = await c.createCustomer(input);
    const b = await c.createCustomer(input);
    expect(b.id).toBe(a.id);
    expect(await customersWithEmail(input.email)).toBe(1);
  });

  it("a refund without a valid confirm token is rejected with no effect; preview then confirm refunds once", async () => {
    const c = client();
    const invoice = await c.getInvoice({ invoice_id: "inv_1003" }); // failed, 9900 cents, nothing refunded yet
    const before = invoice.refunded_cents;
    const amount = 1000;

    // @ts-expect-error the type requires the token; the platform refuses a call without it all the same.
    const noToken = await c.refundInvoice({ invoice_id: invoice.id, amount }).catch((e: unknown) => e);
    expect(noToken).toBeInstanceOf(sdk.ConflictError);
    expect(noToken).toMatchObject({ code: "CONFIRMATION_REQUIRED", action: "reread_and_replan", outcome: "rejected" });

    const preview = await c.previewRefundInvoice({ invoice_id: invoice.id, amount: 2000 });
    const wrongParams = await c.refundInvoice({ invoice_id: invoice.id, amount, confirm_token: preview.confirm_token }).catch((e: unknown) => e);
    expect(wrongParams).toMatchObject({ code: "CONFIRMATION_REQUIRED" });
    expect((await c.getInvoice({ invoice_id: invoice.id })).refunded_cents).toBe(before);

    const good = await c.previewRefundInvoice({ invoice_id: invoice.id, amount });
    expect(good).toMatchObject({ invoice_id: invoice.id, amount });
    const refund = await c.refundInvoice({ invoice_id: invoice.id, amount, confirm_token: good.confirm_token });
    expect(refund).toMatchObject({ invoice_id: invoice.id, amount });
    expect((await c.getInvoice({ invoice_id: invoice.id })).refunded_cents).toBe(before + amount);
  });

  it("a stale expected revision is a conflict and changes nothing", async () => {
    const c = client();
    const customer = await c.createCustomer({ email: "revision@example.com", name: "First Name" });
    const updated = await c.updateCustomer({ customer_id: customer.id, expected_revision: customer.revision, name: "Second Name" });
    expect(updated.revision).toBe(customer.revision + 1);

    const stale = await c.updateCustomer({ customer_id: customer.id, expected_revision: customer.revision, name: "Third Name" }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(sdk.ConflictError);
    expect(stale).toMatchObject({ code: "REVISION_CONFLICT", errorClass: "conflict", action: "reread_and_replan", status: 412 });
    const now = await c.getCustomer({ customer_id: customer.id });
    expect(now).toMatchObject({ name: "Second Name", revision: customer.revision + 1 });
  });

  it("errors arrive with their class and recovery action", async () => {
    const c = client();
    const notFound = await c.getCustomer({ customer_id: "cus_doesnotexist" }).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(sdk.NotFoundError);
    expect(notFound).toMatchObject({ code: "CUSTOMER_NOT_FOUND", errorClass: "not_found", action: "verify_identifier", status: 404 });

    const tooMuch = await c.previewRefundInvoice({ invoice_id: "inv_1003", amount: 500000 }).catch((e: unknown) => e);
    expect(tooMuch).toMatchObject({ code: "REFUND_EXCEEDS_BALANCE", errorClass: "conflict", action: "reread_and_replan" });

    const local = await c.createCustomer({ email: "not-an-email", name: "X" }).catch((e: unknown) => e);
    expect(local).toBeInstanceOf(sdk.InvalidInputError);
    expect(local).toMatchObject({ errorClass: "invalid_input", action: "fix_field", field: "email" });

    const noAuth = await client({ token: "wrong-token" }).getCustomer({ customer_id: "cus_doesnotexist" }).catch((e: unknown) => e);
    expect(noAuth).toBeInstanceOf(sdk.UnauthenticatedError);
    expect(noAuth).toMatchObject({ errorClass: "unauthenticated", action: "reauthenticate", status: 401 });
    expect(JSON.stringify(noAuth)).not.toContain("wrong-token");
  });

  it("transient and rate-limited failures are retried with the same operation key: one effect", async () => {
    platform.faults.transientOnce = ["create_customer"];
    platform.faults.rateLimitedOnce = ["get_invoice"];
    platform.faults.retryAfterSeconds = 0;
    const c = client();
    const created = await c.createCustomer({ email: "transient@example.com", name: "Transient" });
    expect(created.email).toBe("transient@example.com");
    expect(await customersWithEmail("transient@example.com")).toBe(1);
    expect((await c.getInvoice({ invoice_id: "inv_1003" })).id).toBe("inv_1003");
    expect(platform.faults.transientOnce).toEqual([]);
    expect(platform.faults.rateLimitedOnce).toEqual([]);
  });
});
