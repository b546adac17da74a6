/**
 * Seeded defects (src/host-runtime/seeded-defects.ts): each one, seeded alone into a reference
 * platform, breaks exactly the promise its description names. Every case runs the same scenario
 * twice over HTTP: on the correct platform the promise holds, with the defect seeded the
 * misbehaviour is asserted explicitly (two effects under one key, a token accepted twice, …).
 */
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { BILLING_SEED_CUSTOMERS, startBillingServer } from "../../examples/billing/server.js";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import { startBookshelfServer } from "../../examples/bookshelf/server.js";
import { startReleasesServer } from "../../examples/releases/server.js";
import { type Faults, type RunningPlatform, SEEDED_DEFECT_IDS, SEEDED_DEFECTS, type SeededDefect, startPlatform } from "../../examples/shared/host.js";
import { openDatabase } from "../../examples/shared/sqlite.js";
import { type Call, client, expectError, HOUR, type Json, MINUTE, type QueryValue, TestClock } from "./http.js";

const TOKEN = "defects-test-token";
const READER_TOKEN = "defects-reader-token";

interface Platform {
  readonly server: RunningPlatform;
  readonly call: Call;
  readonly reader: Call;
  readonly clock: TestClock;
  readonly faults: Faults;
}

interface Case {
  readonly platform: "billing" | "incidents" | "bookshelf" | "releases";
  /** incidents: examined per count_incidents call. */
  readonly countMaxExamined?: number;
  /** The scenario: asserts the promise when `seeded` is false, the broken promise when true. */
  check(p: Platform, seeded: boolean): Promise<void>;
}

async function withPlatform(c: Case, defect: SeededDefect | undefined, body: (p: Platform) => Promise<void>): Promise<void> {
  const clock = new TestClock();
  const faults: Faults = {};
  const common = {
    token: TOKEN,
    now: clock.now,
    faults,
    log: () => undefined,
    ...(defect ? { defect } : {}),
  };
  const server =
    c.platform === "billing"
      ? await startBillingServer({ ...common, credentials: { [READER_TOKEN]: { caller: "reader", scopes: ["billing.customers:read", "billing.invoices:read"] } } })
      : c.platform === "bookshelf"
        ? await startBookshelfServer(common)
        : c.platform === "releases"
          ? await startReleasesServer(common)
          : await startIncidentsServer({ ...common, ...(c.countMaxExamined ? { countMaxExamined: c.countMaxExamined } : {}) });
  try {
    await body({ server, call: client(server.url, TOKEN), reader: client(server.url, READER_TOKEN), clock, faults });
  } finally {
    await server.close();
  }
}

// -- billing helpers --------------------------------------------------------------------------------

const SEEDED_CUSTOMERS = BILLING_SEED_CUSTOMERS.length;
const ADA = BILLING_SEED_CUSTOMERS[0]!.id;
/** A failed invoice with nothing refunded yet. */
const INVOICE = "inv_1003";

function createCustomer(call: Call, key: string, body: { email: string; name: string }) {
  return call("POST", "/customers", { headers: { "Idempotency-Key": key }, body });
}

async function customerCount(call: Call): Promise<number> {
  const reply = await call("GET", "/customers");
  expect(reply.status).toBe(200);
  return reply.body.total_count;
}

function refund(call: Call, key: string, body: Record<string, unknown>) {
  return call("POST", `/invoices/${INVOICE}/refunds`, { headers: { "Idempotency-Key": key }, body });
}

async function refunded(call: Call): Promise<number> {
  const reply = await call("GET", `/invoices/${INVOICE}`);
  expect(reply.status).toBe(200);
  return reply.body.refunded_cents;
}

async function confirmToken(call: Call, body: Record<string, unknown>): Promise<string> {
  const reply = await refund(call, randomUUID(), { ...body, dry_run: true });
  expect(reply.status).toBe(200);
  return reply.body.confirm_token;
}

interface Traversal {
  readonly pages: Json[];
  readonly items: Json[];
}

/** Follow next_cursor to the end, as a careful client would. */
async function traverse(call: Call, path: string, itemsField: string, query: Record<string, QueryValue>): Promise<Traversal> {
  const pages: Json[] = [];
  let cursor: string | undefined;
  do {
    const reply = await call("GET", path, { query: { ...query, ...(cursor ? { cursor } : {}) } });
    expect(reply.status).toBe(200);
    pages.push(reply.body);
    cursor = reply.body.next_cursor ?? undefined;
  } while (cursor && pages.length < 50);
  return { pages, items: pages.flatMap((p) => p[itemsField]) };
}

