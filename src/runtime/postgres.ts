/**
 * What every PostgreSQL store of contractgen shares (the SDK's operation journal, the host's records):
 * loading `pg` only when a URL asks for it, a pool that survives dropped idle connections, a schema
 * migrated once under an advisory lock, and messages that name the database with its password masked.
 */
import { importOptional, OptionalPackageError } from "./optional-package.js";

/** The part of `pg` the stores use (declared here: `pg` is loaded only when a PostgreSQL URL is configured). */
export interface PgQueryable {
  query<R = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}
export interface PgClient extends PgQueryable {
  /** Back to the pool; with an error, the connection is discarded instead (its session state is unknown). */
  release(error?: Error | boolean): void;
  on(event: "error", listener: (e: Error) => void): unknown;
}
export interface PgPool extends PgQueryable {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: "error", listener: (e: Error) => void): unknown;
  on(event: "connect", listener: (client: PgClient) => void): unknown;
}
type PgModule = { Pool: new (config: { connectionString: string; max?: number; connectionTimeoutMillis?: number }) => PgPool };

/** Whether a setting names a PostgreSQL database rather than a file. */
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

/** Load `pg` (an optional package) by a name tsc does not resolve: only a configuration that uses PostgreSQL needs it installed. */
function loadPg(what: string): Promise<PgModule> {
  return importOptional<PgModule>("pg", `The PostgreSQL ${what}`);
}

/** One versioned schema: its version table, the version this runtime writes, and each step up from 1. */
export interface PgSchema {
  /** Table holding the applied version (one per store, so the stores migrate independently). */
  readonly versionTable: string;
  /** Advisory lock key held while migrating, so replicas starting together migrate once. */
  readonly lockKey: number;
  /** steps[i] brings the schema from version i to i + 1. */
  readonly steps: ReadonlyArray<ReadonlyArray<string>>;
  /** What the store is called in messages ("journal", "host records"). */
  readonly what: string;
}

/**
 * A pool on `url` with `schema` migrated, or a thrown `unusable(problem)`. The URL is not contacted
 * before this is called; a failure closes the pool again, so a later call retries from scratch.
 */
export async function openPool(url: string, schema: PgSchema, unusable: (problem: string) => Error, max = 10): Promise<PgPool> {
  let pg: PgModule;
  try {
    pg = await loadPg(schema.what);
  } catch (e) {
    // "The PostgreSQL journal needs the package pg, which is not installed: npm install …"
    throw e instanceof OptionalPackageError ? unusable(e.message) : e;
  }
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  // An idle client that the server drops is replaced by the pool; it must not crash the process.
  pool.on("error", () => undefined);
  // A connection lost while checked out (a killed backend, a failover; e.g. the host store's key lease,
  // held for a whole execution) also emits "error" on its client, where the pool listens only while it
  // is idle: unheard, that would crash the process. Its queries fail on their own, so ignore it here.
  pool.on("connect", (client) => client.on("error", () => undefined));
  try {
    await migrate(pool, schema, unusable);
    return pool;
  } catch (e) {
    await pool.end().catch(() => undefined);
    // The driver's errors carry a code; the store's own refusals (unusable()) pass through as they are.
    throw typeof (e as { code?: unknown }).code === "string" ? unusable(describePgError(e, schema.what)) : e;
  }
}

async function migrate(pool: PgPool, schema: PgSchema, unusable: (problem: string) => Error): Promise<void> {
  const latest = schema.steps.length;
  // An up-to-date schema needs no lock: processes starting together (every CLI run, every replica)
  // would otherwise queue on it one after another. Versions only go up, so a read is enough to know.
  const current = await pool.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${schema.versionTable}`).then(
    ({ rows }) => rows[0]?.version ?? 0,
    (e: unknown) => {
      if ((e as { code?: unknown }).code === "42P01") return 0; // undefined_table: a new database
      throw e;
    },
  );
  if (current === latest) return;
  // One connection for the whole transaction (a pool may run each query on another).
  const db = await pool.connect();
  try {
    await db.query("BEGIN");
    await db.query("SELECT pg_advisory_xact_lock($1)", [schema.lockKey]);
    await db.query(`CREATE TABLE IF NOT EXISTS ${schema.versionTable} (version INTEGER NOT NULL)`);
    const { rows } = await db.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${schema.versionTable}`);
    const version = rows[0]?.version ?? 0;
    if (version > latest) throw unusable(`its ${schema.what} schema is version ${version}, newer than this runtime's ${latest}: upgrade the generated package`);
    for (let v = version; v < latest; v++) {
      for (const statement of schema.steps[v] ?? []) await db.query(statement);
      await db.query(`INSERT INTO ${schema.versionTable} (version) VALUES ($1)`, [v + 1]);
    }
    await db.query("COMMIT");
  } catch (e) {
    await db.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    db.release();
  }
}

/** Whether a driver error means the connection itself is gone or unusable (then it is not returned to the pool). */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && (code.startsWith("08") || code.startsWith("E"));
}

/** A driver error as a short reason, never with the URL's credentials (pg's messages do not carry them). */
export function describePgError(e: unknown, what: string): string {
  const code = (e as { code?: string }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (code === "ECONNREFUSED") return "nothing accepts connections there (is PostgreSQL running?)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "its host name does not resolve";
  if (code === "28P01" || code === "28000") return "the database refused the credentials";
  if (code === "3D000") return "the database does not exist";
  return `it cannot be used for the ${what} (${code ?? message.slice(0, 200)})`;
}
