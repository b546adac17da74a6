import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BILLING_SEED_CUSTOMERS, BILLING_SEED_INVOICES, startBillingServer } from "../../examples/billing/server.js";
import type { Faults, RunningPlatform } from "../../examples/shared/host.js";
import { type Call, client, expectError, HOUR, MINUTE, TestClock } from "./http.js";

const TOKEN = "billing-test-token";
const READER_TOKEN = "billing-reader-token";
const COLLEAGUE_TOKEN = "billing-colleague-token";

let server: RunningPlatform;
let call: Call;
let clock: TestClock;
let faults: Faults;

beforeEach(async () => {
  clock = new TestClock();
  faults = {};
  server = await startBillingServer({
    token: TOKEN,
    credentials: {
      [READER_TOKEN]: { caller: "reader", scopes: ["billing.customers:read", "billing.invoices:read"] },
      [COLLEAGUE_TOKEN]: { caller: "colleague", scopes: ["*"] },
    },
    now: clock.now,
    faults,
  });
  call = client(server.url, TOKEN);
});

afterEach(async () => {
  await server.close();
});

function createCustomer(key: string, body: { email: string; name: string }) {
  return call("POST", "/customers", { headers: { "Idempotency-Key": key }, body });
}

async function customerCount(): Promise<number> {
  const reply = await call("GET", "/customers");
  expect(reply.status).toBe(200);
  return reply.body.total_count;
}

async function invoice(id: string) {
  const reply = await call("GET", `/invoices/${id}`);
  expect(reply.status).toBe(200);
  return reply.body;
}

function refund(invoiceId: string, key: string, body: Record<string, unknown>) {
  return call("POST", `/invoices/${invoiceId}/refunds`, { headers: { "Idempotency-Key": key }, body });
}

const seeded = BILLING_SEED_CUSTOMERS.length;

/** Wait until a request holding `key` is executing (its journal entry is in progress). */
async function keyInProgress(key: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const row = server.db.prepare("SELECT state FROM idempotency_journal WHERE key = ?").get(key) as { state: string } | undefined;
    if (row?.state === "in_progress") return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`no request with key ${key} started executing`);
}

