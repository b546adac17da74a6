/**
 * The host stores as a contract host relies on them (store.ts): the idempotency journal (claim, run
 * once, replay, refuse other parameters, give back after a failure, forget after retention), confirm
 * tokens (redeemed inside the execution's transaction, single use, bound to operation, caller and
 * parameters), and the cursor secret. The shared semantics run against SQLite and PostgreSQL; what only
 * replicas can show (two stores on one database, a holder that dies, concurrent claims and
 * redemptions, the versioned schema) runs on PostgreSQL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Confirmation, Redemption } from "../../src/host-runtime/confirm-tokens.js";
import type { JournalKey } from "../../src/host-runtime/idempotency-journal.js";
import { maskedUrl } from "../../src/runtime/postgres.js";
import { openDatabase } from "../../src/host-runtime/sqlite.js";
import type { HostStore, KeyClaim, KeyLease, StoreTransaction } from "../../src/host-runtime/store.js";
import { HostStoreUnusableError, PostgresHostStore, POSTGRES_HOST_SCHEMA } from "../../src/host-runtime/store-postgres.js";
import { SqliteHostStore } from "../../src/host-runtime/store-sqlite.js";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";

const postgres = await postgresAvailable();

const opened: HostStore[] = [];
function track<T extends HostStore>(store: T): T {
  opened.push(store);
  return store;
}
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});
afterAll(() => dropSchemas());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HOUR = 60 * 60 * 1000;
const T0 = 1_800_000_000_000;

let keys = 0;
/** A key of its own for each test (PostgreSQL's advisory locks are per database, not per schema). */
const freshKey = (operation = "create_order", scope = "caller-1"): JournalKey => ({ operation, scope, key: `key-${process.pid}-${Date.now()}-${keys++}` });

function claimed(claim: KeyClaim): KeyLease {
  if (claim.kind !== "claimed") throw new Error(`expected the key to be claimed, got ${JSON.stringify(claim)}`);
  return claim.lease;
}

/** One store kind: a fresh store, a second store on the same data (another process / replica), and a table handlers write to. */
interface Subject {
  readonly name: string;
  readonly available: boolean;
  /**
   * How a claim of a key whose lease is held on the same data is answered: at once, "in progress"
   * (PostgreSQL: the claim is committed apart from the execution), or once the lease has ended
   * (SQLite: the claim is part of the execution's transaction, so the claim waits its turn).
   */
  readonly heldKey: "in progress" | "waits";
  open(): Promise<{ store: HostStore; sibling: () => HostStore }>;
  /** A write the handler makes inside its transaction. */
  mark(tx: StoreTransaction, value: string): Promise<void>;
  marks(store: HostStore): Promise<string[]>;
}

const subjects: Subject[] = [
  {
    name: "SQLite",
    available: true,
    heldKey: "waits",
    async open() {
      const db = openDatabase();
      db.exec("CREATE TABLE marks (value TEXT NOT NULL)");
      return { store: track(new SqliteHostStore(db)), sibling: () => track(new SqliteHostStore(db)) };
    },
    async mark(tx, value) {
      tx.db!.prepare("INSERT INTO marks (value) VALUES (?)").run(value);
    },
    marks: (store) => store.read(async ({ db }) => (db!.prepare("SELECT value FROM marks ORDER BY rowid").all() as { value: string }[]).map((r) => r.value)),
  },
  {
    name: "PostgreSQL",
    available: postgres,
    heldKey: "in progress",
    async open() {
      const url = await freshSchemaUrl();
      const store = track(new PostgresHostStore(url));
      await store.read(({ sql }) => sql!.query("CREATE TABLE marks (id SERIAL PRIMARY KEY, value TEXT NOT NULL)"));
      return { store, sibling: () => track(new PostgresHostStore(url)) };
    },
    async mark(tx, value) {
      await tx.sql!.query("INSERT INTO marks (value) VALUES ($1)", [value]);
    },
    marks: (store) => store.read(async ({ sql }) => (await sql!.query<{ value: string }>("SELECT value FROM marks ORDER BY id")).rows.map((r) => r.value)),
  },
];

