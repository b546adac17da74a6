/**
 * The slice of better-sqlite3 the contract host (and the example platforms) use. The package ships no type declarations
 * (and @types/better-sqlite3 is not a dependency), so the API is declared here and the module is
 * loaded with require when a database is opened: better-sqlite3 is a CommonJS native addon, and an
 * optional package of an adapter-only generated package (a missing one is a clear OptionalPackageError).
 */
import { requireOptional } from "../runtime/optional-package.js";

export interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

export interface Statement {
  run(...params: readonly unknown[]): RunResult;
  /** The first row, or undefined. Rows are plain objects keyed by column name. */
  get(...params: readonly unknown[]): unknown;
  all(...params: readonly unknown[]): unknown[];
}

export interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): Database;
  /** Wraps fn so each call runs in one transaction: committed on return, rolled back on throw. */
  transaction<Args extends unknown[], Result>(fn: (...args: Args) => Result): ((...args: Args) => Result) & {
    /** The same, begun with BEGIN IMMEDIATE: the file's write lock before the first read. */
    immediate(...args: Args): Result;
  };
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): Database;
  readonly open: boolean;
  readonly inTransaction: boolean;
}

/**
 * How long a statement waits for another connection's lock (better-sqlite3's default, said here).
 * The contract host's own writes do not rely on it: they wait for the write lock on a timer
 * (store-sqlite.ts), as a write may wait for as long as another process's execution runs.
 */
const BUSY_TIMEOUT_MS = 5_000;

/** Open (or create) a database file; ":memory:" for a private in-memory database. */
export function openDatabase(path = ":memory:"): Database {
  const BetterSqlite3 = requireOptional<new (path: string, options: { timeout: number }) => Database>("better-sqlite3", "The contract host's SQLite database");
  const db = new BetterSqlite3(path, { timeout: BUSY_TIMEOUT_MS });
  useWal(db);
  db.pragma("foreign_keys = ON");
  return db;
}

/**
 * WAL lets a file database serve reads while a write is committing (no effect in memory). Switching a
 * new file to it does not wait for locks as other statements do: a process opening the file while
 * another is switching it is refused at once (SQLITE_BUSY), so the switch is retried here.
 */
function useWal(db: Database): void {
  const giveUpAt = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if (!String((error as { code?: unknown }).code).startsWith("SQLITE_BUSY") || Date.now() > giveUpAt) throw error;
      // Opening is synchronous: wait without returning to the event loop.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
