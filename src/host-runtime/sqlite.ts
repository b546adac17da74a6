/**
 * The slice of better-sqlite3 the contract host (and the example platforms) use. The package ships no type declarations
 * (and @types/better-sqlite3 is not a dependency), so the API is declared here and the module is
 * loaded with require: better-sqlite3 is a CommonJS native addon either way.
 */
import { createRequire } from "node:module";

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
  transaction<Args extends unknown[], Result>(fn: (...args: Args) => Result): (...args: Args) => Result;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): Database;
  readonly open: boolean;
  readonly inTransaction: boolean;
}

const require = createRequire(import.meta.url);

/** Open (or create) a database file; ":memory:" for a private in-memory database. */
export function openDatabase(path = ":memory:"): Database {
  const BetterSqlite3 = require("better-sqlite3") as new (path: string) => Database;
  const db = new BetterSqlite3(path);
  // WAL lets a file database serve reads while a write is committing; no effect in memory.
  db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  return db;
}