describe("billing: error classes and the envelope", () => {
  it("unauthenticated: 401 TOKEN_INVALID (the contract's unauthenticated code), operationId = X-Request-Id", async () => {
    const requestId = randomUUID();
    const reply = await call("GET", "/customers", { token: null, headers: { "x-request-id": requestId } });
    const error = expectError(reply, 401, "TOKEN_INVALID");
    expect(error.operationId).toBe(requestId);
    expect(reply.headers.get("www-authenticate")).toBe("Bearer");
    expectError(await call("GET", "/customers", { token: "wrong" }), 401, "TOKEN_INVALID");
  });

  it("invalid_input: 400 INVALID_FIELD naming the field, for each binding", async () => {
    expectError(await createCustomer(randomUUID(), { email: "not-an-email", name: "X" }), 400, "INVALID_FIELD", "email");
    expectError(await call("POST", "/customers", { body: { email: "a@example.com", name: "X" } }), 400, "INVALID_FIELD", "idempotency_key");
    expectError(await createCustomer("not-a-uuid", { email: "a@example.com", name: "X" }), 400, "INVALID_FIELD", "idempotency_key");
    expectError(await call("GET", "/customers/not_a_customer_id"), 400, "INVALID_FIELD", "customer_id");
    expectError(await call("GET", "/customers", { query: { limit: 101 } }), 400, "INVALID_FIELD", "limit");
    expectError(await call("GET", "/customers", { query: { limit: "ten" } }), 400, "INVALID_FIELD", "limit");
    expectError(await call("GET", "/customers", { query: { colour: "blue" } }), 400, "INVALID_FIELD", "colour");
    expectError(await call("POST", `/invoices/inv_1003/refunds`, { headers: { "Idempotency-Key": randomUUID() }, body: { amount: 0 } }), 400, "INVALID_FIELD", "amount");
    expectError(await refund("inv_1003", randomUUID(), { amount: 100, currency: "USD" }), 400, "INVALID_FIELD", "currency");
    // A field sent in the wrong place is named too.
    expectError(await call("POST", "/customers", { body: { email: "a@example.com", name: "X", idempotency_key: randomUUID() } }), 400, "INVALID_FIELD", "idempotency_key");
  });

  it("not_found: 404 CUSTOMER_NOT_FOUND / INVOICE_NOT_FOUND", async () => {
    expectError(await call("GET", "/customers/cus_doesnotexist"), 404, "CUSTOMER_NOT_FOUND");
    expectError(await call("GET", "/invoices/inv_9999"), 404, "INVOICE_NOT_FOUND");
    expectError(await refund("inv_9999", randomUUID(), { amount: 100 }), 404, "INVOICE_NOT_FOUND");
  });

  it("conflict: 409 EMAIL_TAKEN when an update would give a customer another customer's email (ignoring case)", async () => {
    const ada = BILLING_SEED_CUSTOMERS[0]!;
    const error = expectError(await call("PATCH", `/customers/${ada.id}`, { headers: { "If-Match": "1" }, body: { email: "GRACE@example.com" } }), 409, "EMAIL_TAKEN", "email");
    expect(error.message).toContain("GRACE@example.com");
    expect((await call("GET", `/customers/${ada.id}`)).body).toMatchObject({ email: ada.email, revision: 1 });
    // Keeping one's own email (in another case) is no conflict.
    expect((await call("PATCH", `/customers/${ada.id}`, { headers: { "If-Match": "1" }, body: { email: "Ada@Example.com" } })).status).toBe(200);
  });

  it("permission: 403 ROLE_FORBIDDEN for a caller without the operation's scope", async () => {
    const reader = client(server.url, READER_TOKEN);
    expect((await reader("GET", "/customers")).status).toBe(200);
    const error = expectError(await reader("POST", "/customers", { headers: { "Idempotency-Key": randomUUID() }, body: { email: "r@example.com", name: "R" } }), 403, "ROLE_FORBIDDEN");
    expect(error.details).toEqual({ missing_scopes: ["billing.customers:write"] });
    expect(await customerCount()).toBe(seeded);
  });

  it("rate_limited: 429 RATE_LIMITED with Retry-After, then the call goes through", async () => {
    faults.rateLimitedOnce = ["get_invoice"];
    faults.retryAfterSeconds = 7;
    const reply = await call("GET", "/invoices/inv_1001");
    expectError(reply, 429, "RATE_LIMITED");
    expect(reply.headers.get("retry-after")).toBe("7");
    expect((await call("GET", "/invoices/inv_1001")).status).toBe(200);
  });

  it("transient: 504 UPSTREAM_TIMEOUT executes nothing and is not recorded; a retry with the same key executes", async () => {
    faults.transientOnce = ["create_customer"];
    const key = randomUUID();
    const error = expectError(await createCustomer(key, { email: "t@example.com", name: "T" }), 504, "UPSTREAM_TIMEOUT");
    expect(error.operationId).toBe(key);
    expect(await customerCount()).toBe(seeded);
    const retry = await createCustomer(key, { email: "t@example.com", name: "T" });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await customerCount()).toBe(seeded + 1);
  });

  it("unknown routes and methods answer with the envelope too", async () => {
    expectError(await call("GET", "/nowhere"), 404, "ROUTE_NOT_FOUND");
    const reply = await call("DELETE", "/customers");
    expectError(reply, 405, "METHOD_NOT_ALLOWED");
    expect(reply.headers.get("allow")).toBe("GET, POST");
  });

  it("a body that is not JSON is invalid input", async () => {
    const reply = await fetch(`${server.url}/customers`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: "{not json",
    });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe("INVALID_FIELD");
  });
});

