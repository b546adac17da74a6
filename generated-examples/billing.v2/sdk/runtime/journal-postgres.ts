/**
 * The operation journal on PostgreSQL, for servers and clients that run as several replicas: the
 * same semantics as the SQLite journal (journal.ts, decideClaim), on a store every replica shares. A
 * retry that lands on another replica finds the intent the first one recorded, and so sends the same key.
 * - A claim is one transaction: an advisory lock on the intent (its operation, target and parameter
 *   hash) serialises every claim of one intent across replicas, new intents included; the rows it
 *   reads are locked (FOR UPDATE) against a claim of the same key with other parameters; the intent is
 *   committed before the first byte is sent.
 * - The schema is versioned (contractgen_journal_schema) and migrated on first use, under an
 *   advisory lock so that replicas starting together do not race.
 * A URL that cannot be used is a JournalUnusableError naming it with its password masked; there is
 * no silent fallback to a local file.
 */
import type { Claim, ClaimRequest, ClaimRows, IntentRef, JournalEntry, JournalStatus, OperationJournal, StoredJournalRow } from "./journal.js";
import { decideClaim, journalEntry, JournalUnusableError } from "./journal.js";
import { describePgError, isConnectionError, maskedUrl, openPool, type PgPool, type PgQueryable, type PgSchema } from "./postgres.js";

export { isPostgresUrl, maskedUrl } from "./postgres.js";

/** Schema version this runtime writes (stored in contractgen_journal_schema; migrations go up from 1). */
export const POSTGRES_JOURNAL_SCHEMA = 2;

const JOURNAL_SCHEMA: PgSchema = {
  versionTable: "contractgen_journal_schema",
  lockKey: 7_301_947_112,
  what: "journal",
  steps: [
    [
      `CREATE TABLE IF NOT EXISTS operation_journal (
        target TEXT NOT NULL,
        operation TEXT NOT NULL,
        key TEXT NOT NULL,
        params_hash TEXT NOT NULL,
        confirm_hash TEXT,
        status TEXT NOT NULL,
        result JSONB,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        seq BIGSERIAL,
        PRIMARY KEY (target, operation, key)
      )`,
      "CREATE INDEX IF NOT EXISTS operation_journal_intent ON operation_journal (operation, target, params_hash, status)",
    ],
    // 2: claims (who is sending an intent, until when) and recoveries.
    [
      "ALTER TABLE operation_journal ADD COLUMN IF NOT EXISTS claimant TEXT",
      "ALTER TABLE operation_journal ADD COLUMN IF NOT EXISTS lease_until BIGINT",
      "ALTER TABLE operation_journal ADD COLUMN IF NOT EXISTS recovered BOOLEAN NOT NULL DEFAULT false",
    ],
  ],
};

/** Advisory lock class (two-key form) of claims: one intent's claims take turns on every replica. */
const INTENT_LOCK = 7_301_948;

/** PostgreSQL's: the result as decoded JSONB, BIGINT times as text. */
type Row = StoredJournalRow<unknown, string>;

function toEntry(row: Row): JournalEntry {
  return journalEntry(row, row.result ?? null);
}

export class PostgresJournal implements OperationJournal {
  private pool: PgPool | null = null;
  private ready: Promise<PgPool> | null = null;

  /** The URL is not contacted until the first operation (then a failure names it, masked). */
  constructor(private readonly url: string) {}

  /** The database as shown in messages (password masked). */
  get shown(): string {
    return maskedUrl(this.url);
  }

  private unusable(problem: string): JournalUnusableError {
    return new JournalUnusableError(this.shown, problem);
  }

  /** The pool, with the schema created or migrated (once per journal). */
  private db(): Promise<PgPool> {
    this.ready ??= openPool(this.url, JOURNAL_SCHEMA, (problem) => this.unusable(problem)).then(
      (pool) => (this.pool = pool),
      (e: unknown) => {
        this.ready = null;
        throw e;
      },
    );
    return this.ready;
  }

  async claim(request: ClaimRequest, now = Date.now()): Promise<Claim> {
    const pool = await this.db();
    // A claim of a new key with other parameters may insert the same key concurrently (its intent lock
    // is another): the loser finds the row the second time round.
    for (let round = 1; ; round++) {
      const claim = await this.inTransaction(pool, async (db) => {
        await db.query("SELECT pg_advisory_xact_lock($1, hashtext($2 || chr(31) || $3 || chr(31) || $4))", [INTENT_LOCK, request.target, request.operation, request.paramsHash]);
        const decision = decideClaim(request, await this.rowsOf(db, request), now);
        if (decision.kind !== "insert" && decision.kind !== "update") return decision;
        const e = decision.entry;
        const values = [e.target, e.operation, e.key, e.paramsHash, e.confirmHash ?? null, e.createdAt, e.updatedAt, e.claimant, e.leaseUntil, e.recovered];
        const written =
          decision.kind === "insert"
            ? await db.query<Row>(
                `INSERT INTO operation_journal (target, operation, key, params_hash, confirm_hash, status, result, created_at, updated_at, claimant, lease_until, recovered)
                 VALUES ($1, $2, $3, $4, $5, 'sending', NULL, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING *`,
                values,
              )
            : await db.query<Row>(
                `UPDATE operation_journal SET params_hash = $4, confirm_hash = $5, status = 'sending', result = NULL, created_at = $6, updated_at = $7, claimant = $8, lease_until = $9, recovered = $10,
                   seq = CASE WHEN created_at = $6 THEN seq ELSE nextval(pg_get_serial_sequence('operation_journal', 'seq')) END
                 WHERE target = $1 AND operation = $2 AND key = $3 RETURNING *`,
                values,
              );
        return written.rows[0] ? ({ kind: "send", entry: toEntry(written.rows[0]) } as const) : null;
      });
      if (claim) return claim;
      if (round === 3) throw this.unusable("an intent's key was recorded and changed again while it was being claimed");
    }
  }

