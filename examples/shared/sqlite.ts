/**
 * The slice of better-sqlite3 the example platforms use. The package ships no type declarations
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

/**
 * Run `seed` the first time a database is set up for `name`, and never again, so a database file
 * keeps its data across restarts. A database seeded with another variant is refused rather than
 * silently mixed.
 */
export function seedOnce(db: Database, name: string, variant: string, seed: () => void): void {
  db.exec("CREATE TABLE IF NOT EXISTS example_seeds (name TEXT PRIMARY KEY, variant TEXT NOT NULL)");
  db.transaction(() => {
    const row = db.prepare("SELECT variant FROM example_seeds WHERE name = ?").get(name) as { variant: string } | undefined;
    if (row) {
      if (row.variant !== variant) {
        throw new Error(`This database holds the "${row.variant}" ${name} data set, not "${variant}"; use another database file.`);
      }
      return;
    }
    seed();
    db.prepare("INSERT INTO example_seeds (name, variant) VALUES (?, ?)").run(name, variant);
  })();
}

/** SQLite has no boolean type: flags are stored as 0/1. */
export function sqlFlag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}