// -- the cases ----------------------------------------------------------------------------------------

const CASES: Readonly<Record<SeededDefect, Case>> = {
  "ignores-operation-key": {
    platform: "billing",
    async check({ call }, seeded) {
      const key = randomUUID();
      const first = await createCustomer(call, key, { email: "once@example.com", name: "Once" });
      const retry = await createCustomer(call, key, { email: "once@example.com", name: "Once" });
      expect([first.status, retry.status]).toEqual([201, 201]);
      if (!seeded) {
        expect(retry.headers.get("idempotent-replayed")).toBe("true");
        expect(retry.body).toEqual(first.body);
        expect(await customerCount(call)).toBe(SEEDED_CUSTOMERS + 1);
      } else {
        // Two effects under one key.
        expect(retry.headers.get("idempotent-replayed")).toBeNull();
        expect(retry.body.id).not.toBe(first.body.id);
        expect(await customerCount(call)).toBe(SEEDED_CUSTOMERS + 2);
      }
    },
  },

  "replays-changed-parameters": {
    platform: "billing",
    async check({ call }, seeded) {
      const key = randomUUID();
      const first = await createCustomer(call, key, { email: "first@example.com", name: "First" });
      expect(first.status).toBe(201);
      const changed = await createCustomer(call, key, { email: "second@example.com", name: "Second" });
      if (!seeded) {
        expectError(changed, 409, "IDEMPOTENCY_KEY_REUSED");
      } else {
        // The changed request is answered with the first outcome, as if it had been executed.
        expect(changed.status).toBe(201);
        expect(changed.headers.get("idempotent-replayed")).toBe("true");
        expect(changed.body).toEqual(first.body);
      }
      expect((await call("GET", "/customers", { query: { email: "second@example.com" } })).body.total_count).toBe(0);
    },
  },

  "executes-without-confirm-token": {
    platform: "billing",
    async check({ call }, seeded) {
      const reply = await refund(call, randomUUID(), { amount: 1_000, dry_run: false });
      if (!seeded) {
        expect(expectError(reply, 409, "CONFIRMATION_REQUIRED").details).toEqual({ reason: "missing" });
        expect(await refunded(call)).toBe(0);
      } else {
        expect(reply.status).toBe(200);
        expect(await refunded(call)).toBe(1_000);
      }
    },
  },

  "accepts-expired-token": {
    platform: "billing",
    async check({ call, clock }, seeded) {
      const token = await confirmToken(call, { amount: 1_000 });
      clock.advance(10 * MINUTE);
      const reply = await refund(call, randomUUID(), { amount: 1_000, dry_run: false, confirm_token: token });
      if (!seeded) {
        expect(expectError(reply, 409, "CONFIRMATION_REQUIRED").details).toEqual({ reason: "expired" });
        expect(await refunded(call)).toBe(0);
      } else {
        expect(reply.status).toBe(200);
        expect(await refunded(call)).toBe(1_000);
      }
    },
  },

  "reuses-single-use-token": {
    platform: "billing",
    async check({ call }, seeded) {
      const token = await confirmToken(call, { amount: 1_000 });
      expect((await refund(call, randomUUID(), { amount: 1_000, dry_run: false, confirm_token: token })).status).toBe(200);
      const again = await refund(call, randomUUID(), { amount: 1_000, dry_run: false, confirm_token: token });
      if (!seeded) {
        expect(expectError(again, 409, "CONFIRMATION_REQUIRED").details).toEqual({ reason: "used" });
        expect(await refunded(call)).toBe(1_000);
      } else {
        // One preview, two refunds.
        expect(again.status).toBe(200);
        expect(await refunded(call)).toBe(2_000);
      }
    },
  },

  "ignores-expected-revision": {
    platform: "billing",
    async check({ call }, seeded) {
      expect((await call("PATCH", `/customers/${ADA}`, { headers: { "If-Match": "1" }, body: { name: "Rev Two" } })).status).toBe(200);
      const stale = await call("PATCH", `/customers/${ADA}`, { headers: { "If-Match": "1" }, body: { name: "Lost Update" } });
      const current = (await call("GET", `/customers/${ADA}`)).body;
      if (!seeded) {
        expect(expectError(stale, 412, "REVISION_CONFLICT", "expected_revision").details).toEqual({ revision: 2 });
        expect(current).toMatchObject({ name: "Rev Two", revision: 2 });
      } else {
        // The update made at revision 2 is overwritten by a caller who last read revision 1.
        expect(stale.status).toBe(200);
        expect(current).toMatchObject({ name: "Lost Update", revision: 3 });
      }
    },
  },

  "precondition-only-at-execution": {
    platform: "billing",
    async check({ call }, seeded) {
      // The invoice has refunded_cents 0: an expectation of 500 is stale.
      const body = { amount: 1_000, expected_refunded_cents: 500 };
      const preview = await refund(call, randomUUID(), { ...body, dry_run: true });
      if (!seeded) {
        expectError(preview, 412, "INVOICE_CHANGED", "expected_refunded_cents");
      } else {
        // The preview promises an effect the execution then refuses.
        expect(preview.status).toBe(200);
        const execute = await refund(call, randomUUID(), { ...body, dry_run: false, confirm_token: preview.body.confirm_token });
        expectError(execute, 412, "INVOICE_CHANGED", "expected_refunded_cents");
      }
      expect(await refunded(call)).toBe(0);
    },
  },

  "ignores-invalid-input": {
    platform: "billing",
    async check({ call }, seeded) {
      const reply = await refund(call, randomUUID(), { amount: 1_000, reason: "because", dry_run: true });
      if (!seeded) expectError(reply, 400, "INVALID_FIELD", "reason");
      else expect(reply.status).toBe(200);
    },
  },

  "undeclared-error-code": {
    platform: "billing",
    async check({ call, server }, seeded) {
      const reply = await call("GET", "/invoices/inv_9999");
      const declared = new Set(server.model.errors.map((e) => e.code));
      if (!seeded) {
        expectError(reply, 404, "INVOICE_NOT_FOUND");
        expect(declared.has(reply.body.error.code)).toBe(true);
      } else {
        expectError(reply, 404, "NOT_FOUND");
        expect(declared.has(reply.body.error.code)).toBe(false);
      }
    },
  },

  "permission-as-transient": {
    platform: "billing",
    async check({ call, reader, server }, seeded) {
      const reply = await createCustomer(reader, randomUUID(), { email: "r@example.com", name: "Reader" });
      const classOf = (code: string) => server.model.errors.find((e) => e.code === code)?.class;
      if (!seeded) {
        expectError(reply, 403, "ROLE_FORBIDDEN");
        expect(classOf(reply.body.error.code)).toBe("permission");
      } else {
        // A caller told to retry what can never succeed.
        expectError(reply, 504, "UPSTREAM_TIMEOUT");
        expect(classOf(reply.body.error.code)).toBe("transient");
      }
      expect(await customerCount(call)).toBe(SEEDED_CUSTOMERS);
    },
  },

  "leaks-unprojected-field": {
    platform: "incidents",
    async check({ call }, seeded) {
      const reply = await call("GET", "/incidents", { query: { fields: ["title"], limit: 5 } });
      expect(reply.status).toBe(200);
      expect(reply.body.incidents).toHaveLength(5);
      for (const incident of reply.body.incidents as Json[]) {
        const outside = Object.keys(incident).filter((k) => k !== "id" && k !== "title");
        expect(incident).toHaveProperty("title");
        expect(outside).toHaveLength(seeded ? 1 : 0);
      }
    },
  },

  "stops-pagination-early": {
    platform: "billing",
    async check({ call }, seeded) {
      for (const [limit, pages] of [
        [1, 3],
        [2, 2],
      ] as const) {
        const traversal = await traverse(call, "/customers", "customers", { limit });
        const last = traversal.pages[traversal.pages.length - 1];
        expect(last.next_cursor).toBeNull();
        expect(last.total_count).toBe(SEEDED_CUSTOMERS);
        if (!seeded) {
          expect(traversal.pages).toHaveLength(pages);
          expect(traversal.items).toHaveLength(SEEDED_CUSTOMERS);
        } else {
          // The traversal ends one page early while the total still counts the records never served.
          expect(traversal.pages).toHaveLength(pages - 1);
          expect(traversal.items.length).toBeLessThan(last.total_count);
        }
      }
    },
  },

  "drops-partial": {
    platform: "incidents",
    async check({ call, faults }, seeded) {
      faults.partialPages = [{ operation: "list_incidents", page: 2, missing: 3, error: { code: "UPSTREAM_TIMEOUT", message: "Shard eu-2 timed out.", source: "shard-eu-2" } }];
      const traversal = await traverse(call, "/incidents", "incidents", { limit: 40 });
      const total = traversal.pages[0].total_matching;
      // Three incidents are missing either way: only the report of it differs.
      expect(traversal.items).toHaveLength(total - 3);
      const second = traversal.pages[1];
      if (!seeded) {
        expect(second.partial).toBe(true);
        expect(second.errors).toEqual([{ code: "UPSTREAM_TIMEOUT", message: "Shard eu-2 timed out.", source: "shard-eu-2" }]);
      } else {
        expect(traversal.pages.every((p) => p.partial === false && p.errors.length === 0)).toBe(true);
      }
    },
  },

  "miscounts-total": {
    platform: "billing",
    async check({ call }, seeded) {
      const traversal = await traverse(call, "/customers", "customers", { limit: 2 });
      expect(traversal.items).toHaveLength(SEEDED_CUSTOMERS);
      for (const page of traversal.pages) expect(page.total_count).toBe(SEEDED_CUSTOMERS + (seeded ? 1 : 0));
    },
  },

  "empty-last-page-cursor": {
    platform: "incidents",
    async check({ call }, seeded) {
      // 120 incidents in pages of 40: the third page holds the last ones.
      const traversal = await traverse(call, "/incidents", "incidents", { limit: 40, fields: ["id"] });
      expect(traversal.items).toHaveLength(120);
      if (!seeded) {
        expect(traversal.pages).toHaveLength(3);
      } else {
        // The third page says more follow; the fourth is empty and ends the traversal.
        expect(traversal.pages).toHaveLength(4);
        expect(traversal.pages[2].next_cursor).toEqual(expect.any(String));
        expect(traversal.pages[3]).toMatchObject({ incidents: [], next_cursor: null });
      }
    },
  },

  "cursor-restarts": {
    platform: "incidents",
    async check({ call }, seeded) {
      const traversal = await traverse(call, "/incidents", "incidents", { limit: 40, fields: ["id"] });
      const ids = traversal.items.map((i) => i.id);
      if (!seeded) {
        expect(traversal.pages).toHaveLength(3);
        expect(new Set(ids).size).toBe(120);
      } else {
        // Page 3 repeats page 1, and so on: the helper stops at 50 pages.
        expect(traversal.pages).toHaveLength(50);
        expect(traversal.pages[2].incidents).toEqual(traversal.pages[0].incidents);
        expect(new Set(ids).size).toBe(80);
      }
    },
  },

  "total-ignores-filter": {
    platform: "incidents",
    async check({ call }, seeded) {
      const all = await traverse(call, "/incidents", "incidents", { fields: ["id"] });
      const filtered = await traverse(call, "/incidents", "incidents", { severity: "P1", fields: ["id"] });
      expect(all.pages[0].total_matching).toBe(120);
      expect(filtered.items.length).toBeGreaterThan(0);
      expect(filtered.items.length).toBeLessThan(120);
      expect(filtered.pages[0].total_matching).toBe(seeded ? 120 : filtered.items.length);
    },
  },

  "count-ignores-filter": {
    platform: "incidents",
    async check({ call }, seeded) {
      const listed = await traverse(call, "/incidents", "incidents", { severity: "P1", fields: ["id"] });
      const count = await call("GET", "/incident-count", { query: { severity: "P1" } });
      expect(count.status).toBe(200);
      expect(count.body.complete).toBe(true);
      expect(count.body.count).toBe(seeded ? 120 : listed.items.length);
      // The other filters still count.
      const staging = await traverse(call, "/incidents", "incidents", { environment: "staging", fields: ["id"] });
      const stagingCount = await call("GET", "/incident-count", { query: { environment: "staging" } });
      expect(stagingCount.body.count).toBe(staging.items.length);
    },
  },

  "filter-value-fails": {
    platform: "incidents",
    async check({ call }, seeded) {
      const p4 = await call("GET", "/incidents", { query: { severity: "P4" } });
      expect(p4.status).toBe(seeded ? 500 : 200);
      const p3 = await call("GET", "/incidents", { query: { severity: "P3" } });
      expect(p3.status).toBe(200);
    },
  },

  "count-stops-early": {
    platform: "incidents",
    countMaxExamined: 50,
    async check({ call }, seeded) {
      const all = await traverse(call, "/incidents", "incidents", { fields: ["id"] });
      const first = await call("GET", "/incident-count");
      expect(first.status).toBe(200);
      expect(first.body.records_examined).toBe(50);
      expect(all.items.length).toBeGreaterThan(50);
      if (!seeded) {
        expect(first.body).toMatchObject({ complete: false, continuation: expect.any(String) });
      } else {
        // Says it examined everything after reading 50 of the register.
        expect(first.body).toMatchObject({ complete: true, continuation: null });
        expect(first.body.count).toBeLessThan(all.items.length);
      }
    },
  },

  "key-shared-across-operations": {
    platform: "billing",
    async check({ call }, seeded) {
      // One key, first on create_customer, then on refund_invoice: keys are scoped to their operation.
      const key = randomUUID();
      expect((await createCustomer(call, key, { email: "keyed@example.com", name: "Keyed" })).status).toBe(201);
      const token = await confirmToken(call, { amount: 1_000 });
      const reply = await refund(call, key, { amount: 1_000, dry_run: false, confirm_token: token });
      if (!seeded) {
        expect(reply.status).toBe(200);
        expect(reply.body).toMatchObject({ invoice_id: INVOICE, amount: 1_000 });
      } else {
        // The refund finds create_customer's entry under the key: other parameters, refused.
        expectError(reply, 409, "IDEMPOTENCY_KEY_REUSED");
      }
      expect(await refunded(call)).toBe(seeded ? 0 : 1_000);
    },
  },

  "delete-missing-succeeds": {
    platform: "bookshelf",
    async check({ call }, seeded) {
      const path = "/books/bk_hobbit37";
      const tokens: string[] = [];
      for (let i = 0; i < 2; i++) {
        const preview = await call("DELETE", path, { query: { dry_run: true } });
        expect(preview.status).toBe(200);
        tokens.push(preview.body.confirm_token);
      }
      expect((await call("DELETE", path, { query: { dry_run: false, confirm_token: tokens[0]! } })).status).toBe(200);
      // The second token is valid (same parameters, unused), but the book is gone.
      const again = await call("DELETE", path, { query: { dry_run: false, confirm_token: tokens[1]! } });
      if (!seeded) {
        expect(again.status).toBe(404);
      } else {
        expect(again.status).toBe(200);
        expect(again.body.deleted).toBe(true);
      }
      // A preview says not found either way.
      expect((await call("DELETE", path, { query: { dry_run: true } })).status).toBe(404);
    },
  },

  "execution-exceeds-preview": {
    platform: "billing",
    async check({ call }, seeded) {
      const before = (await call("GET", `/invoices/${INVOICE}`)).body;
      const token = await confirmToken(call, { amount: 1_000 });
      expect((await refund(call, randomUUID(), { amount: 1_000, dry_run: false, confirm_token: token })).status).toBe(200);
      const after = (await call("GET", `/invoices/${INVOICE}`)).body;
      // The refund leaves a balance: only refunded_cents moves, the status stays.
      expect(after).toEqual({ ...before, refunded_cents: before.refunded_cents + 1_000, status: seeded ? "open" : before.status });
      expect(before.status).not.toBe("open");
    },
  },

  "precondition-case-insensitive": {
    platform: "incidents",
    async check({ call }, seeded) {
      const before = (await call("GET", "/incidents/INC-017")).body;
      const reply = await call("PUT", "/incidents/INC-017/owner", {
        headers: { "If-Match": String(before.revision) },
        body: { owner: "platform-oncall", expected_owner: String(before.owner).toUpperCase() },
      });
      const after = (await call("GET", "/incidents/INC-017")).body;
      if (!seeded) {
        expectError(reply, 412, "REVISION_CONFLICT", "expected_owner");
        expect(after).toEqual(before);
      } else {
        expect(reply.status).toBe(200);
        expect(after.owner).toBe("platform-oncall");
      }
    },
  },

  "code-member-by-status": {
    platform: "bookshelf",
    async check({ call }, seeded) {
      const reply = await call("GET", "/books/bk_nosuch1");
      // The status is the declared one either way: only the code member (body style, at /code) tells the error apart.
      expect(reply.status).toBe(404);
      expect(reply.body.code).toBe(seeded ? "error" : "NOT_FOUND");
    },
  },

  "revision-not-bumped": {
    platform: "billing",
    async check({ call }, seeded) {
      expect((await call("PATCH", `/customers/${ADA}`, { headers: { "If-Match": "1" }, body: { name: "Rev Two" } })).status).toBe(200);
      expect((await call("GET", `/customers/${ADA}`)).body).toMatchObject({ name: "Rev Two", revision: seeded ? 1 : 2 });
    },
  },

  // -- stateful promises (issue 39) --------------------------------------------------------------------

  "deleted-book-still-readable": {
    platform: "bookshelf",
    async check({ call }, seeded) {
      const path = "/books/bk_hobbit37";
      // Read before the delete: the defect's cache now holds the book.
      expect((await call("GET", path)).status).toBe(200);
      await deleteBook(call, path);
      const after = await call("GET", path);
      if (!seeded) {
        expect(after.status).toBe(404);
      } else {
        expect(after.status).toBe(200);
        expect(after.body.id).toBe("bk_hobbit37");
      }
      expect((await call("GET", "/books", { query: { limit: 100 } })).body.items.map((b: Json) => b.id)).not.toContain("bk_hobbit37");
    },
  },

  "deleted-book-still-listed": {
    platform: "bookshelf",
    async check({ call }, seeded) {
      const path = "/books/bk_hobbit37";
      await deleteBook(call, path);
      expect((await call("GET", path)).status).toBe(404);
      const listed = (await call("GET", "/books", { query: { limit: 100 } })).body.items.map((b: Json) => b.id);
      expect(listed.includes("bk_hobbit37")).toBe(seeded);
    },
  },

  "dry-run-default-ignored": {
    platform: "billing",
    async check({ call }, seeded) {
      // No dry_run, no key, no token: preview.default is true.
      const reply = await call("POST", `/invoices/${INVOICE}/refunds`, { body: { amount: 1_000 } });
      if (!seeded) {
        expect(reply.status).toBe(200);
        expect(reply.body.confirm_token).toEqual(expect.any(String));
      } else {
        // Taken for an execution: refused for its missing key.
        expectError(reply, 400, "INVALID_FIELD", "idempotency_key");
      }
      expect(await refunded(call)).toBe(0);
    },
  },

  "token-without-flag-executes": {
    platform: "billing",
    async check({ call }, seeded) {
      const token = await confirmToken(call, { amount: 1_000 });
      const reply = await refund(call, randomUUID(), { amount: 1_000, confirm_token: token });
      expect(reply.status).toBe(200);
      if (!seeded) {
        expect(reply.body.confirm_token).toEqual(expect.any(String));
        expect(await refunded(call)).toBe(0);
      } else {
        expect(reply.body.status).toBe("succeeded");
        expect(await refunded(call)).toBe(1_000);
      }
    },
  },

  "precondition-not-rechecked-at-execution": {
    platform: "billing",
    async check({ call }, seeded) {
      const params = { amount: 1_000, expected_refunded_cents: 0 };
      const early = await confirmToken(call, params);
      // Another refund moves refunded_cents after the first preview.
      expect((await refund(call, randomUUID(), { ...params, dry_run: false, confirm_token: await confirmToken(call, params) })).status).toBe(200);
      const stale = await refund(call, randomUUID(), { ...params, dry_run: false, confirm_token: early });
      if (!seeded) {
        expectError(stale, 412, "INVOICE_CHANGED", "expected_refunded_cents");
        expect(await refunded(call)).toBe(1_000);
      } else {
        expect(stale.status).toBe(200);
        expect(await refunded(call)).toBe(2_000);
      }
    },
  },

  "balance-checked-at-preview-only": {
    platform: "billing",
    async check({ call }, seeded) {
      // inv_1003: 9900 refundable; two previews of 9000 both fit, the two refunds do not.
      const first = await confirmToken(call, { amount: 9_000 });
      const second = await confirmToken(call, { amount: 9_000 });
      expect((await refund(call, randomUUID(), { amount: 9_000, dry_run: false, confirm_token: second })).status).toBe(200);
      const late = await refund(call, randomUUID(), { amount: 9_000, dry_run: false, confirm_token: first });
      if (!seeded) {
        expectError(late, 409, "REFUND_EXCEEDS_BALANCE", "amount");
        expect(await refunded(call)).toBe(9_000);
      } else {
        expect(late.status).toBe(200);
        expect(await refunded(call)).toBe(18_000);
      }
    },
  },

  "forgets-keys-early": {
    platform: "billing",
    async check({ call, clock }, seeded) {
      const key = randomUUID();
      const first = await createCustomer(call, key, { email: "kept@example.com", name: "Kept" });
      expect(first.status).toBe(201);
      // Two hours on: well within the declared 24 h.
      clock.advance(2 * HOUR);
      const retry = await createCustomer(call, key, { email: "kept@example.com", name: "Kept" });
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBe(seeded ? null : "true");
      expect(await customerCount(call)).toBe(SEEDED_CUSTOMERS + (seeded ? 2 : 1));
      // Past the retention a key may be forgotten, seeded or not.
      clock.advance(23 * HOUR);
      expect((await createCustomer(call, key, { email: "kept@example.com", name: "Kept" })).headers.get("idempotent-replayed")).toBeNull();
    },
  },

  "preview-skips-scopes": {
    platform: "billing",
    async check({ call, reader }, seeded) {
      // The reader may read invoices but lacks billing.refunds:write.
      const preview = await refund(reader, randomUUID(), { amount: 1_000, dry_run: true });
      if (!seeded) {
        expectError(preview, 403, "ROLE_FORBIDDEN");
      } else {
        expect(preview.status).toBe(200);
        expect(preview.body.confirm_token).toEqual(expect.any(String));
        // The execution still needs the scope.
        expectError(await refund(reader, randomUUID(), { amount: 1_000, dry_run: false, confirm_token: preview.body.confirm_token }), 403, "ROLE_FORBIDDEN");
      }
      expect(await refunded(call)).toBe(0);
    },
  },

  "transient-after-commit-not-replayed": {
    platform: "billing",
    async check({ call, faults }, seeded) {
      const { retry } = await createAfterTransientCommit(call, faults);
      if (!seeded) {
        expect(retry.status).toBe(201);
        expect(retry.headers.get("idempotent-replayed")).toBe("true");
      } else {
        expect(retry.status).toBe(504);
        expect(retry.body.error.code).toBe("UPSTREAM_TIMEOUT");
      }
      expect(await customerCount(call)).toBe(SEEDED_CUSTOMERS + 1);
    },
  },

  "transient-after-commit-executes-again": {
    platform: "billing",
    async check({ call, faults }, seeded) {
      const { retry } = await createAfterTransientCommit(call, faults);
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBe(seeded ? null : "true");
      expect(await customerCount(call)).toBe(SEEDED_CUSTOMERS + (seeded ? 2 : 1));
    },
  },

  // Filters that say what they mean (issue 39).
  "prefix-ignores-case": {
    platform: "releases",
    async check({ call }, seeded) {
      const lower = await traverse(call, "/releases", "releases", { tag_prefix: "v1.2" });
      expect(lower.items.length).toBeGreaterThan(0);
      const upper = await traverse(call, "/releases", "releases", { tag_prefix: "V1.2" });
      expect(upper.items.length).toBe(seeded ? lower.items.length : 0);
    },
  },

  "prefix-matches-substring": {
    platform: "releases",
    async check({ call }, seeded) {
      const inside = await traverse(call, "/releases", "releases", { tag_prefix: "1.2" });
      if (!seeded) expect(inside.items).toEqual([]);
      else expect(inside.items.every((r: Json) => r.tag_name.includes("1.2") && !r.tag_name.startsWith("1.2"))).toBe(true);
      if (seeded) expect(inside.items.length).toBeGreaterThan(0);
    },
  },

  "range-bound-inclusive": {
    platform: "incidents",
    async check({ call }, seeded) {
      const all = await traverse(call, "/incidents", "incidents", { fields: ["id", "opened_at"] });
      const at = all.items[Math.floor(all.items.length / 2)].opened_at as string;
      const after = await traverse(call, "/incidents", "incidents", { opened_after: at, fields: ["id", "opened_at"] });
      const strictlyLater = all.items.filter((i: Json) => Date.parse(i.opened_at) > Date.parse(at)).length;
      expect(after.items.length).toBe(strictlyLater + (seeded ? all.items.filter((i: Json) => i.opened_at === at).length : 0));
    },
  },

  "count-range-inclusive": {
    platform: "incidents",
    async check({ call }, seeded) {
      const all = await traverse(call, "/incidents", "incidents", { fields: ["id", "opened_at"] });
      const at = all.items[Math.floor(all.items.length / 2)].opened_at as string;
      const listed = await traverse(call, "/incidents", "incidents", { opened_after: at, fields: ["id"] });
      const count = await call("GET", "/incident-count", { query: { opened_after: at } });
      expect(count.status).toBe(200);
      expect(count.body.complete).toBe(true);
      const atTheBound = all.items.filter((i: Json) => i.opened_at === at).length;
      expect(atTheBound).toBeGreaterThan(0);
      expect(count.body.count).toBe(listed.items.length + (seeded ? atTheBound : 0));
    },
  },
};

