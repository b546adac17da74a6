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

/** The part of `pg` this journal uses (loaded only when a PostgreSQL URL is configured). */
interface PgQueryable {
  query<R = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}
interface PgPool extends PgQueryable {
  connect(): Promise<PgQueryable & { release(): void }>;
  end(): Promise<void>;
  on(event: "error", listener: (e: Error) => void): unknown;
}
type PgModule = { Pool: new (config: { connectionString: string; max?: number; connectionTimeoutMillis?: number }) => PgPool };

/** Schema version this runtime writes (stored in contractgen_journal_schema; migrations go up from 1). */
export const POSTGRES_JOURNAL_SCHEMA = 1;
/** Advisory lock key (any constant) held while the schema is created or migrated. */
const MIGRATION_LOCK = 7_301_947_112;

/** Whether a journal setting names a PostgreSQL database rather than a file. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(value);
}

/** The URL as it may be shown: the password (and a password query parameter) replaced by ***. */
export function maskedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    for (const key of [...u.searchParams.keys()]) if (/pass|secret|token/i.test(key)) u.searchParams.set(key, "***");
    return u.toString();
  } catch {
    return "(a PostgreSQL URL that cannot be parsed)";
  }
}

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

/** Load `pg` by a name tsc does not resolve: only a configuration that uses PostgreSQL needs it installed. */
async function loadPg(): Promise<PgModule> {
  const name = "pg";
  const loaded = (await import(name)) as PgModule & { default?: PgModule };
  return loaded.default ?? loaded;
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
    this.ready ??= (async () => {
      let pg: PgModule;
      try {
        pg = await loadPg();
      } catch {
        throw this.unusable("the pg package is not installed (npm install pg)");
      }
      const pool = new pg.Pool({ connectionString: this.url, max: 10, connectionTimeoutMillis: 5000 });
      // An idle client that the server drops is replaced by the pool; it must not crash the process.
      pool.on("error", () => undefined);
      this.pool = pool;
      try {
        await this.migrate(pool);
      } catch (e) {
        this.ready = null;
        await pool.end().catch(() => undefined);
        this.pool = null;
        throw e instanceof JournalUnusableError ? e : this.unusable(describe(e));
      }
      return pool;
    })();
    return this.ready;
  }

  private async migrate(pool: PgPool): Promise<void> {
    // One connection for the whole transaction (a pool may run each query on another).
    const db = await pool.connect();
    await db.query("BEGIN");
    try {
      await db.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await db.query("CREATE TABLE IF NOT EXISTS contractgen_journal_schema (version INTEGER NOT NULL)");
      const { rows } = await db.query<{ version: number }>("SELECT max(version) AS version FROM contractgen_journal_schema");
      const version = rows[0]?.version ?? 0;
      if (version > POSTGRES_JOURNAL_SCHEMA) throw this.unusable(`its journal schema is version ${version}, newer than this runtime's ${POSTGRES_JOURNAL_SCHEMA}: upgrade the generated package`);
      if (version < 1) {
        await db.query(`CREATE TABLE IF NOT EXISTS operation_journal (
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
        )`);
        await db.query("CREATE INDEX IF NOT EXISTS operation_journal_intent ON operation_journal (operation, target, params_hash, status)");
        await db.query("INSERT INTO contractgen_journal_schema (version) VALUES (1)");
      }
      await db.query("COMMIT");
    } catch (e) {
      await db.query("ROLLBACK").catch(() => undefined);
      throw e;
    } finally {
      db.release();
    }
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

/** A driver error as a short reason, never with the URL's credentials (pg's messages do not carry them). */
function describe(e: unknown): string {
  const code = (e as { code?: string }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === "ECONNREFUSED") return "nothing accepts connections there (is PostgreSQL running?)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "its host name does not resolve";
  if (code === "28P01" || code === "28000") return "the database refused the credentials";
  if (code === "3D000") return "the database does not exist";
  return `it cannot be used as a journal (${code ?? message.slice(0, 200)})`;
}
