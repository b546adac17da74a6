/**
 * The host's records in SQLite (better-sqlite3), the embedded default. The connection is one, and
 * better-sqlite3 is synchronous, so a transaction that spans an async handler must not interleave
 * with another request's statements: every store call takes its turn (one queue per database). A
 * synchronous handler passes through the queue within one tick; an async one holds it while it
 * awaits. Processes sharing one file are kept apart by SQLite's write lock: every write of the host
 * takes it first (BEGIN IMMEDIATE), so what a transaction reads is still true when it writes.
 * SQLite's busy handler would wait for another process's lock synchronously, stalling this process's
 * event loop (and failing after the busy timeout, while an execution may hold the lock for as long as
 * its handler awaits); the lock is asked for without it and retried on a timer instead.
 * A key's claim is never committed on its own: it is part of its execution's transaction (claimKey).
 */
import { randomBytes } from "node:crypto";
import { type Confirmation, KEEP_AFTER_EXPIRY_MS, type Redemption, type TokenRefusal, type TokenRow, tokenGiven, tokenRefusal } from "./confirm-tokens.js";
import { existingClaim, type JournalKey, type JournalRow, type KeyRefusal } from "./idempotency-journal.js";
import type { SeededDefect } from "./seeded-defects.js";
import type { Database } from "./sqlite.js";
import type { HostStore, KeyClaim, KeyLease, StoreAccess, StoreTransaction } from "./store.js";

const KEY = "operation = ? AND scope = ? AND key = ?";

/** How long a write waits for another process to let go of the file's write lock. */
const WRITE_LOCK_WAIT_MS = 30_000;
/** Longest pause between two attempts to take the write lock. */
const WRITE_LOCK_POLL_MS = 20;

/** One queue per database, shared by every host on it. */
const queues = new WeakMap<Database, { tail: Promise<unknown> }>();

export class SqliteHostStore implements HostStore {
  readonly kind = "sqlite";
  private readonly queue: { tail: Promise<unknown> };
  private readonly access: StoreAccess;

