/**
 * Issue 9 behaviours at the reference host (HTTP): preconditions hold for previews as for executions,
 * errors carry the field and details the contract declares, and a preview needs no operation key.
 */
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { type Call, client, expectError } from "./http.js";

const TOKEN = "behaviour-test-token";
let server: RunningPlatform;
let call: Call;

beforeEach(async () => {
  server = await startBillingServer({ token: TOKEN });
  call = client(server.url, TOKEN);
});
afterEach(async () => {
  await server.close();
});

const tokens = () => (server.db.prepare("SELECT COUNT(*) AS n FROM confirm_tokens").get() as { n: number }).n;
const journalRows = () => (server.db.prepare("SELECT COUNT(*) AS n FROM idempotency_journal").get() as { n: number }).n;
const refunded = async (id: string) => (await call("GET", `/invoices/${id}`)).body.refunded_cents as number;
const refund = (id: string, body: Record<string, unknown>, key?: string) =>
  call("POST", `/invoices/${id}/refunds`, { headers: key ? { "Idempotency-Key": key } : {}, body });

describe("preconditions on previews", () => {
  it("a preview with a stale expectation fails like the execution would, and mints no confirm token", async () => {
    // inv_1004 has 45000 refunded already: expecting 0 is stale.
    const stale = { amount: 100, expected_refunded_cents: 0 };
    const previewError = expectError(await refund("inv_1004", { ...stale, dry_run: true }), 412, "INVOICE_CHANGED", "expected_refunded_cents");
    expect(previewError.details).toEqual({ refunded_cents: 45_000 });
    expect(tokens()).toBe(0);
    expect(await refunded("inv_1004")).toBe(45_000);
  });

  it("a current expectation previews and, with the token, executes once", async () => {
    const body = { amount: 100, expected_refunded_cents: 45_000 };
    const preview = await refund("inv_1004", { ...body, dry_run: true });
    expect(preview.status).toBe(200);
    const done = await refund("inv_1004", { ...body, dry_run: false, confirm_token: preview.body.confirm_token }, randomUUID());
    expect(done.status).toBe(200);
    expect(await refunded("inv_1004")).toBe(45_100);
  });

  it("an expectation that went stale between preview and execution is refused, nothing refunded", async () => {
    const body = { amount: 100, expected_refunded_cents: 0 };
    const preview = await refund("inv_1003", { ...body, dry_run: true });
    expect(preview.status).toBe(200);
    const other = await refund("inv_1003", { amount: 50, dry_run: true });
    expect((await refund("inv_1003", { amount: 50, dry_run: false, confirm_token: other.body.confirm_token }, randomUUID())).status).toBe(200);
    const error = expectError(await refund("inv_1003", { ...body, dry_run: false, confirm_token: preview.body.confirm_token }, randomUUID()), 412, "INVOICE_CHANGED", "expected_refunded_cents");
    expect(error.details).toEqual({ refunded_cents: 50 });
    expect(await refunded("inv_1003")).toBe(50);
    // The preview now fails the same way, and mints nothing.
    const before = tokens();
    expectError(await refund("inv_1003", { ...body, dry_run: true }), 412, "INVOICE_CHANGED", "expected_refunded_cents");
    expect(tokens()).toBe(before);
  });
});

describe("errors tied to fields and details", () => {
  it("a stale revision names expected_revision and carries the declared details", async () => {
    const error = expectError(await call("PATCH", "/customers/cus_ada001", { headers: { "If-Match": "7" }, body: { name: "Ada" } }), 412, "REVISION_CONFLICT", "expected_revision");
    expect(error.details).toEqual({ revision: 1 });
  });

  it("invalid input names the failing field; several problems are listed in details.problems", async () => {
    expectError(await refund("inv_1003", { amount: 0 }), 400, "INVALID_FIELD", "amount");
    const error = expectError(await refund("inv_1003", { amount: 0, reason: "bored" }), 400, "INVALID_FIELD", "amount");
    expect(error.details.problems).toEqual(expect.arrayContaining([expect.objectContaining({ field: "amount" }), expect.objectContaining({ field: "reason" })]));
  });
});

describe("no key needed to look", () => {
  it("a preview without an operation key answers with a token and writes no journal row", async () => {
    const reply = await refund("inv_1003", { amount: 100 });
    expect(reply.status).toBe(200);
    expect(typeof reply.body.confirm_token).toBe("string");
    expect(journalRows()).toBe(0);
  });

  it("an execution without an operation key is invalid input naming the key; nothing refunded", async () => {
    const preview = await refund("inv_1003", { amount: 100 });
    expectError(await refund("inv_1003", { amount: 100, dry_run: false, confirm_token: preview.body.confirm_token }), 400, "INVALID_FIELD", "idempotency_key");
    expect(await refunded("inv_1003")).toBe(0);
    expect(journalRows()).toBe(0);
  });
});
