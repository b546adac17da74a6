/**
 * The host's records in SQLite (better-sqlite3), the embedded default. The connection is one, and
 * better-sqlite3 is synchronous, so a transaction that spans an async handler must not interleave
 * with another request's statements: every store call takes its turn (one queue per database). A
 * synchronous handler passes through the queue within one tick; an async one holds it while it
 * awaits. Processes sharing one file are kept apart by SQLite's write lock (BEGIN IMMEDIATE).
 */
import { randomBytes } from "node:crypto";
import { type Confirmation, KEEP_AFTER_EXPIRY_MS, type Redemption, type TokenRefusal, type TokenRow, tokenGiven, tokenRefusal } from "./confirm-tokens.js";
import { existingClaim, type JournalKey, type JournalRow } from "./idempotency-journal.js";
import type { SeededDefect } from "./seeded-defects.js";
import type { Database } from "./sqlite.js";
import type { HostStore, KeyClaim, StoreAccess, StoreTransaction } from "./store.js";

const KEY = "operation = ? AND scope = ? AND key = ?";

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
    return this.turn(() => {
      this.db.prepare("INSERT OR IGNORE INTO platform_meta (key, value) VALUES ('cursor_secret', ?)").run(randomBytes(32).toString("hex"));
      const row = this.db.prepare("SELECT value FROM platform_meta WHERE key = 'cursor_secret'").get() as { value: string };
      return Buffer.from(row.value, "hex");
    });
  }

  claimKey(ref: JournalKey, paramsHash: string, retentionMs: number, now: number, defect: SeededDefect | null): Promise<KeyClaim> {
    const args = [ref.operation, ref.scope, ref.key];
    return this.turn(() =>
      this.db.transaction((): KeyClaim => {
        const row = this.db.prepare(`SELECT * FROM idempotency_journal WHERE ${KEY}`).get(...args) as JournalRow | undefined;
        const existing = row ? existingClaim(row, paramsHash, retentionMs, now, defect) : "expired";
        if (existing !== "expired") return existing;
        if (row) this.db.prepare(`DELETE FROM idempotency_journal WHERE ${KEY}`).run(...args);
        this.db.prepare("INSERT INTO idempotency_journal (operation, scope, key, params_hash, state, created_at) VALUES (?, ?, ?, ?, 'in_progress', ?)").run(...args, paramsHash, now);
        return {
          kind: "claimed",
          lease: {
            execute: (status, execute) =>
              this.inTransaction(async (tx) => {
                const body = await execute(tx);
                this.db.prepare(`UPDATE idempotency_journal SET state = 'done', response_status = ?, response_body = ? WHERE ${KEY}`).run(status, body, ...args);
                return body;
              }),
            release: () => this.turn(() => void this.db.prepare(`DELETE FROM idempotency_journal WHERE ${KEY} AND state = 'in_progress'`).run(...args)),
          },
        };
      })(),
    );
  }

  transaction(execute: (tx: StoreTransaction) => Promise<string>): Promise<string> {
    return this.inTransaction(execute);
  }

  read<T>(run: (access: StoreAccess) => Promise<T>): Promise<T> {
    return this.turn(() => run(this.access));
  }

  storeToken(confirmation: Confirmation, operation: string, caller: string, paramsHash: string, now: number): Promise<void> {
    return this.turn(() => {
      this.db.prepare("DELETE FROM confirm_tokens WHERE expires_at < ?").run(now - KEEP_AFTER_EXPIRY_MS);
      this.db
        .prepare("INSERT INTO confirm_tokens (token, operation, caller, params_hash, expires_at) VALUES (?, ?, ?, ?, ?)")
        .run(confirmation.token, operation, caller, paramsHash, Date.parse(confirmation.expiresAt));
    });
  }

  async close(): Promise<void> {
    await this.queue.tail;
  }

  /** One write transaction (BEGIN IMMEDIATE: the file's write lock from the start), holding the queue. */
  private inTransaction(execute: (tx: StoreTransaction) => Promise<string>): Promise<string> {
    return this.turn(async () => {
      const db = this.db;
      const tx: StoreTransaction = {
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
      db.exec("BEGIN IMMEDIATE");
      try {
        const body = await execute(tx);
        db.exec("COMMIT");
        return body;
      } catch (error) {
        if (db.inTransaction) db.exec("ROLLBACK");
        throw error;
      }
    });
  }
}