  constructor(readonly db: Database) {
    let queue = queues.get(db);
    if (!queue) queues.set(db, (queue = { tail: Promise.resolve() }));
    this.queue = queue;
    this.access = { db, sql: null };
    db.exec(`
      CREATE TABLE IF NOT EXISTS idempotency_journal (
        operation       TEXT    NOT NULL,
        scope           TEXT    NOT NULL,
        key             TEXT    NOT NULL,
        params_hash     TEXT    NOT NULL,
        state           TEXT    NOT NULL CHECK (state IN ('in_progress', 'done')),
        response_status INTEGER,
        response_body   TEXT,
        created_at      INTEGER NOT NULL,
        PRIMARY KEY (operation, scope, key)
      );
      CREATE TABLE IF NOT EXISTS confirm_tokens (
        token       TEXT    PRIMARY KEY,
        operation   TEXT    NOT NULL,
        caller      TEXT    NOT NULL,
        params_hash TEXT    NOT NULL,
        expires_at  INTEGER NOT NULL,
        used_at     INTEGER
      );
      CREATE TABLE IF NOT EXISTS platform_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  }

  /** Run `fn` when the calls queued before it have finished. */
  private turn<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = this.queue.tail.then(fn, fn);
    this.queue.tail = run.catch(() => undefined);
    return run;
  }

  cursorSecret(): Promise<Buffer> {
    return this.write(() => {
      this.db.prepare("INSERT OR IGNORE INTO platform_meta (key, value) VALUES ('cursor_secret', ?)").run(randomBytes(32).toString("hex"));
      const row = this.db.prepare("SELECT value FROM platform_meta WHERE key = 'cursor_secret'").get() as { value: string };
      return Buffer.from(row.value, "hex");
    });
  }

  /**
   * The claim and the execution are one write transaction, holding the queue from the claim until the
   * lease ends: no other request sees the key held (on this connection it waits its turn, in another
   * process for the write lock), and a process killed meanwhile leaves nothing, its claim included.
   */
  claimKey(ref: JournalKey, paramsHash: string, retentionMs: number, now: number, defect: SeededDefect | null): Promise<KeyClaim> {
    const args = [ref.operation, ref.scope, ref.key];
    return new Promise<KeyClaim>((answer, fail) => {
      void this.turn(async () => {
        // Another process is writing (perhaps executing this key): wait as for a key in progress.
        if (!this.tryBeginImmediate()) return answer({ kind: "in_progress" });
        let existing: KeyRefusal | "expired";
        try {
          const row = this.db.prepare(`SELECT * FROM idempotency_journal WHERE ${KEY}`).get(...args) as JournalRow | undefined;
          // A committed claim is an orphan: a live one is never committed. (Older runtimes committed
          // claims; such a row outlived a holder that died mid-execution, which executed nothing.)
          existing = row?.state === "done" ? existingClaim(row, paramsHash, retentionMs, now, defect) : "expired";
          if (existing === "expired") {
            if (row) this.db.prepare(`DELETE FROM idempotency_journal WHERE ${KEY}`).run(...args);
            this.db.prepare("INSERT INTO idempotency_journal (operation, scope, key, params_hash, state, created_at) VALUES (?, ?, ?, ?, 'in_progress', ?)").run(...args, paramsHash, now);
          }
        } catch (error) {
          if (this.db.inTransaction) this.db.exec("ROLLBACK");
          return fail(error);
        }
        if (existing !== "expired") {
          this.db.exec("ROLLBACK");
          return answer(existing);
        }
        await new Promise<void>((ended) => answer({ kind: "claimed", lease: this.heldLease(args, ended) }));
      });
    });
  }

  /** The lease of a claim whose transaction is open: execute() continues it, release() rolls it back. */
  private heldLease(args: readonly string[], ended: () => void): KeyLease {
    let open = true;
    const end = () => {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      open = false;
      ended();
    };
    return {
      execute: async (status, execute) => {
        if (!open) throw new Error("This idempotency key's lease has ended.");
        try {
          const body = await execute(this.transactionAccess());
          this.db.prepare(`UPDATE idempotency_journal SET state = 'done', response_status = ?, response_body = ? WHERE ${KEY}`).run(status, body, ...args);
          this.db.exec("COMMIT");
          return body;
        } finally {
          // Committed, or rolled back with the claim: either way the key is no longer held.
          end();
        }
      },
      release: async () => {
        if (open) end();
      },
    };
  }

  transaction(execute: (tx: StoreTransaction) => Promise<string>): Promise<string> {
    return this.inTransaction(execute);
  }

  read<T>(run: (access: StoreAccess) => Promise<T>): Promise<T> {
    return this.turn(() => run(this.access));
  }

  storeToken(confirmation: Confirmation, operation: string, caller: string, paramsHash: string, now: number): Promise<void> {
    return this.write(() => {
      this.db.prepare("DELETE FROM confirm_tokens WHERE expires_at < ?").run(now - KEEP_AFTER_EXPIRY_MS);
      this.db
        .prepare("INSERT INTO confirm_tokens (token, operation, caller, params_hash, expires_at) VALUES (?, ?, ?, ?, ?)")
        .run(confirmation.token, operation, caller, paramsHash, Date.parse(confirmation.expiresAt));
    });
  }

  async close(): Promise<void> {
    await this.queue.tail;
  }

  /**
   * BEGIN IMMEDIATE if the file's write lock is free now; false if another connection holds it. The
   * busy handler is off for this one statement: it would wait synchronously.
   */
  private tryBeginImmediate(): boolean {
    const busyTimeout = this.db.pragma("busy_timeout", { simple: true }) as number;
    this.db.pragma("busy_timeout = 0");
    try {
      this.db.exec("BEGIN IMMEDIATE");
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${busyTimeout}`);
    }
  }

  /** BEGIN IMMEDIATE, waiting on a timer (up to WRITE_LOCK_WAIT_MS) while another process writes. */
  private async beginImmediate(): Promise<void> {
    const giveUpAt = Date.now() + WRITE_LOCK_WAIT_MS;
    for (let pause = 1; !this.tryBeginImmediate(); pause = Math.min(pause * 2, WRITE_LOCK_POLL_MS)) {
      if (Date.now() > giveUpAt) throw new Error(`The SQLite file stayed locked by another process's write for ${WRITE_LOCK_WAIT_MS / 1000} s.`);
      await sleep(pause);
    }
  }

  /** A short write of the store's own, in its turn, under the file's write lock. */
  private write<T>(run: () => T): Promise<T> {
    return this.turn(async () => {
      await this.beginImmediate();
      return this.committed(run);
    });
  }

  /** Finish the transaction begun: committed when `run` returns, rolled back when it throws. */
  private committed<T>(run: () => T): T {
    try {
      const result = run();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  /** One write transaction (BEGIN IMMEDIATE: the file's write lock from the start), holding the queue. */
  private inTransaction(execute: (tx: StoreTransaction) => Promise<string>): Promise<string> {
    return this.turn(async () => {
      await this.beginImmediate();
      try {
        const body = await execute(this.transactionAccess());
        this.db.exec("COMMIT");
        return body;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw error;
      }
    });
  }

  /** What an execution reaches of the open transaction. */
  private transactionAccess(): StoreTransaction {
    const db = this.db;
    return {
      ...this.access,
      redeemToken: async (r: Redemption, now: number): Promise<TokenRefusal | null> => {
        const given = tokenGiven(r);
        if (given !== "given") return given === "skip" ? null : given;
        const row = db.prepare("SELECT * FROM confirm_tokens WHERE token = ?").get(r.token) as TokenRow | undefined;
        const refusal = tokenRefusal(row, r, now);
        if (refusal === null && row?.used_at === null) db.prepare("UPDATE confirm_tokens SET used_at = ? WHERE token = ?").run(now, r.token);
        return refusal;
      },
    };
  }
}

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, …): another connection holds a lock. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
