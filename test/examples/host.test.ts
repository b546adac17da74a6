/** The shared contract host with hand-written handlers: the generic behaviours and its guard rails. */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type HandlerContext, type Handlers, PlatformError, type RunningPlatform, startPlatform } from "../../examples/shared/host.js";
import { openDatabase } from "../../examples/shared/sqlite.js";
import type { ContractModel } from "../../src/model/types.js";
import { parseContractText } from "../../src/contract/parse.js";
import { type Call, client, expectError } from "./http.js";

const SPEC = "specs/billing.v2.yaml";
const TOKEN = "host-test-token";

const customer = (id: string, email = "h@example.com") => ({ id, email, name: "Host", revision: 1, created_at: "2026-07-01T00:00:00.000Z" });
const invoice = { id: "inv_1", customer_id: "cus_1", status: "paid", total_cents: 100, refunded_cents: 0, currency: "USD" };

/** Handlers for every billing operation; tests override the ones they exercise. */
function stubHandlers(overrides: Partial<Record<string, Handlers[string]>> = {}): Handlers {
  return {
    create_customer: () => customer("cus_1"),
    get_customer: (input: { customer_id: string }) => customer(input.customer_id),
    list_customers: () => ({ customers: [], next_cursor: null, total_count: 0 }),
    update_customer: { target: () => ({ revision: 1 }), execute: (input: { customer_id: string }) => customer(input.customer_id) },
    get_invoice: () => invoice,
    refund_invoice: {
      target: () => ({ refunded_cents: 0 }),
      preview: () => ({ invoice_id: "inv_1", amount: 1, balance_after_cents: 99, expires_at: "2026-07-01T00:10:00.000Z" }),
      execute: () => ({ id: "re_1", invoice_id: "inv_1", amount: 1, status: "succeeded" }),
    },
    ...overrides,
  } as Handlers;
}

let platform: RunningPlatform | undefined;
let logged: string[];

async function serve(handlers: Handlers, spec: string | ContractModel = SPEC): Promise<Call> {
  logged = [];
  platform = await startPlatform({ spec, handlers, db: openDatabase(), token: TOKEN, log: (line) => logged.push(line) });
  return client(platform.url, TOKEN);
}

afterEach(async () => {
  await platform?.close();
  platform?.db.close();
  platform = undefined;
});

