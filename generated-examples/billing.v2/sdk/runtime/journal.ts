/**
 * The operation journal: an intent (operation, target, key, parameter hash) is written *before* the
 * first submission and its outcome after, so that a second process — after a crash or a lost
 * response — recovers the same intent instead of creating a second effect.
 */
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";

export type JournalStatus = "sending" | "completed" | "rejected" | "unknown";

export interface Intent {
  readonly operation: string;
  /** Where it is sent (base URL): keys are only meaningful per platform. */
  readonly target: string;
  readonly key: string;
  readonly paramsHash: string;
  /** sha256 of the confirm token the execution carried (a previewable operation), else null. */
  readonly confirmHash?: string | null;
}

export interface JournalEntry extends Intent {
  readonly status: JournalStatus;
  /** The recorded response body (completed) or error (rejected/unknown), as JSON. */
  readonly result: unknown;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A value now (an embedded store) or later (a database across the network). */
export type Awaitable<T> = T | Promise<T>;

/**
 * Where keyed intents and their outcomes are recorded. Embedded stores (memory, SQLite) answer at
 * once; a shared database (PostgreSQL, journal-postgres.ts) answers with promises: callers await.
 */
export interface OperationJournal {
  /**
   * Record the intent unless its key is known; returns the entry as stored and whether it is new.
   * A key whose last attempt was rejected (nothing executed) is free again: it is re-bound.
   */
  begin(intent: Intent, now?: number): Awaitable<{ entry: JournalEntry; created: boolean }>;
  /** The newest unfinished entry for the same operation, target and parameters (to reuse its key). */
  findUnfinished(operation: string, target: string, paramsHash: string): Awaitable<JournalEntry | undefined>;
  /** The newest completed entry for the same operation, target, parameters and confirm token, begun at or after `since` (ms). */
  findCompleted(operation: string, target: string, paramsHash: string, confirmHash: string, since: number): Awaitable<JournalEntry | undefined>;
  /** Record how an intent ended. */
  settle(intent: Pick<Intent, "operation" | "target" | "key">, status: Exclude<JournalStatus, "sending">, result: unknown, now?: number): Awaitable<void>;
  get(intent: Pick<Intent, "operation" | "target" | "key">): Awaitable<JournalEntry | undefined>;
  close(): void;
}

/** In-process journal: survives retries, not the process. */
export class MemoryJournal implements OperationJournal {
  private readonly entries = new Map<string, JournalEntry>();

  private static id(i: Pick<Intent, "operation" | "target" | "key">): string {
    return JSON.stringify([i.target, i.operation, i.key]);
  }

  begin(intent: Intent, now = Date.now()): { entry: JournalEntry; created: boolean } {
    const existing = this.entries.get(MemoryJournal.id(intent));
    if (existing && existing.status !== "rejected") return { entry: existing, created: false };
    const entry: JournalEntry = { ...intent, confirmHash: intent.confirmHash ?? null, status: "sending", result: null, createdAt: now, updatedAt: now };
    // Delete first so that the map's order is the order entries were begun (newest last).
    this.entries.delete(MemoryJournal.id(intent));
    this.entries.set(MemoryJournal.id(intent), entry);
    return { entry, created: true };
  }

  findUnfinished(operation: string, target: string, paramsHash: string): JournalEntry | undefined {
    return [...this.entries.values()]
      .reverse() // the sort is stable: on equal createdAt, the entry begun last wins (as rowid DESC in SQLite)
      .filter((e) => e.operation === operation && e.target === target && e.paramsHash === paramsHash && e.status !== "completed" && e.status !== "rejected")
      .sort((a, b) => b.createdAt - a.createdAt)[0];
  }

  findCompleted(operation: string, target: string, paramsHash: string, confirmHash: string, since: number): JournalEntry | undefined {
    return [...this.entries.values()]
      .reverse()
      .filter((e) => e.operation === operation && e.target === target && e.paramsHash === paramsHash && e.confirmHash === confirmHash && e.status === "completed" && e.createdAt >= since)
      .sort((a, b) => b.createdAt - a.createdAt)[0];
  }

  settle(intent: Pick<Intent, "operation" | "target" | "key">, status: Exclude<JournalStatus, "sending">, result: unknown, now = Date.now()): void {
    const existing = this.entries.get(MemoryJournal.id(intent));
    if (existing) this.entries.set(MemoryJournal.id(intent), { ...existing, status, result, updatedAt: now });
  }

  get(intent: Pick<Intent, "operation" | "target" | "key">): JournalEntry | undefined {
    return this.entries.get(MemoryJournal.id(intent));
  }

  close(): void {}
}

interface Row {
  operation: string;
  target: string;
  key: string;
  params_hash: string;
  confirm_hash: string | null;
  status: JournalStatus;
  result: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * Journal in a SQLite file, shared safely by several processes (WAL mode, busy timeout). The intent
 * row is committed before the request leaves, so it survives a crash mid-request.
 */
/** A journal path that cannot be used: the message names the path and the problem. */
export class JournalUnusableError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`Journal ${path}: ${problem}.`);
    this.name = "JournalUnusableError";
  }
}

/** Why a journal path cannot be opened, checked before SQLite sees it (its own messages name no path). */
function journalPathProblem(path: string): string | null {
  if (path === "") return "the path is empty";
  const folder = statSync(dirname(resolve(path)), { throwIfNoEntry: false });
  if (!folder) return `its folder ${dirname(resolve(path))} does not exist`;
  if (!folder.isDirectory()) return `${dirname(resolve(path))} is not a folder`;
  const file = statSync(path, { throwIfNoEntry: false });
  if (file && file.isDirectory()) return "it is a folder, not a file";
  if (file && !file.isFile()) return "it is not a regular file";
  return null;
}