  /** The rows a claim is decided on, those it may take over locked until the claim commits. */
  private async rowsOf(db: PgQueryable, request: ClaimRequest): Promise<ClaimRows> {
    if (request.key !== null) {
      const { rows } = await db.query<Row>("SELECT * FROM operation_journal WHERE target = $1 AND operation = $2 AND key = $3 FOR UPDATE", [request.target, request.operation, request.key]);
      return { byKey: rows[0] ? toEntry(rows[0]) : undefined };
    }
    const intent = [request.operation, request.target, request.paramsHash];
    const one = async (where: string, order: string, more: unknown[], lock = "") => {
      const { rows } = await db.query<Row>(`SELECT * FROM operation_journal WHERE operation = $1 AND target = $2 AND params_hash = $3 AND ${where} ORDER BY ${order}, seq DESC LIMIT 1 ${lock}`, [...intent, ...more]);
      return rows[0] ? toEntry(rows[0]) : undefined;
    };
    const unfinished = await one("status IN ('sending', 'unknown')", "created_at DESC", [], "FOR UPDATE");
    if (unfinished) return { unfinished };
    return {
      replay: request.replaySince === null || request.confirmHash === null ? undefined : await one("confirm_hash = $4 AND status = 'completed' AND created_at >= $5", "created_at DESC", [request.confirmHash, request.replaySince]),
      recovered:
        request.recoveredSince === null
          ? undefined
          : await one("recovered AND status IN ('completed', 'rejected') AND updated_at >= $4 AND confirm_hash IS NOT DISTINCT FROM $5", "updated_at DESC", [request.recoveredSince, request.confirmHash]),
    };
  }

  /** BEGIN … COMMIT on one connection; a driver error is the journal's (named, masked), a broken connection not reused. */
  private async inTransaction<T>(pool: PgPool, run: (db: PgQueryable) => Promise<T>): Promise<T> {
    let client;
    try {
      client = await pool.connect();
    } catch (e) {
      throw this.driverError(e);
    }
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await run(client);
      await client.query("COMMIT");
      return result;
    } catch (e) {
      broken = isConnectionError(e);
      await client.query("ROLLBACK").catch(() => (broken = true));
      throw this.driverError(e);
    } finally {
      client.release(broken);
    }
  }

  /** A driver error (it carries a code) as the journal's own; anything else as it is. */
  private driverError(e: unknown): unknown {
    return typeof (e as { code?: unknown })?.code === "string" ? this.unusable(describePgError(e, "journal")) : e;
  }

  private async query(text: string, values: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number | null }> {
    const pool = await this.db();
    try {
      return await pool.query<Row>(text, values);
    } catch (e) {
      throw this.driverError(e);
    }
  }

  async renew(ref: IntentRef, claimant: string, leaseUntil: number): Promise<boolean> {
    const { rowCount } = await this.query(`UPDATE operation_journal SET lease_until = $1 WHERE target = $2 AND operation = $3 AND key = $4 AND claimant = $5 AND status = 'sending'`, [
      leaseUntil,
      ref.target,
      ref.operation,
      ref.key,
      claimant,
    ]);
    return rowCount === 1;
  }

  async settle(ref: IntentRef, claimant: string, status: Exclude<JournalStatus, "sending">, result: unknown, now = Date.now()): Promise<void> {
    await this.query(
      `UPDATE operation_journal SET status = $1, result = $2::jsonb, updated_at = $3, claimant = NULL, lease_until = NULL WHERE target = $4 AND operation = $5 AND key = $6 AND claimant = $7`,
      [status, JSON.stringify(result ?? null), now, ref.target, ref.operation, ref.key, claimant],
    );
  }

  async get(ref: IntentRef): Promise<JournalEntry | undefined> {
    const { rows } = await this.query(`SELECT * FROM operation_journal WHERE target = $1 AND operation = $2 AND key = $3`, [ref.target, ref.operation, ref.key]);
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  close(): void {
    const pool = this.pool;
    this.pool = null;
    this.ready = null;
    void pool?.end().catch(() => undefined);
  }
}
