/**
 * The host's records on PostgreSQL, shared by every replica of a server (store.ts). The anchor is how
 * Stripe-style idempotency is built on a relational store: a unique key, a lock, the recorded response.
 * - A key is claimed in a short transaction under an advisory lock on the key (so the check and the
 *   insert are one step for every replica), and committed as in progress: a concurrent request with
 *   other parameters is refused at once, one with the same parameters waits for the answer.
 * - The holder keeps a session advisory lock on the key until its execution commits. PostgreSQL drops
 *   it with the holder's connection, so a replica killed mid-call leaves a key the next request can
 *   see is orphaned: the key is free again (for any parameters) and that request executes; the killed
 *   execution's transaction was rolled back, so there is still one effect.
 * - The execution, the confirm token it spends (row-locked: single use across replicas) and the
 *   recorded response commit in one transaction, on the connection handlers reach as `ctx.sql`.
 * - Expired entries are swept per operation by retention; spent tokens a day after expiry.
 * - The schema is versioned (contractgen_host_schema) and migrated on start under an advisory lock.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { isConnectionError, maskedUrl, openPool, type PgClient, type PgPool, type PgSchema } from "../runtime/postgres.js";
import { type Confirmation, KEEP_AFTER_EXPIRY_MS, type Redemption, type TokenRefusal, type TokenRow, tokenGiven, tokenRefusal } from "./confirm-tokens.js";
import { existingClaim, type JournalKey, type JournalRow } from "./idempotency-journal.js";
import type { SeededDefect } from "./seeded-defects.js";
import { CommitUnconfirmedError, type HostStore, type KeyClaim, type KeyLease, type StoreAccess, type StoreTransaction } from "./store.js";

/** Schema version this runtime writes (stored in contractgen_host_schema). */
export const POSTGRES_HOST_SCHEMA = 1;