export class SqliteJournal implements OperationJournal {
  private readonly db: Database.Database;

  /** @throws JournalUnusableError when the path is not a usable journal file (missing folder, a folder, not SQLite). */
  constructor(readonly path: string) {
    const problem = journalPathProblem(path);
    if (problem) throw new JournalUnusableError(path, problem);
    let db: Database.Database | undefined;
    try {
      db = new Database(path);
      this.db = db;
      this.init();
    } catch (e) {
      db?.close();
      const code = (e as { code?: string }).code;
      const problem =
        code === "SQLITE_NOTADB" ? "it is not a SQLite database"
        : code === "SQLITE_CANTOPEN" ? "it cannot be opened (check permissions)"
        : code === "SQLITE_READONLY" ? "it is read-only"
        : code === "SQLITE_CORRUPT" ? "the database is corrupt"
        : code === "NOT_A_JOURNAL" ? "it is a SQLite database but its operation_journal table is not a journal's"
        : `it cannot be used as a journal (${code ?? (e as Error).message})`;
      throw new JournalUnusableError(path, problem);
    }
  }

  private init(): void {
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(`CREATE TABLE IF NOT EXISTS operation_journal (
      target TEXT NOT NULL,
      operation TEXT NOT NULL,
      key TEXT NOT NULL,
      params_hash TEXT NOT NULL,
      status TEXT NOT NULL,
      result TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      PRIMARY KEY (target, operation, key)
    )`);
    // A SQLite file of something else: refuse it rather than write into it.
    const columns = (this.db.prepare("SELECT name FROM pragma_table_info('operation_journal')").all() as Array<{ name: string }>).map((c) => c.name);
    if (!["target", "operation", "key", "params_hash", "status", "result"].every((c) => columns.includes(c))) {
      throw Object.assign(new Error("not a journal"), { code: "NOT_A_JOURNAL" });
    }
    // Journals written before confirm tokens were recorded get the column (in a write transaction,
    // so two processes opening the same old file do not both add it).
    this.db
      .transaction(() => {
        const has = (this.db.prepare("SELECT name FROM pragma_table_info('operation_journal')").all() as Array<{ name: string }>).some((c) => c.name === "confirm_hash");
        if (!has) this.db.exec("ALTER TABLE operation_journal ADD COLUMN confirm_hash TEXT");
      })
      .immediate();
  }

  begin(intent: Intent, now = Date.now()): { entry: JournalEntry; created: boolean } {
    const run = this.db.transaction(() => {
      const inserted = this.db
        .prepare(
          `INSERT OR IGNORE INTO operation_journal (target, operation, key, params_hash, confirm_hash, status, result, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'sending', NULL, ?, ?)`,
        )
        .run(intent.target, intent.operation, intent.key, intent.paramsHash, intent.confirmHash ?? null, now, now);
      if (inserted.changes === 1) return { entry: this.get(intent)!, created: true };
      const rebound = this.db
        .prepare(
          `UPDATE operation_journal SET params_hash = ?, confirm_hash = ?, status = 'sending', result = NULL, created_at = ?, updated_at = ?
           WHERE target = ? AND operation = ? AND key = ? AND status = 'rejected'`,
        )
        .run(intent.paramsHash, intent.confirmHash ?? null, now, now, intent.target, intent.operation, intent.key);
      return { entry: this.get(intent)!, created: rebound.changes === 1 };
    });
    return run.immediate();
  }

  findUnfinished(operation: string, target: string, paramsHash: string): JournalEntry | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM operation_journal WHERE operation = ? AND target = ? AND params_hash = ? AND status IN ('sending', 'unknown')
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      )
      .get(operation, target, paramsHash) as Row | undefined;
    return row ? toEntry(row) : undefined;
  }

  findCompleted(operation: string, target: string, paramsHash: string, confirmHash: string, since: number): JournalEntry | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM operation_journal WHERE operation = ? AND target = ? AND params_hash = ? AND confirm_hash = ? AND status = 'completed' AND created_at >= ?
         ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      )
      .get(operation, target, paramsHash, confirmHash, since) as Row | undefined;
    return row ? toEntry(row) : undefined;
  }

  settle(intent: Pick<Intent, "operation" | "target" | "key">, status: Exclude<JournalStatus, "sending">, result: unknown, now = Date.now()): void {
    this.db
      .prepare(`UPDATE operation_journal SET status = ?, result = ?, updated_at = ? WHERE target = ? AND operation = ? AND key = ?`)
      .run(status, JSON.stringify(result ?? null), now, intent.target, intent.operation, intent.key);
  }

  get(intent: Pick<Intent, "operation" | "target" | "key">): JournalEntry | undefined {
    const row = this.db
      .prepare(`SELECT * FROM operation_journal WHERE target = ? AND operation = ? AND key = ?`)
      .get(intent.target, intent.operation, intent.key) as Row | undefined;
    return row ? toEntry(row) : undefined;
  }

  close(): void {
    this.db.close();
  }
}

function toEntry(row: Row): JournalEntry {
  return journalEntry(row, row.result === null ? null : (JSON.parse(row.result) as unknown));
}

/** A stored row as an entry, its result already decoded (every store names its columns alike). */
export function journalEntry(
  row: { operation: string; target: string; key: string; params_hash: string; confirm_hash: string | null; status: JournalStatus; created_at: number | string; updated_at: number | string },
  result: unknown,
): JournalEntry {
  return {
    operation: row.operation,
    target: row.target,
    key: row.key,
    paramsHash: row.params_hash,
    confirmHash: row.confirm_hash ?? null,
    status: row.status,
    result,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