describe("billing: customers under idempotency keys", () => {
  it("creates a customer: 201, revision 1, created_at from the platform clock", async () => {
    const reply = await createCustomer(randomUUID(), { email: "new@example.com", name: "New Customer" });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ email: "new@example.com", name: "New Customer", revision: 1, created_at: clock.now().toISOString() });
    expect(reply.body.id).toMatch(/^cus_[A-Za-z0-9]+$/);
    expect((await call("GET", `/customers/${reply.body.id}`)).body).toEqual(reply.body);
  });

  it("same key + same parameters: the first response is replayed byte for byte, one customer exists", async () => {
    const key = randomUUID();
    const first = await createCustomer(key, { email: "once@example.com", name: "Once" });
    const second = await createCustomer(key, { email: "once@example.com", name: "Once" });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await customerCount()).toBe(seeded + 1);
  });

  it("same key + different parameters: 409 IDEMPOTENCY_KEY_REUSED, operationId = key, no new row", async () => {
    const key = randomUUID();
    expect((await createCustomer(key, { email: "first@example.com", name: "First" })).status).toBe(201);
    const error = expectError(await createCustomer(key, { email: "second@example.com", name: "Second" }), 409, "IDEMPOTENCY_KEY_REUSED");
    expect(error.operationId).toBe(key);
    expect(await customerCount()).toBe(seeded + 1);
    expect((await call("GET", "/customers", { query: { email: "second@example.com" } })).body.total_count).toBe(0);
  });

  it("distinct keys with equal parameters are distinct intents: two customers", async () => {
    const input = { email: "twice@example.com", name: "Twice" };
    const a = await createCustomer(randomUUID(), input);
    const b = await createCustomer(randomUUID(), input);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(a.body.id).not.toBe(b.body.id);
    expect((await call("GET", "/customers", { query: { email: input.email } })).body.total_count).toBe(2);
    expect(await customerCount()).toBe(seeded + 2);
  });

  it("concurrent requests with one key execute once; the other waits and replays", async () => {
    faults.executionDelayMs = { create_customer: 150 };
    const key = randomUUID();
    const replies = await Promise.all([
      createCustomer(key, { email: "race@example.com", name: "Race" }),
      createCustomer(key, { email: "race@example.com", name: "Race" }),
      createCustomer(key, { email: "race@example.com", name: "Race" }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(replies.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(2);
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
    expect(await customerCount()).toBe(seeded + 1);
  });

  it("a concurrent request with the same key but other parameters is refused at once", async () => {
    faults.executionDelayMs = { create_customer: 300 };
    const key = randomUUID();
    const first = createCustomer(key, { email: "slow@example.com", name: "Slow" });
    await keyInProgress(key);
    const other = await createCustomer(key, { email: "fast@example.com", name: "Fast" });
    expectError(other, 409, "IDEMPOTENCY_KEY_REUSED");
    expect((await first).status).toBe(201);
    expect(await customerCount()).toBe(seeded + 1);
  });

  it("failed validation is not recorded: the key can be reused with the field fixed", async () => {
    const key = randomUUID();
    expectError(await createCustomer(key, { email: "broken", name: "Fixed Later" }), 400, "INVALID_FIELD", "email");
    expect((await createCustomer(key, { email: "fixed@example.com", name: "Fixed Later" })).status).toBe(201);
  });

  it("keys are forgotten after the 24h retention", async () => {
    const key = randomUUID();
    expect((await createCustomer(key, { email: "day1@example.com", name: "Day One" })).status).toBe(201);
    clock.advance(24 * HOUR - 1);
    expectError(await createCustomer(key, { email: "day2@example.com", name: "Day Two" }), 409, "IDEMPOTENCY_KEY_REUSED");
    clock.advance(1);
    expect((await createCustomer(key, { email: "day2@example.com", name: "Day Two" })).status).toBe(201);
    expect(await customerCount()).toBe(seeded + 2);
  });
});

describe("billing: update_customer with expected_revision (If-Match)", () => {
  const ada = BILLING_SEED_CUSTOMERS[0]!;

  it("applies the change at the expected revision and increments revision", async () => {
    const reply = await call("PATCH", `/customers/${ada.id}`, { headers: { "If-Match": "1" }, body: { name: "Augusta Ada King" } });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: ada.id, name: "Augusta Ada King", email: ada.email, revision: 2 });
  });

  it("stale expected_revision: 412 REVISION_CONFLICT with the current revision, nothing changes", async () => {
    expect((await call("PATCH", `/customers/${ada.id}`, { headers: { "If-Match": "1" }, body: { name: "Rev Two" } })).status).toBe(200);
    const error = expectError(await call("PATCH", `/customers/${ada.id}`, { headers: { "If-Match": "1" }, body: { name: "Lost Update" } }), 412, "REVISION_CONFLICT", "expected_revision");
    expect(error.details).toEqual({ revision: 2 });
    expect((await call("GET", `/customers/${ada.id}`)).body).toMatchObject({ name: "Rev Two", revision: 2 });
  });

  it("validates the precondition and the change", async () => {
    expectError(await call("PATCH", `/customers/${ada.id}`, { body: { name: "No Revision" } }), 400, "INVALID_FIELD", "expected_revision");
    expectError(await call("PATCH", `/customers/${ada.id}`, { headers: { "If-Match": "abc" }, body: { name: "X" } }), 400, "INVALID_FIELD", "expected_revision");
    // minProperties: a change needs at least one of email and name.
    expectError(await call("PATCH", `/customers/${ada.id}`, { headers: { "If-Match": "1" } }), 400, "INVALID_FIELD", null);
    expectError(await call("PATCH", "/customers/cus_missing", { headers: { "If-Match": "1" }, body: { name: "X" } }), 404, "CUSTOMER_NOT_FOUND");
    expectError(await call("PATCH", `/customers/${ada.id}`, { headers: { "If-Match": "1" }, body: { email: "grace@example.com" } }), 409, "EMAIL_TAKEN", "email");
    expect((await call("GET", `/customers/${ada.id}`)).body).toMatchObject({ email: ada.email, revision: 1 });
  });
});

