/**
 * The contract host with an operation key the platform does not require (`idempotency.keyRequired:
 * false`): an execution without a key is accepted and is a separate intent each time (before, the
 * host keyed it under the string "undefined", so a second key-less call replayed the first, or
 * refused other parameters as a reused key); with a key it is replayed as usual. A required key
 * (the default) is still demanded at execution of a previewable operation.
 */
import { describe, expect, it } from "vitest";
import { ContractHost } from "../../src/host-runtime/contract-host.js";
import { openDatabase } from "../../src/host-runtime/sqlite.js";

const common = { scopes: [], errors: [], preconditions: [], pagination: null, projection: null, task: null, output: { schema: { type: "object" } } };
const properties = { key: { type: "string" }, amount: { type: "integer" }, dry_run: { type: "boolean" }, confirm_token: { type: "string" } };

function operation(id: string, keyRequired: boolean, preview: boolean) {
  return {
    ...common,
    names: { id },
    http: { method: "POST", path: `/${id}`, bindings: [], body: null, successStatus: 201 },
    effects: { kind: "mutating" },
    input: { schema: { type: "object", required: ["amount"], properties } },
    idempotency: { keyField: "key", retentionMs: 86_400_000, scope: "caller", mismatchError: null, keyRequired },
    preview: preview ? { dryRunField: "dry_run", defaultDryRun: false, confirmTokenField: "confirm_token", ttlMs: 60_000, output: null, invalidTokenError: null, singleUse: false } : null,
  };
}

const pay = operation("pay", false, false);
const refund = operation("refund", false, true);
const purge = operation("purge", true, true);

function host() {
  const db = openDatabase(":memory:");
  db.exec("CREATE TABLE effects (op TEXT NOT NULL, amount INTEGER NOT NULL)");
  const effect = (op: string) => (input: { amount: number }, ctx: { db: typeof db }) => {
    ctx.db.prepare("INSERT INTO effects (op, amount) VALUES (?, ?)").run(op, input.amount);
    return { amount: input.amount, n: (ctx.db.prepare("SELECT count(*) AS n FROM effects").get() as { n: number }).n };
  };
  const h = new ContractHost({
    model: { name: "payments", version: "1", transport: { auth: { type: "none" } }, errors: [], operations: [pay, refund, purge] } as never,
    db,
    credentials: new Map(),
    handlers: {
      pay: effect("pay"),
      refund: { preview: (input: { amount: number }) => ({ would_refund: input.amount }), execute: effect("refund") },
      purge: { preview: (input: { amount: number }) => ({ would_purge: input.amount }), execute: effect("purge") },
    } as never,
  });
  const caller = h.authenticate(null)!;
  const effects = () => (db.prepare("SELECT count(*) AS n FROM effects").get() as { n: number }).n;
  const call = (op: object, input: Record<string, unknown>) => h.invoke({ operation: op as never, input, caller, requestId: "r" });
  return { call, effects };
}

describe("the host, for an operation key optional on the wire", () => {
  it("executes each key-less call as its own intent, other parameters included", async () => {
    const { call, effects } = host();
    const first = await call(pay, { amount: 5 });
    const second = await call(pay, { amount: 5 });
    const third = await call(pay, { amount: 7 });
    expect([first.status, second.status, third.status]).toEqual([201, 201, 201]);
    expect(second.headers["Idempotent-Replayed"]).toBeUndefined();
    expect(JSON.parse(third.body)).toEqual({ amount: 7, n: 3 });
    expect(effects()).toBe(3);
  });

  it("replays a call under a key, and refuses other parameters under it", async () => {
    const { call, effects } = host();
    expect((await call(pay, { amount: 5, key: "k-1" })).status).toBe(201);
    const replay = await call(pay, { amount: 5, key: "k-1" });
    expect(replay.headers["Idempotent-Replayed"]).toBe("true");
    const reused = await call(pay, { amount: 6, key: "k-1" });
    expect(JSON.parse(reused.body).error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(effects()).toBe(1);
  });

  it("executes a previewable operation without a key; a required key is still demanded at execution", async () => {
    const { call, effects } = host();
    const token = async (op: object) => JSON.parse((await call(op, { amount: 3, dry_run: true })).body).confirm_token as string;
    const executed = await call(refund, { amount: 3, dry_run: false, confirm_token: await token(refund) });
    expect(executed.status).toBe(201);
    const refused = await call(purge, { amount: 3, dry_run: false, confirm_token: await token(purge) });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: "INVALID_INPUT", field: "key", message: "key is required to execute purge" });
    expect(effects()).toBe(1);
  });
});