/** Preview the delete of the book at `path` and confirm it. */
async function deleteBook(call: Call, path: string): Promise<void> {
  const preview = await call("DELETE", path, { query: { dry_run: true } });
  expect(preview.status).toBe(200);
  expect((await call("DELETE", path, { query: { dry_run: false, confirm_token: preview.body.confirm_token } })).status).toBe(200);
}

/**
 * A customer created under a key whose commit is answered with the transient error
 * (transientAfterCommitOnce: outcome unknown, the customer created), then the retry under that key.
 */
async function createAfterTransientCommit(call: Call, faults: Faults): Promise<{ retry: Awaited<ReturnType<Call>> }> {
  faults.transientAfterCommitOnce = ["create_customer"];
  const key = randomUUID();
  const body = { email: "after-commit@example.com", name: "After Commit" };
  const first = await createCustomer(call, key, body);
  expect({ status: first.status, code: first.body.error.code, outcome: first.body.error.outcome }).toEqual({ status: 504, code: "UPSTREAM_TIMEOUT", outcome: "unknown" });
  expect(await customerCount(call)).toBe(SEEDED_CUSTOMERS + 1);
  return { retry: await createCustomer(call, key, body) };
}

describe("seeded defects: each breaks the promise it names, and only with the switch on", () => {
  it("every defect has a one-line description and a case here", () => {
    expect(SEEDED_DEFECT_IDS.length).toBeGreaterThanOrEqual(12);
    for (const id of SEEDED_DEFECT_IDS) {
      expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(SEEDED_DEFECTS[id]).toMatch(/^[^\n]{20,}$/);
    }
    expect(Object.keys(CASES).sort()).toEqual([...SEEDED_DEFECT_IDS].sort());
    const readme = readFileSync("examples/README.md", "utf8");
    expect(SEEDED_DEFECT_IDS.filter((id) => !readme.includes(`| \`${id}\` |`))).toEqual([]);
  });

  describe.each(SEEDED_DEFECT_IDS.map((id) => [id, CASES[id]] as const))("%s", (id, c) => {
    it("the correct platform keeps the promise", () => withPlatform(c, undefined, (p) => c.check(p, false)));
    it("the seeded platform breaks it", () =>
      withPlatform(c, id, async (p) => {
        expect(p.server.defect).toBe(id);
        await c.check(p, true);
      }));
  });

  it("an unknown defect is refused at start, naming the valid ones", async () => {
    const db = openDatabase(":memory:");
    try {
      await expect(startPlatform({ spec: "specs/billing.v2.yaml", handlers: {}, db, token: TOKEN, defect: "drops-everything" as SeededDefect })).rejects.toThrow(
        /drops-everything is not a seeded defect; use one of ignores-operation-key, .*count-stops-early/,
      );
    } finally {
      db.close();
    }
  });
});

describe("seeded defects: --defect on the example servers", () => {
  const main = resolve("dist/examples/billing/main.js");
  const built = existsSync(main);

  it.runIf(built)("a bad name exits 2 and lists the valid ones", () => {
    const run = spawnSync(process.execPath, [main, "--token", TOKEN, "--port", "0", "--defect", "nope"], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`--defect must be one of ${SEEDED_DEFECT_IDS.join(", ")}, not nope`);
  });

  it.runIf(built)("a valid name serves the platform with that defect, and says so", async () => {
    const child = spawn(process.execPath, [main, "--token", TOKEN, "--port", "0", "--defect", "undeclared-error-code"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const url = await new Promise<string>((resolveUrl, reject) => {
        let stdout = "";
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /listening on (\S+)/.exec(stdout);
          if (match?.[1]) resolveUrl(match[1]);
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });
      const reply = await client(url, TOKEN)("GET", "/invoices/inv_9999");
      expectError(reply, 404, "NOT_FOUND");
      expect(stderr).toContain("seeded defect undeclared-error-code");
    } finally {
      child.kill();
    }
  });
});
