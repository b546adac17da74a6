/**
 * The example platforms' database: the host's SQLite slice, plus seeding once per database file.
 */
import type { Database } from "../../src/host-runtime/sqlite.js";

export { type Database, openDatabase, type RunResult, type Statement } from "../../src/host-runtime/sqlite.js";

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
    // IMMEDIATE: the write lock before the read, so that two processes opening one new file do not
    // both find it unseeded (or one fail upgrading its read to a write).
  }).immediate();
}

/** SQLite has no boolean type: flags are stored as 0/1. */
export function sqlFlag(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}