describe("contract host", () => {
  it("serves async read handlers", async () => {
    const call = await serve(stubHandlers({ get_invoice: async () => invoice }));
    expect((await call("GET", "/invoices/inv_1")).body).toEqual(invoice);
  });

  it("an unexpected exception is a 500 with the envelope (INTERNAL: billing has no internal code) and is logged", async () => {
    const call = await serve(
      stubHandlers({
        get_invoice: () => {
          throw new Error("disk on fire");
        },
      }),
    );
    const requestId = randomUUID();
    const error = expectError(await call("GET", "/invoices/inv_1", { headers: { "x-request-id": requestId } }), 500, "INTERNAL");
    expect(error.operationId).toBe(requestId);
    expect(error.message).not.toContain("disk on fire");
    expect(logged.join("\n")).toContain("disk on fire");
  });

  it("a code the operation does not list is a handler bug: 500", async () => {
    const call = await serve(
      stubHandlers({
        get_invoice: () => {
          throw new PlatformError("EMAIL_TAKEN", "not an invoice error");
        },
      }),
    );
    expectError(await call("GET", "/invoices/inv_1"), 500, "INTERNAL");
    expect(logged.join("\n")).toContain("does not list");
  });

  it("output the contract does not allow is a 500; the mutation is rolled back and the key stays free", async () => {
    let calls = 0;
    const call = await serve(
      stubHandlers({
        create_customer: (_input: unknown, ctx: HandlerContext) => {
          calls++;
          ctx.db.exec("CREATE TABLE IF NOT EXISTS marks (n INTEGER)");
          ctx.db.prepare("INSERT INTO marks (n) VALUES (1)").run();
          return calls === 1 ? { id: "not-a-customer-id" } : customer("cus_2");
        },
      }),
    );
    const key = randomUUID();
    const create = () => call("POST", "/customers", { headers: { "Idempotency-Key": key }, body: { email: "h@example.com", name: "H" } });
    expectError(await create(), 500, "INTERNAL");
    expect(logged.join("\n")).toContain("does not allow");
    const retry = await create();
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect((platform!.db.prepare("SELECT COUNT(*) AS n FROM marks").get() as { n: number }).n).toBe(1);
  });

  it("a rejected keyed execution is not recorded: nothing happened, so the key may be used again", async () => {
    let taken = true;
    const call = await serve(
      stubHandlers({
        create_customer: () => {
          if (taken) throw new PlatformError("ROLE_FORBIDDEN", "not allowed yet");
          return customer("cus_3");
        },
      }),
    );
    const key = randomUUID();
    expectError(await call("POST", "/customers", { headers: { "Idempotency-Key": key }, body: { email: "a@example.com", name: "A" } }), 403, "ROLE_FORBIDDEN");
    taken = false;
    expect((await call("POST", "/customers", { headers: { "Idempotency-Key": key }, body: { email: "b@example.com", name: "B" } })).status).toBe(201);
  });

  it("async mutation handlers commit with the journal entry: a retry replays, one effect", async () => {
    const call = await serve(
      stubHandlers({
        create_customer: async (_input: unknown, ctx: HandlerContext) => {
          ctx.db.exec("CREATE TABLE IF NOT EXISTS marks (n INTEGER)");
          await new Promise((resolve) => setTimeout(resolve, 5));
          ctx.db.prepare("INSERT INTO marks (n) VALUES (1)").run();
          await Promise.resolve();
          return customer("cus_4");
        },
      }),
    );
    const key = randomUUID();
    const create = () => call("POST", "/customers", { headers: { "Idempotency-Key": key }, body: { email: "a@example.com", name: "A" } });
    const [a, b] = await Promise.all([create(), create()]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a, b].filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(1);
    expect((await create()).headers.get("idempotent-replayed")).toBe("true");
    expect((platform!.db.prepare("SELECT COUNT(*) AS n FROM marks").get() as { n: number }).n).toBe(1);
  });

  it("an async mutation that fails after writing is rolled back with its journal entry: the key stays free", async () => {
    let calls = 0;
    const call = await serve(
      stubHandlers({
        create_customer: async (_input: unknown, ctx: HandlerContext) => {
          calls++;
          ctx.db.exec("CREATE TABLE IF NOT EXISTS marks (n INTEGER)");
          ctx.db.prepare("INSERT INTO marks (n) VALUES (?)").run(calls);
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (calls === 1) throw new Error("the payment provider hung up");
          return customer("cus_5");
        },
      }),
    );
    const key = randomUUID();
    const create = () => call("POST", "/customers", { headers: { "Idempotency-Key": key }, body: { email: "a@example.com", name: "A" } });
    expectError(await create(), 500, "INTERNAL");
    const retry = await create();
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(platform!.db.prepare("SELECT n FROM marks").all()).toEqual([{ n: 2 }]);
  });

  it("the preview's confirm token is set by the host", async () => {
    const call = await serve(stubHandlers());
    const reply = await call("POST", "/invoices/inv_1/refunds", { headers: { "Idempotency-Key": randomUUID() }, body: { amount: 1 } });
    expect(reply.status).toBe(200);
    expect(reply.body.confirm_token).toMatch(/^ct_/);
  });

  describe("preview.singleUse", () => {
    const refunds = () => (platform!.db.prepare("SELECT COUNT(*) AS n FROM refunds_done").get() as { n: number }).n;
    const counting = () =>
      stubHandlers({
        refund_invoice: {
          target: () => ({ refunded_cents: 0 }),
          preview: () => ({ invoice_id: "inv_1", amount: 1, balance_after_cents: 99, expires_at: "2026-07-01T00:10:00.000Z" }),
          execute: (_input: unknown, ctx: HandlerContext) => {
            ctx.db.exec("CREATE TABLE IF NOT EXISTS refunds_done (n INTEGER)");
            ctx.db.prepare("INSERT INTO refunds_done (n) VALUES (1)").run();
            return { id: "re_1", invoice_id: "inv_1", amount: 1, status: "succeeded" };
          },
        },
      });
    async function previewThenExecute(spec?: ContractModel) {
      const call = await serve(counting(), spec);
      const preview = await call("POST", "/invoices/inv_1/refunds", { headers: { "Idempotency-Key": randomUUID() }, body: { amount: 1 } });
      const execute = (key: string) => call("POST", "/invoices/inv_1/refunds", { headers: { "Idempotency-Key": key }, body: { amount: 1, dry_run: false, confirm_token: preview.body.confirm_token } });
      const first = randomUUID();
      expect((await execute(first)).status).toBe(200);
      return { execute, first };
    }

    it("by default a token authorises one execution; a replay of its key is not a second one", async () => {
      const { execute, first } = await previewThenExecute();
      const replay = await execute(first);
      expect([replay.status, replay.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
      const second = expectError(await execute(randomUUID()), 409, "CONFIRMATION_REQUIRED");
      expect(second.details).toEqual({ reason: "used" });
      expect(refunds()).toBe(1);
    });

    it("singleUse: false lets the token authorise further executions of the same parameters", async () => {
      const text = readFileSync(SPEC, "utf8").replace("      singleUse: true\n", "      singleUse: false\n");
      expect(text).toContain("singleUse: false");
      const parsed = parseContractText(SPEC, text);
      expect(parsed.diagnostics).toEqual([]);
      const { execute } = await previewThenExecute(parsed.model!);
      expect((await execute(randomUUID())).status).toBe(200);
      expect(refunds()).toBe(2);
    });
  });

  it("refuses incomplete handler maps at start-up", async () => {
    const db = openDatabase();
    const { get_invoice: _, ...missing } = stubHandlers();
    await expect(startPlatform({ spec: SPEC, handlers: missing, db, token: TOKEN })).rejects.toThrow("no handler for get_invoice");
    await expect(startPlatform({ spec: SPEC, handlers: stubHandlers({ refund_invoice: () => ({}) }), db, token: TOKEN })).rejects.toThrow("needs preview() and execute()");
    await expect(startPlatform({ spec: SPEC, handlers: stubHandlers({ update_customer: () => ({}) }), db, token: TOKEN })).rejects.toThrow("needs target() and execute()");
    await expect(startPlatform({ spec: SPEC, handlers: stubHandlers({ delete_everything: () => ({}) }), db, token: TOKEN })).rejects.toThrow("not an operation of billing");
    await expect(startPlatform({ spec: SPEC, handlers: stubHandlers(), db })).rejects.toThrow("give a token");
    db.close();
  });
});

describe("PlatformError across copies of the runtime", () => {
  it("a generated package's PlatformError is recognised by another copy's host (and NotImplementedError stays narrower)", async () => {
    const own = await import("../../src/host-runtime/errors.js");
    const copy = await import("../../generated-examples/incidents-skeleton/mcp/host/errors.js");
    expect(copy.PlatformError).not.toBe(own.PlatformError);
    expect(new copy.PlatformError("X", "m") instanceof own.PlatformError).toBe(true);
    expect(new copy.NotImplementedError("op") instanceof own.NotImplementedError).toBe(true);
    expect(new copy.NotImplementedError("op") instanceof own.PlatformError).toBe(true);
    expect(new copy.PlatformError("X", "m") instanceof own.NotImplementedError).toBe(false);
    expect(new Error("m") instanceof own.PlatformError).toBe(false);
    expect(Object.assign(new Error("m"), { code: "X" }) instanceof own.PlatformError).toBe(false);
  });
});