describe.each(subjects)("the $name host store", (subject) => {
  const test = it.skipIf(!subject.available);

  describe("idempotency keys", () => {
    test("a fresh key is claimed; its execution commits the answer, which the same parameters replay and other parameters are refused", async () => {
      const { store } = await subject.open();
      const key = freshKey();
      const lease = claimed(await store.claimKey(key, "hash-A", HOUR, T0, null));
      const body = await lease.execute(201, async (tx) => {
        await subject.mark(tx, "executed");
        return '{"id":"ord_1"}';
      });
      expect(body).toBe('{"id":"ord_1"}');
      expect(await subject.marks(store)).toEqual(["executed"]);
      expect(await store.claimKey(key, "hash-A", HOUR, T0 + 1, null)).toEqual({ kind: "replay", status: 201, body: '{"id":"ord_1"}' });
      expect(await store.claimKey(key, "hash-B", HOUR, T0 + 2, null)).toEqual({ kind: "mismatch" });
      // The same key in another operation or scope is another key.
      await claimed(await store.claimKey({ ...key, operation: "cancel_order" }, "hash-B", HOUR, T0 + 3, null)).release();
      await claimed(await store.claimKey({ ...key, scope: "caller-2" }, "hash-B", HOUR, T0 + 4, null)).release();
      expect(await subject.marks(store)).toEqual(["executed"]);
    });

    test("while a lease is held the key is not claimed again: in progress and other parameters a mismatch, or the claim waits; release() gives the key back", async () => {
      const { store } = await subject.open();
      const key = freshKey();
      const lease = claimed(await store.claimKey(key, "hash-A", HOUR, T0, null));
      if (subject.heldKey === "in progress") {
        expect(await store.claimKey(key, "hash-A", HOUR, T0 + 1, null)).toEqual({ kind: "in_progress" });
        expect(await store.claimKey(key, "hash-B", HOUR, T0 + 2, null)).toEqual({ kind: "mismatch" });
        await lease.release();
      } else {
        let released = false;
        const waiting = store.claimKey(key, "hash-B", HOUR, T0 + 2, null).then((claim) => ({ claim, released }));
        await new Promise((resolve) => setImmediate(resolve));
        released = true;
        await lease.release();
        const { claim, released: afterRelease } = await waiting;
        expect(afterRelease).toBe(true);
        await claimed(claim).release();
      }
      const again = claimed(await store.claimKey(key, "hash-B", HOUR, T0 + 3, null));
      expect(await again.execute(200, async () => "second")).toBe("second");
      expect(await store.claimKey(key, "hash-B", HOUR, T0 + 4, null)).toEqual({ kind: "replay", status: 200, body: "second" });
    });

    test("an execution that throws is rolled back (its writes and the answer); after release() the key is claimable", async () => {
      const { store } = await subject.open();
      const key = freshKey();
      const lease = claimed(await store.claimKey(key, "hash-A", HOUR, T0, null));
      const failure = new Error("the handler failed");
      await expect(
        lease.execute(201, async (tx) => {
          await subject.mark(tx, "rolled back");
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await subject.marks(store)).toEqual([]);
      // PostgreSQL: nothing recorded, but the key is still held by the failed request until it gives it back.
      if (subject.heldKey === "in progress") expect(await store.claimKey(key, "hash-A", HOUR, T0 + 1, null)).toEqual({ kind: "in_progress" });
      await lease.release();
      const retry = claimed(await store.claimKey(key, "hash-A", HOUR, T0 + 2, null));
      await retry.execute(201, async (tx) => {
        await subject.mark(tx, "retried");
        return "ok";
      });
      expect(await subject.marks(store)).toEqual(["retried"]);
      expect(await store.claimKey(key, "hash-A", HOUR, T0 + 3, null)).toEqual({ kind: "replay", status: 201, body: "ok" });
    });

    test("an answer is replayed until retention ends, then forgotten: the key is claimed again, with any parameters", async () => {
      const { store } = await subject.open();
      const key = freshKey();
      await claimed(await store.claimKey(key, "hash-A", HOUR, T0, null)).execute(200, async () => "first");
      expect(await store.claimKey(key, "hash-A", HOUR, T0 + HOUR - 1, null)).toEqual({ kind: "replay", status: 200, body: "first" });
      const later = claimed(await store.claimKey(key, "hash-B", HOUR, T0 + HOUR, null));
      expect(await later.execute(200, async () => "second")).toBe("second");
      expect(await store.claimKey(key, "hash-B", HOUR, T0 + HOUR + 1, null)).toEqual({ kind: "replay", status: 200, body: "second" });
      // Long after (past the sweep interval too), with other parameters: forgotten again.
      await claimed(await store.claimKey(key, "hash-C", HOUR, T0 + 5 * HOUR, null)).release();
    });

    test("a store on the same data sees the claim and the answer", async () => {
      const { store, sibling } = await subject.open();
      const other = sibling();
      const key = freshKey();
      const lease = claimed(await store.claimKey(key, "hash-A", HOUR, T0, null));
      if (subject.heldKey === "in progress") expect(await other.claimKey(key, "hash-A", HOUR, T0 + 1, null)).toEqual({ kind: "in_progress" });
      const waiting = subject.heldKey === "waits" ? other.claimKey(key, "hash-A", HOUR, T0 + 1, null) : null;
      await lease.execute(201, async () => "from the first");
      if (waiting) expect(await waiting).toEqual({ kind: "replay", status: 201, body: "from the first" });
      expect(await other.claimKey(key, "hash-A", HOUR, T0 + 2, null)).toEqual({ kind: "replay", status: 201, body: "from the first" });
    });
  });

  describe("confirm tokens", () => {
    const confirmation = (token: string, expiresAt = T0 + HOUR): Confirmation => ({ token, expiresAt: new Date(expiresAt).toISOString() });
    const redemption = (token: unknown, overrides: Partial<Redemption> = {}): Redemption => ({
      token,
      operation: "delete_account",
      caller: "caller-1",
      paramsHash: "hash-A",
      singleUse: true,
      defect: null,
      ...overrides,
    });
    const redeem = async (store: HostStore, r: Redemption, now: number) => {
      let result: unknown;
      await store.transaction(async (tx) => {
        result = await tx.redeemToken(r, now);
        return "";
      });
      return result;
    };

    test("a stored token authorises its execution once (single use); other parameters, caller or operation, expiry and absence are refused", async () => {
      const { store } = await subject.open();
      await store.storeToken(confirmation("ct_one"), "delete_account", "caller-1", "hash-A", T0);
      expect(await redeem(store, redemption("ct_one"), T0 + 1)).toBeNull();
      expect(await redeem(store, redemption("ct_one"), T0 + 2)).toBe("used");
      expect(await redeem(store, redemption("ct_one", { paramsHash: "hash-B" }), T0 + 3)).toBe("other_parameters");
      expect(await redeem(store, redemption("ct_one", { caller: "caller-2" }), T0 + 4)).toBe("unknown");
      expect(await redeem(store, redemption("ct_one", { operation: "delete_user" }), T0 + 5)).toBe("unknown");
      expect(await redeem(store, redemption("ct_never_issued"), T0 + 6)).toBe("unknown");
      expect(await redeem(store, redemption(undefined), T0 + 7)).toBe("missing");
      expect(await redeem(store, redemption(""), T0 + 8)).toBe("missing");

      await store.storeToken(confirmation("ct_late", T0 + 1000), "delete_account", "caller-1", "hash-A", T0);
      expect(await redeem(store, redemption("ct_late"), T0 + 1000)).toBe("expired");

      // A token that is not single use authorises every execution until it expires.
      await store.storeToken(confirmation("ct_many"), "delete_account", "caller-1", "hash-A", T0);
      expect(await redeem(store, redemption("ct_many", { singleUse: false }), T0 + 1)).toBeNull();
      expect(await redeem(store, redemption("ct_many", { singleUse: false }), T0 + 2)).toBeNull();
    });

    test("a redemption in a transaction that then fails is rolled back: the token is still unused", async () => {
      const { store } = await subject.open();
      await store.storeToken(confirmation("ct_rollback"), "delete_account", "caller-1", "hash-A", T0);
      const failure = new Error("the execution failed after the token was redeemed");
      let inside: unknown;
      await expect(
        store.transaction(async (tx) => {
          inside = await tx.redeemToken(redemption("ct_rollback"), T0 + 1);
          await subject.mark(tx, "rolled back");
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(inside).toBeNull();
      expect(await subject.marks(store)).toEqual([]);
      expect(await redeem(store, redemption("ct_rollback"), T0 + 2)).toBeNull();
      expect(await redeem(store, redemption("ct_rollback"), T0 + 3)).toBe("used");
    });

    test("a keyed execution redeems its token in the same transaction: a failed execution leaves it unused", async () => {
      const { store } = await subject.open();
      await store.storeToken(confirmation("ct_keyed"), "delete_account", "caller-1", "hash-A", T0);
      const key = freshKey("delete_account");
      const lease = claimed(await store.claimKey(key, "hash-A", HOUR, T0, null));
      await expect(
        lease.execute(200, async (tx) => {
          expect(await tx.redeemToken(redemption("ct_keyed"), T0 + 1)).toBeNull();
          throw new Error("failed");
        }),
      ).rejects.toThrow("failed");
      await lease.release();
      const retry = claimed(await store.claimKey(key, "hash-A", HOUR, T0 + 2, null));
      await retry.execute(200, async (tx) => String(await tx.redeemToken(redemption("ct_keyed"), T0 + 3)));
      expect(await redeem(store, redemption("ct_keyed"), T0 + 4)).toBe("used");
    });
  });

  test("the cursor secret is 32 bytes, created once and the same for every store on the data", async () => {
    const { store, sibling } = await subject.open();
    const secret = await store.cursorSecret();
    expect(secret).toHaveLength(32);
    expect((await store.cursorSecret()).equals(secret)).toBe(true);
    expect((await sibling().cursorSecret()).equals(secret)).toBe(true);
  });
});

describe("one SQLite host store", () => {
  /*
   * A write waited for another connection's lock in SQLite's busy handler, which blocks the thread:
   * with the other connection in the same process (an async execution holding the lock while it
   * awaits), that execution could not go on, and the waiting write failed with SQLITE_BUSY after the
   * 5 s busy timeout. Deterministic: before, 2/2 repetitions failed (5 s each).
   */
  it("two connections to one file in one process: a write waits for the other's async execution without stalling it (2 repetitions)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "host-store-"));
    try {
      const file = join(dir, "host.sqlite");
      const [first, second] = [openDatabase(file), openDatabase(file)];
      first.exec("CREATE TABLE marks (value TEXT NOT NULL)");
      const [a, b] = [track(new SqliteHostStore(first)), track(new SqliteHostStore(second))];
      const failed: string[] = [];
      for (let rep = 0; rep < 2; rep++) {
        let started = () => {};
        const holding = new Promise<void>((resolve) => (started = resolve));
        const slow = a.transaction(async (tx) => {
          await subjects[0]!.mark(tx, `a${rep}`);
          started();
          await sleep(50);
          return "a";
        });
        await holding;
        const quick = await b.transaction(async (tx) => (await subjects[0]!.mark(tx, `b${rep}`), "b")).catch((e: Error) => e.message);
        if ((await slow) !== "a" || quick !== "b") failed.push(`repetition ${rep + 1}: ${quick}`);
      }
      expect(failed, `${failed.length}/2 repetitions`).toEqual([]);
      expect(await subjects[0]!.marks(a)).toEqual(["a0", "b0", "a1", "b1"]);
      for (const db of [first, second]) db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /*
   * The claim used to be committed on its own, and a claim found in progress past retention was taken
   * over as expired while its holder had yet to execute: two executions, the second overwriting the
   * first's recorded answer. Deterministic (the queue runs claims in order): before, every run.
   */
  it("retention passing while the holder still executes does not free the key: the next claim waits for the execution to end", async () => {
    const db = openDatabase();
    db.exec("CREATE TABLE marks (value TEXT NOT NULL)");
    const store = track(new SqliteHostStore(db));
    const key = freshKey();
    const lease = claimed(await store.claimKey(key, "hash-A", 1000, T0, null));
    // What is committed when the second claim is answered (read directly: the store's queue is held by then).
    const later = store.claimKey(key, "hash-A", 1000, T0 + 5000, null).then((claim) => ({ claim, marks: db.prepare("SELECT value FROM marks").all() }));
    await new Promise((resolve) => setImmediate(resolve));
    await lease.execute(201, async (tx) => {
      await subjects[0]!.mark(tx, "first");
      return "from the first";
    });
    const { claim, marks } = await later;
    // Claimed only once the first execution had committed; then, past retention, the key is free again.
    expect(marks).toEqual([{ value: "first" }]);
    expect(await claimed(claim).execute(201, async () => "from the second")).toBe("from the second");
    expect(await store.claimKey(key, "hash-A", 1000, T0 + 5001, null)).toEqual({ kind: "replay", status: 201, body: "from the second" });
  });
});

/** Two stores (two pools, as two replicas have) on one fresh schema. */
async function replicas(): Promise<{ url: string; a: PostgresHostStore; b: PostgresHostStore }> {
  const url = await freshSchemaUrl();
  return { url, a: track(new PostgresHostStore(url)), b: track(new PostgresHostStore(url)) };
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Terminate the connection holding `key` (the one with the key's session advisory lock, class 1_907_302), as a killed replica's. */
async function killHolder(url: string, key: JournalKey): Promise<void> {
  await admin(url, async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND classid = 1907302 AND objsubid = 2
          AND objid::bigint = (hashtext($1 || chr(31) || $2 || chr(31) || $3)::bigint + 4294967296) % 4294967296`,
      [key.operation, key.scope, key.key],
    );
    expect(rows).toHaveLength(1);
    // With a timeout, pg_terminate_backend waits until the backend is gone (and its locks with it).
    await client.query("SELECT pg_terminate_backend($1, 5000)", [rows[0]!.pid]);
  });
}

describe.skipIf(!postgres)("two replicas on one PostgreSQL host store", () => {
  it("a key claimed on one replica is in progress on the other, which then replays its answer", async () => {
    const { a, b } = await replicas();
    const key = freshKey();
    const lease = claimed(await a.claimKey(key, "hash-A", HOUR, T0, null));
    expect(await b.claimKey(key, "hash-A", HOUR, T0 + 1, null)).toEqual({ kind: "in_progress" });
    expect(await b.claimKey(key, "hash-B", HOUR, T0 + 2, null)).toEqual({ kind: "mismatch" });
    await lease.execute(201, async () => '{"from":"a"}');
    expect(await b.claimKey(key, "hash-A", HOUR, T0 + 3, null)).toEqual({ kind: "replay", status: 201, body: '{"from":"a"}' });
  });

  it("50 concurrent requests with one key over two replicas execute it once and all answer with its body", async () => {
    const { a, b } = await replicas();
    const key = freshKey();
    let executions = 0;
    const request = async (store: HostStore, i: number): Promise<string> => {
      for (let attempt = 0; attempt < 2000; attempt++) {
        const claim = await store.claimKey(key, "hash-A", HOUR, T0 + i, null);
        if (claim.kind === "claimed") {
          return claim.lease.execute(201, async () => {
            executions++;
            await sleep(20);
            return `{"executed_by":${i}}`;
          });
        }
        if (claim.kind === "replay") return claim.body;
        if (claim.kind === "mismatch") throw new Error("mismatch with the same parameters");
        await sleep(5);
      }
      throw new Error("still in progress after 2000 polls");
    };
    const bodies = await Promise.all(Array.from({ length: 50 }, (_, i) => request(i % 2 === 0 ? a : b, i)));
    expect(executions).toBe(1);
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toMatch(/^\{"executed_by":\d+\}$/);
  });

  it("a holder that dies mid-execution: the other replica takes the key over and its answer is the one recorded", async () => {
    const { url, a, b } = await replicas();
    const key = freshKey();
    const lease = claimed(await a.claimKey(key, "hash-A", HOUR, T0, null));
    await killHolder(url, key);

    const takeover = claimed(await b.claimKey(key, "hash-A", HOUR, T0 + 1, null));
    expect(await takeover.execute(201, async () => '{"from":"b"}')).toBe('{"from":"b"}');

    let ranOnA = false;
    await expect(
      lease.execute(201, async () => {
        ranOnA = true;
        return '{"from":"a"}';
      }),
    ).rejects.toThrow();
    expect(ranOnA).toBe(false);
    await lease.release();

    expect(await a.claimKey(key, "hash-A", HOUR, T0 + 2, null)).toEqual({ kind: "replay", status: 201, body: '{"from":"b"}' });
    expect(await b.claimKey(key, "hash-A", HOUR, T0 + 3, null)).toEqual({ kind: "replay", status: 201, body: '{"from":"b"}' });
    // Replica A still serves requests after losing a connection.
    await claimed(await a.claimKey(freshKey(), "hash-A", HOUR, T0 + 4, null)).execute(200, async () => "a is fine");
  });

  /*
   * A key whose holder died was taken over only with the dead holder's parameters; other ones were
   * refused as a reuse of the key until retention, though nothing had executed under it (wire
   * protocol: only an attempt that executed binds the key). Deterministic: before, every run.
   */
  it("a holder that dies mid-execution binds nothing: a request with other parameters executes", async () => {
    const { url, a, b } = await replicas();
    const key = freshKey();
    const lease = claimed(await a.claimKey(key, "hash-A", HOUR, T0, null));
    await killHolder(url, key);
    const other = claimed(await b.claimKey(key, "hash-B", HOUR, T0 + 1, null));
    expect(await other.execute(201, async () => '{"with":"B"}')).toBe('{"with":"B"}');
    await expect(lease.execute(201, async () => '{"with":"A"}')).rejects.toThrow();
    await lease.release();
    expect(await a.claimKey(key, "hash-B", HOUR, T0 + 2, null)).toEqual({ kind: "replay", status: 201, body: '{"with":"B"}' });
    expect(await a.claimKey(key, "hash-A", HOUR, T0 + 3, null)).toEqual({ kind: "mismatch" });
  });

  it("retention passing while the holder still executes does not free the key: in progress until it ends, no second execution, no deadlock", async () => {
    const { a, b } = await replicas();
    const key = freshKey();
    const lease = claimed(await a.claimKey(key, "hash-A", 1000, T0, null));
    const started = Date.now();
    expect(await b.claimKey(key, "hash-A", 1000, T0 + 5000, null)).toEqual({ kind: "in_progress" });
    expect(await b.claimKey(key, "hash-B", 1000, T0 + 5001, null)).toEqual({ kind: "in_progress" });
    expect(Date.now() - started).toBeLessThan(900); // answered at once, not after PostgreSQL's deadlock timeout
    expect(await lease.execute(201, async () => "from a")).toBe("from a");
    // Now finished and past retention: forgotten, so the key is free again.
    const next = claimed(await b.claimKey(key, "hash-B", 1000, T0 + 5002, null));
    expect(await next.execute(201, async () => "from b")).toBe("from b");
    expect(await a.claimKey(key, "hash-B", 1000, T0 + 5003, null)).toEqual({ kind: "replay", status: 201, body: "from b" });
  });

  it("a single-use confirm token redeemed concurrently on two replicas authorises exactly one execution", async () => {
    const { a, b } = await replicas();
    await a.storeToken({ token: "ct_race", expiresAt: new Date(T0 + HOUR).toISOString() }, "delete_account", "caller-1", "hash-A", T0);
    const r: Redemption = { token: "ct_race", operation: "delete_account", caller: "caller-1", paramsHash: "hash-A", singleUse: true, defect: null };
    const redeemOn = async (store: HostStore) => {
      let result: unknown;
      await store.transaction(async (tx) => {
        result = await tx.redeemToken(r, T0 + 1);
        await sleep(50); // hold the transaction open, so the other redemption overlaps it
        return "";
      });
      return result;
    };
    const results = await Promise.all([redeemOn(a), redeemOn(b)]);
    expect(results.filter((x) => x === null)).toHaveLength(1);
    expect(results.filter((x) => x === "used")).toHaveLength(1);
  });

  /*
   * Checked safe: the schema is created under an advisory lock, and the secret is inserted with ON
   * CONFLICT DO NOTHING and then read, so replicas starting together agree (passed before too).
   */
  it("6 replicas starting together on a new schema agree on one cursor secret", async () => {
    const url = await freshSchemaUrl();
    const stores = Array.from({ length: 6 }, () => track(new PostgresHostStore(url)));
    const secrets = await Promise.all(stores.map((store) => store.cursorSecret()));
    expect(new Set(secrets.map((secret) => secret.toString("hex"))).size).toBe(1);
    expect(secrets[0]).toHaveLength(32);
  });

  it("the schema is versioned; a newer one is refused, naming the database with its password masked", async () => {
    const base = new URL(await freshSchemaUrl());
    if (!base.password) base.password = "pw-secret-42"; // trust auth never asks for it
    const url = base.toString();
    const first = track(new PostgresHostStore(url));
    await first.cursorSecret();
    await admin(url, async (client) => {
      expect((await client.query("SELECT version FROM contractgen_host_schema")).rows).toEqual([{ version: POSTGRES_HOST_SCHEMA }]);
      await client.query("INSERT INTO contractgen_host_schema (version) VALUES (99)");
    });
    const newer = track(new PostgresHostStore(url));
    const error = await newer.cursorSecret().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HostStoreUnusableError);
    const message = (error as Error).message;
    expect(message).toContain(maskedUrl(url));
    expect(message).toMatch(/host records schema is version 99, newer than this runtime's 1/);
    expect(message).not.toContain(base.password);
    expect(JSON.stringify(error)).not.toContain(base.password);
  });
});

describe("a PostgreSQL URL that cannot be used", () => {
  it("is a HostStoreUnusableError naming the database without its password", async () => {
    const store = track(new PostgresHostStore("postgres://u:secret@127.0.0.1:1/x"));
    const error = await store.claimKey(freshKey(), "hash-A", HOUR, T0, null).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HostStoreUnusableError);
    expect((error as Error).message).toContain("postgres://u:***@127.0.0.1:1/x");
    expect((error as Error).message).toMatch(/nothing accepts connections there/);
    expect((error as Error).message).not.toContain("secret");
    expect(JSON.stringify(error)).not.toContain("secret");
    // The failure is not cached as a broken pool: the next call tries again (and fails the same way).
    await expect(store.cursorSecret()).rejects.toBeInstanceOf(HostStoreUnusableError);
  });
});