describe("billing: list_customers", () => {
  it("pages newest first with total_count and a null final cursor", async () => {
    for (let i = 0; i < 4; i++) {
      clock.advance(MINUTE);
      expect((await createCustomer(randomUUID(), { email: `page${i}@example.com`, name: `Page ${i}` })).status).toBe(201);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const reply = await call("GET", "/customers", { query: { limit: 3, cursor } });
      expect(reply.status).toBe(200);
      expect(reply.body.total_count).toBe(seeded + 4);
      seen.push(...reply.body.customers.map((c: { email: string }) => c.email));
      cursor = reply.body.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(["page3@example.com", "page2@example.com", "page1@example.com", "page0@example.com", ...[...BILLING_SEED_CUSTOMERS].reverse().map((c) => c.email)]);
  });

  it("filters by email and binds cursors to their filters", async () => {
    const only = await call("GET", "/customers", { query: { email: "GRACE@example.com" } });
    expect(only.body).toMatchObject({ total_count: 1, next_cursor: null });
    expect(only.body.customers.map((c: { id: string }) => c.id)).toEqual(["cus_grace002"]);

    const first = await call("GET", "/customers", { query: { limit: 1 } });
    expectError(await call("GET", "/customers", { query: { limit: 1, cursor: first.body.next_cursor, email: "ada@example.com" } }), 400, "INVALID_FIELD", "cursor");
    expectError(await call("GET", "/customers", { query: { cursor: `${first.body.next_cursor}x` } }), 400, "INVALID_FIELD", "cursor");
    // A different page size is fine.
    expect((await call("GET", "/customers", { query: { limit: 2, cursor: first.body.next_cursor } })).body.customers).toHaveLength(2);
  });
});

describe("billing: refund_invoice preview and confirm", () => {
  const failed = BILLING_SEED_INVOICES.find((i) => i.id === "inv_1003")!;

  async function preview(invoiceId: string, body: Record<string, unknown>, key = randomUUID()) {
    const reply = await refund(invoiceId, key, { ...body, dry_run: true });
    expect(reply.status).toBe(200);
    return reply.body;
  }

  it("omitting dry_run previews (default true): expected effect and a 10-minute token, nothing refunded", async () => {
    const reply = await refund(failed.id, randomUUID(), { amount: 2_500, reason: "requested_by_customer" });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      invoice_id: failed.id,
      amount: 2_500,
      balance_after_cents: failed.total_cents - 2_500,
      confirm_token: expect.any(String),
      expires_at: new Date(clock.now().getTime() + 10 * MINUTE).toISOString(),
    });
    expect((await invoice(failed.id)).refunded_cents).toBe(0);
  });

  it("preview then confirm refunds exactly once; the token is consumed", async () => {
    const body = { amount: 2_500, reason: "duplicate" };
    const { confirm_token } = await preview(failed.id, body);
    const key = randomUUID();
    const done = await refund(failed.id, key, { ...body, dry_run: false, confirm_token });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ invoice_id: failed.id, amount: 2_500, status: "succeeded" });
    expect(done.body.id).toMatch(/^re_/);
    expect((await invoice(failed.id)).refunded_cents).toBe(2_500);

    // A replay of the recorded execution is answered before the token is checked.
    const replay = await refund(failed.id, key, { ...body, dry_run: false });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(done.body);

    // The token cannot authorise a second execution under another key.
    const reused = expectError(await refund(failed.id, randomUUID(), { ...body, dry_run: false, confirm_token }), 409, "CONFIRMATION_REQUIRED");
    expect(reused.details).toEqual({ reason: "used" });
    expect((await invoice(failed.id)).refunded_cents).toBe(2_500);
  });

  it("executing without a token: 409 CONFIRMATION_REQUIRED, no refund, and the key stays usable", async () => {
    const key = randomUUID();
    const error = expectError(await refund(failed.id, key, { amount: 1_000, dry_run: false }), 409, "CONFIRMATION_REQUIRED");
    expect(error.details).toEqual({ reason: "missing" });
    expect(error.operationId).toBe(key);
    expect((await invoice(failed.id)).refunded_cents).toBe(0);

    const { confirm_token } = await preview(failed.id, { amount: 1_000 });
    expect((await refund(failed.id, key, { amount: 1_000, dry_run: false, confirm_token })).status).toBe(200);
  });

  it("a token issued for other parameters: CONFIRMATION_REQUIRED, no refund", async () => {
    const { confirm_token } = await preview(failed.id, { amount: 1_000 });
    const otherAmount = expectError(await refund(failed.id, randomUUID(), { amount: 2_000, dry_run: false, confirm_token }), 409, "CONFIRMATION_REQUIRED");
    expect(otherAmount.details).toEqual({ reason: "other_parameters" });
    const otherReason = expectError(await refund(failed.id, randomUUID(), { amount: 1_000, reason: "fraudulent", dry_run: false, confirm_token }), 409, "CONFIRMATION_REQUIRED");
    expect(otherReason.details).toEqual({ reason: "other_parameters" });
    const otherInvoice = expectError(await refund("inv_1006", randomUUID(), { amount: 1_000, dry_run: false, confirm_token }), 409, "CONFIRMATION_REQUIRED");
    expect(otherInvoice.details).toEqual({ reason: "other_parameters" });
    expectError(await refund(failed.id, randomUUID(), { amount: 1_000, dry_run: false, confirm_token: "ct_forged" }), 409, "CONFIRMATION_REQUIRED");
    expect((await invoice(failed.id)).refunded_cents).toBe(0);
    expect((await invoice("inv_1006")).refunded_cents).toBe(0);
  });

  it("an expired token: CONFIRMATION_REQUIRED, no refund", async () => {
    const { confirm_token } = await preview(failed.id, { amount: 1_000 });
    clock.advance(10 * MINUTE);
    const error = expectError(await refund(failed.id, randomUUID(), { amount: 1_000, dry_run: false, confirm_token }), 409, "CONFIRMATION_REQUIRED");
    expect(error.details).toEqual({ reason: "expired" });
    expect((await invoice(failed.id)).refunded_cents).toBe(0);
  });

  it("a token issued to another caller is not accepted", async () => {
    const { confirm_token } = await preview(failed.id, { amount: 1_000 });
    const colleague = client(server.url, COLLEAGUE_TOKEN);
    const error = expectError(
      await colleague("POST", `/invoices/${failed.id}/refunds`, { headers: { "Idempotency-Key": randomUUID() }, body: { amount: 1_000, dry_run: false, confirm_token } }),
      409,
      "CONFIRMATION_REQUIRED",
    );
    expect(error.details).toEqual({ reason: "unknown" });
    expect((await invoice(failed.id)).refunded_cents).toBe(0);
  });

  it("distinct keys with equal parameters are two refunds, each confirmed by its own preview", async () => {
    for (let i = 0; i < 2; i++) {
      const { confirm_token } = await preview(failed.id, { amount: 1_000 });
      expect((await refund(failed.id, randomUUID(), { amount: 1_000, dry_run: false, confirm_token })).status).toBe(200);
    }
    expect((await invoice(failed.id)).refunded_cents).toBe(2_000);
  });

  it("REFUND_EXCEEDS_BALANCE against total − refunded, at preview and at execution", async () => {
    const error = expectError(await refund("inv_1004", randomUUID(), { amount: 90_000 }), 409, "REFUND_EXCEEDS_BALANCE", "amount");
    expect(error.message).toBe("Refund of 90000 exceeds the refundable balance 45000.");
    expect(error.details).toEqual({ refundable_cents: 45_000 });

    // Balance shrinks between preview and confirmation: the execution is refused, the token survives.
    const { confirm_token } = await preview("inv_1006", { amount: 10_000 });
    const other = await preview("inv_1006", { amount: 6_000 });
    expect((await refund("inv_1006", randomUUID(), { amount: 6_000, dry_run: false, confirm_token: other.confirm_token })).status).toBe(200);
    const late = expectError(await refund("inv_1006", randomUUID(), { amount: 10_000, dry_run: false, confirm_token }), 409, "REFUND_EXCEEDS_BALANCE", "amount");
    expect(late.details).toEqual({ refundable_cents: 9_000 });
    expect((await invoice("inv_1006")).refunded_cents).toBe(6_000);
  });

  it("refunding the whole balance marks the invoice refunded", async () => {
    const { confirm_token } = await preview("inv_1004", { amount: 45_000 });
    expect((await refund("inv_1004", randomUUID(), { amount: 45_000, dry_run: false, confirm_token })).status).toBe(200);
    expect(await invoice("inv_1004")).toMatchObject({ status: "refunded", refunded_cents: 90_000, total_cents: 90_000 });
  });
});

describe("billing: seed", () => {
  it("serves the seeded invoices in USD cents", async () => {
    for (const seededInvoice of BILLING_SEED_INVOICES) expect(await invoice(seededInvoice.id)).toEqual(seededInvoice);
    expect(new Set(BILLING_SEED_INVOICES.map((i) => i.status))).toEqual(new Set(["open", "paid", "failed", "disputed", "refunded"]));
  });
});