const HOST_SCHEMA: PgSchema = {
  versionTable: "contractgen_host_schema",
  lockKey: 7_301_947_113,
  what: "host records",
  steps: [
    [
      `CREATE TABLE IF NOT EXISTS host_idempotency (
        operation TEXT NOT NULL,
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        params_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_progress', 'done')),
        response_status INTEGER,
        response_body TEXT,
        created_at BIGINT NOT NULL,
        holder TEXT NOT NULL,
        PRIMARY KEY (operation, scope, key)
      )`,
      "CREATE INDEX IF NOT EXISTS host_idempotency_age ON host_idempotency (operation, created_at)",
      `CREATE TABLE IF NOT EXISTS host_confirm_tokens (
        token TEXT PRIMARY KEY,
        operation TEXT NOT NULL,
        caller TEXT NOT NULL,
        params_hash TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        used_at BIGINT
      )`,
      "CREATE INDEX IF NOT EXISTS host_confirm_tokens_expiry ON host_confirm_tokens (expires_at)",
      "CREATE TABLE IF NOT EXISTS host_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ],
  ],
};

/** Advisory lock classes (two-key form): claims of a key are serialised; an execution holds its key. */
const CLAIM_LOCK = 1_907_301;
const HOLDER_LOCK = 1_907_302;
/** Each operation's expired entries are swept at most this often per process. */
const SWEEP_EVERY_MS = 60_000;

const KEY = "operation = $1 AND scope = $2 AND key = $3";
const LOCK_OF_KEY = "hashtext($2 || chr(31) || $3 || chr(31) || $4)";

/** A store URL that cannot be used: named with its password masked. */
export class HostStoreUnusableError extends Error {
  constructor(
    readonly url: string,
    readonly problem: string,
  ) {
    super(`Host database ${url}: ${problem}.`);
    this.name = "HostStoreUnusableError";
  }
}

export interface PostgresHostStoreOptions {
  /** Largest number of connections (default 10). Each keyed execution holds one while it runs. */
  readonly maxConnections?: number;
}

export class PostgresHostStore implements HostStore {
  readonly kind = "postgres";
  private ready: Promise<PgPool> | null = null;
  private readonly swept = new Map<string, number>();

  /** The URL is not contacted until the first call (then a failure names it, masked). */
  constructor(
    private readonly url: string,
    private readonly options: PostgresHostStoreOptions = {},
  ) {}

  /** The database as shown in messages (password masked). */
  get shown(): string {
    return maskedUrl(this.url);
  }

  /** The pool, with the schema created or migrated; call once at start to fail early on a bad URL. */
  pool(): Promise<PgPool> {
    this.ready ??= openPool(this.url, HOST_SCHEMA, (problem) => new HostStoreUnusableError(this.shown, problem), this.options.maxConnections ?? 10).catch((e: unknown) => {
      this.ready = null;
      throw e;
    });
    return this.ready;
  }

  async cursorSecret(): Promise<Buffer> {
    const pool = await this.pool();
    await pool.query("INSERT INTO host_meta (key, value) VALUES ('cursor_secret', $1) ON CONFLICT DO NOTHING", [randomBytes(32).toString("hex")]);
    const { rows } = await pool.query<{ value: string }>("SELECT value FROM host_meta WHERE key = 'cursor_secret'");
    return Buffer.from(rows[0]?.value ?? "", "hex");
  }

  async claimKey(ref: JournalKey, paramsHash: string, retentionMs: number, now: number, defect: SeededDefect | null): Promise<KeyClaim> {
    const pool = await this.pool();
    await this.sweep(pool, ref.operation, retentionMs, now);
    const args = [ref.operation, ref.scope, ref.key];
    const client = await pool.connect();
    let holding = false;
    let keep = false;
    let broken = false;
    try {
      await client.query("BEGIN");
      await client.query(`SELECT pg_advisory_xact_lock($1, ${LOCK_OF_KEY})`, [CLAIM_LOCK, ...args]);
      const read = async () => (await client.query<JournalRow & { holder: string }>(`SELECT * FROM host_idempotency WHERE ${KEY}`, args)).rows[0];
      let row = await read();
      if (row?.state === "in_progress") {
        // In progress, but is its holder alive? Its connection holds the key's lock until it commits.
        holding = await this.tryHold(client, args);
        // Re-read: the holder may have committed its answer just before letting go.
        if (holding) row = await read();
      }
      // Still in progress with its holder gone: the holder died mid-execution and its transaction was
      // rolled back, so nothing executed under the key, which is free again (for any parameters).
      const orphaned = holding && row?.state === "in_progress";
      let existing = row && !orphaned ? existingClaim(row, paramsHash, retentionMs, now, defect) : "expired";
      if (existing === "expired" && row?.state === "in_progress" && !holding) {
        // Past retention, but its holder is still executing: the key is not free until it ends (taking
        // it now would run a second execution, and waiting for its lock here would deadlock with it).
        existing = { kind: "in_progress" };
      }
      if (existing !== "expired") {
        await client.query("COMMIT");
        return existing;
      }
      const holder = randomUUID();
      if (row) await client.query(`DELETE FROM host_idempotency WHERE ${KEY}`, args);
      await client.query("INSERT INTO host_idempotency (operation, scope, key, params_hash, state, created_at, holder) VALUES ($1, $2, $3, $4, 'in_progress', $5, $6)", [...args, paramsHash, now, holder]);
      if (!holding) {
        // Free unless another key hashes alike and is executing: then wait for it (it needs no lock we hold).
        await client.query(`SELECT pg_advisory_lock($1, ${LOCK_OF_KEY})`, [HOLDER_LOCK, ...args]);
        holding = true;
      }
      await client.query("COMMIT");
      keep = true;
      return { kind: "claimed", lease: this.lease(client, args, holder) };
    } catch (error) {
      broken = isConnectionError(error);
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      if (!keep) {
        if (holding && !broken) await client.query(`SELECT pg_advisory_unlock($1, ${LOCK_OF_KEY})`, [HOLDER_LOCK, ...args]).catch(() => (broken = true));
        // A connection whose session state is unknown (a lost link, a failed unlock) is not reused.
        client.release(broken);
      }
    }
  }

  private async tryHold(client: PgClient, args: readonly string[]): Promise<boolean> {
    const { rows } = await client.query<{ held: boolean }>(`SELECT pg_try_advisory_lock($1, ${LOCK_OF_KEY}) AS held`, [HOLDER_LOCK, ...args]);
    return rows[0]?.held === true;
  }

  /** The claimed key: its connection holds the key's lock until execute() commits or release() gives it back. */
  private lease(client: PgClient, args: readonly string[], holder: string): KeyLease {
    let ended = false;
    const end = async (broken: boolean) => {
      if (ended) return;
      ended = true;
      if (broken) return client.release(true);
      try {
        await client.query(`SELECT pg_advisory_unlock($1, ${LOCK_OF_KEY})`, [HOLDER_LOCK, ...args]);
        client.release();
      } catch (e) {
        // A connection whose lock state is unknown must not serve another request.
        client.release(e instanceof Error ? e : true);
      }
    };
    return {
      execute: async (status, execute) => {
        const body = await inTransaction(client, async (tx) => {
          const answer = await execute(tx);
          const done = await client.query(`UPDATE host_idempotency SET state = 'done', response_status = $5, response_body = $6 WHERE ${KEY} AND holder = $4`, [...args, holder, status, answer]);
          if (done.rowCount !== 1) throw new Error("the idempotency key was taken over while this execution ran; it was rolled back");
          return answer;
        });
        await end(false);
        return body;
      },
      release: async () => {
        try {
          await client.query(`DELETE FROM host_idempotency WHERE ${KEY} AND holder = $4 AND state = 'in_progress'`, [...args, holder]);
          await end(false);
        } catch {
          // The connection is gone: so is its lock, and the next request takes the key over.
          await end(true);
        }
      },
    };
  }

  async transaction(execute: (tx: StoreTransaction) => Promise<string>): Promise<string> {
    const client = await (await this.pool()).connect();
    let broken = false;
    try {
      return await inTransaction(client, execute);
    } catch (error) {
      broken = isConnectionError(error);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async read<T>(run: (access: StoreAccess) => Promise<T>): Promise<T> {
    return run({ db: null, sql: await this.pool() });
  }

  async storeToken(confirmation: Confirmation, operation: string, caller: string, paramsHash: string, now: number): Promise<void> {
    const pool = await this.pool();
    await pool.query("DELETE FROM host_confirm_tokens WHERE expires_at < $1", [now - KEEP_AFTER_EXPIRY_MS]);
    await pool.query("INSERT INTO host_confirm_tokens (token, operation, caller, params_hash, expires_at) VALUES ($1, $2, $3, $4, $5)", [
      confirmation.token,
      operation,
      caller,
      paramsHash,
      Date.parse(confirmation.expiresAt),
    ]);
  }

  async close(): Promise<void> {
    const ready = this.ready;
    this.ready = null;
    const pool = await ready?.catch(() => null);
    await pool?.end().catch(() => undefined);
  }

  /** Forget the operation's entries past retention (finished ones; an orphaned claim is taken over instead). */
  private async sweep(pool: PgPool, operation: string, retentionMs: number, now: number): Promise<void> {
    const last = this.swept.get(operation);
    if (last !== undefined && now - last < SWEEP_EVERY_MS && now >= last) return;
    this.swept.set(operation, now);
    await pool.query("DELETE FROM host_idempotency WHERE operation = $1 AND created_at <= $2 AND state = 'done'", [operation, now - retentionMs]);
  }
}

/** BEGIN … COMMIT on one connection, with the confirm-token redemption handlers' transaction needs. */
async function inTransaction(client: PgClient, execute: (tx: StoreTransaction) => Promise<string>): Promise<string> {
  const tx: StoreTransaction = {
    db: null,
    sql: client,
    redeemToken: async (r: Redemption, now: number): Promise<TokenRefusal | null> => {
      const given = tokenGiven(r);
      if (given !== "given") return given === "skip" ? null : given;
      // Row-locked: two replicas redeeming one single-use token take turns, and the second sees it used.
      const { rows } = await client.query<TokenRow>("SELECT * FROM host_confirm_tokens WHERE token = $1 FOR UPDATE", [r.token]);
      const row = rows[0];
      const refusal = tokenRefusal(row, r, now);
      if (refusal === null && row?.used_at === null) await client.query("UPDATE host_confirm_tokens SET used_at = $1 WHERE token = $2", [now, r.token]);
      return refusal;
    },
  };
  await client.query("BEGIN");
  let body: string;
  try {
    body = await execute(tx);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
  try {
    await client.query("COMMIT");
  } catch (error) {
    // The connection went while COMMIT was on its way: the server may have committed (the change and
    // its recorded answer together) or not. Only a retry under the key can tell.
    if (isConnectionError(error)) throw new CommitUnconfirmedError(error);
    throw error;
  }
  return body;
}
