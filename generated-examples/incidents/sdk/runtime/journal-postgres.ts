/**
 * The operation journal on PostgreSQL, for servers and clients that run as several replicas: the
 * same semantics as the SQLite journal (journal.ts), on a store every replica shares. A retry that
 * lands on another replica finds the intent the first one recorded, and so sends the same key.
 * - The intent is committed before the first byte is sent (INSERT … ON CONFLICT DO NOTHING: the
 *   primary key (target, operation, key) makes concurrent begins of one key one row).
 * - A key whose last attempt was rejected is bound again, atomically (UPDATE … WHERE status =
 *   'rejected').
 * - The schema is versioned (contractgen_journal_schema) and migrated on first use, under an
 *   advisory lock so that replicas starting together do not race.
 * A URL that cannot be used is a JournalUnusableError naming it with its password masked; there is
 * no silent fallback to a local file.
 */
import type { Intent, JournalEntry, JournalStatus, OperationJournal } from "./journal.js";
import { journalEntry, JournalUnusableError } from "./journal.js";
import { maskedUrl, openPool, type PgPool, type PgSchema } from "./postgres.js";

export { isPostgresUrl, maskedUrl } from "./postgres.js";

/** Schema version this runtime writes (stored in contractgen_journal_schema; migrations go up from 1). */
export const POSTGRES_JOURNAL_SCHEMA = 1;

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
  ],
};

interface Row {
  operation: string;
  target: string;
  key: string;
  params_hash: string;
  confirm_hash: string | null;
  status: JournalStatus;
  result: unknown;
  created_at: string;
  updated_at: string;
}

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

  async begin(intent: Intent, now = Date.now()): Promise<{ entry: JournalEntry; created: boolean }> {
    const db = await this.db();
    const values = [intent.target, intent.operation, intent.key, intent.paramsHash, intent.confirmHash ?? null, now];
    const inserted = await db.query<Row>(
      `INSERT INTO operation_journal (target, operation, key, params_hash, confirm_hash, status, result, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'sending', NULL, $6, $6) ON CONFLICT DO NOTHING RETURNING *`,
      values,
    );
    if (inserted.rows[0]) return { entry: toEntry(inserted.rows[0]), created: true };
    const rebound = await db.query<Row>(
      `UPDATE operation_journal SET params_hash = $4, confirm_hash = $5, status = 'sending', result = NULL, created_at = $6, updated_at = $6, seq = nextval(pg_get_serial_sequence('operation_journal', 'seq'))
       WHERE target = $1 AND operation = $2 AND key = $3 AND status = 'rejected' RETURNING *`,
      values,
    );
    if (rebound.rows[0]) return { entry: toEntry(rebound.rows[0]), created: true };
    const entry = await this.get(intent);
    if (!entry) throw this.unusable("an intent vanished while it was being recorded");
    return { entry, created: false };
  }

  async findUnfinished(operation: string, target: string, paramsHash: string): Promise<JournalEntry | undefined> {
    const { rows } = await (await this.db()).query<Row>(
      `SELECT * FROM operation_journal WHERE operation = $1 AND target = $2 AND params_hash = $3 AND status IN ('sending', 'unknown')
       ORDER BY created_at DESC, seq DESC LIMIT 1`,
      [operation, target, paramsHash],
    );
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  async findCompleted(operation: string, target: string, paramsHash: string, confirmHash: string, since: number): Promise<JournalEntry | undefined> {
    const { rows } = await (await this.db()).query<Row>(
      `SELECT * FROM operation_journal WHERE operation = $1 AND target = $2 AND params_hash = $3 AND confirm_hash = $4 AND status = 'completed' AND created_at >= $5
       ORDER BY created_at DESC, seq DESC LIMIT 1`,
      [operation, target, paramsHash, confirmHash, since],
    );
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  async settle(intent: Pick<Intent, "operation" | "target" | "key">, status: Exclude<JournalStatus, "sending">, result: unknown, now = Date.now()): Promise<void> {
    await (await this.db()).query(`UPDATE operation_journal SET status = $1, result = $2::jsonb, updated_at = $3 WHERE target = $4 AND operation = $5 AND key = $6`, [
      status,
      JSON.stringify(result ?? null),
      now,
      intent.target,
      intent.operation,
      intent.key,
    ]);
  }

  async get(intent: Pick<Intent, "operation" | "target" | "key">): Promise<JournalEntry | undefined> {
    const { rows } = await (await this.db()).query<Row>(`SELECT * FROM operation_journal WHERE target = $1 AND operation = $2 AND key = $3`, [intent.target, intent.operation, intent.key]);
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  close(): void {
    const pool = this.pool;
    this.pool = null;
    this.ready = null;
    void pool?.end().catch(() => undefined);
  }
}
