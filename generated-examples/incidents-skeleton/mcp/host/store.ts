/**
 * Where the contract host keeps its own records: the idempotency journal, confirm tokens and the
 * cursor secret. Two stores implement it with the same semantics:
 * - SQLite (store-sqlite.ts), the embedded default: one process, or several sharing one file;
 * - PostgreSQL (store-postgres.ts), for replicas behind a load balancer.
 * A mutation runs in one store transaction together with the token it redeems and the response it
 * records, so a failure (or a killed process) leaves neither the change nor the record. Handlers
 * reach the same transaction through `ctx.db` (SQLite) or `ctx.sql` (PostgreSQL), and may be async.
 */
import { isPostgresUrl, type PgQueryable } from "../../sdk/runtime/postgres.js";
import type { Confirmation, Redemption, TokenRefusal } from "./confirm-tokens.js";
import type { JournalKey, KeyRefusal } from "./idempotency-journal.js";
import type { SeededDefect } from "./seeded-defects.js";
import { type Database, openDatabase } from "./sqlite.js";
import { PostgresHostStore } from "./store-postgres.js";
import { SqliteHostStore } from "./store-sqlite.js";

/** A PostgreSQL session: the pool for reads, the transaction's connection inside a mutation. */
export type SqlClient = PgQueryable;

/** What a handler reaches of the store: exactly one of the two is set. */
export interface StoreAccess {
  readonly db: Database | null;
  readonly sql: SqlClient | null;
}

/**
 * The store lost its connection while committing an execution: it may have taken effect, with its
 * recorded answer, or not at all. The host answers with an unknown outcome, never "nothing changed".
 */
export class CommitUnconfirmedError extends Error {
  constructor(cause: unknown) {
    super("The database connection was lost while the execution was being committed.", { cause });
    this.name = "CommitUnconfirmedError";
  }
}

/** One open transaction of the store. */
export interface StoreTransaction extends StoreAccess {
  /** Redeem a confirm token inside the execution's transaction (a rollback leaves it unused). */
  redeemToken(redemption: Redemption, now: number): Promise<TokenRefusal | null>;
}

/**
 * The key reserved for one execution: run it, or give the key back. One of the two must follow: on
 * SQLite the lease holds the database's queue until it ends.
 */
export interface KeyLease {
  /**
   * Run `execute` in one transaction that also records its response under the key; the lease
   * ends when it commits. On a throw the transaction is rolled back and the lease stays: release() it
   * (SQLite's claim was part of that transaction, so its lease ended with it and release() does nothing).
   */
  execute(status: number, execute: (tx: StoreTransaction) => Promise<string>): Promise<string>;
  /** Give the key back after a failed execution (nothing happened, so a retry may execute); ends the lease. */
  release(): Promise<void>;
}

export type KeyClaim = KeyRefusal | { readonly kind: "claimed"; readonly lease: KeyLease };

export interface HostStore {
  /** "sqlite" or "postgres", for messages. */
  readonly kind: string;
  /** The secret cursors are signed with, created on first use and shared by every process on the store. */
  cursorSecret(): Promise<Buffer>;
  /**
   * Reserve the key for an execution with these parameters, or say why not. Entries older than
   * `retentionMs` are forgotten first (an execution still running keeps its key past them). A key
   * whose holder died mid-execution is free again: PostgreSQL sees the holder's connection is gone;
   * SQLite's claim is part of the execution's transaction, so it dies with it. That is also why, on
   * SQLite, a claim of a key held on the same database waits for the lease to end (another process
   * holding the file's write lock: "in progress").
   */
  claimKey(ref: JournalKey, paramsHash: string, retentionMs: number, now: number, defect: SeededDefect | null): Promise<KeyClaim>;
  /** Run a mutation without a key in one transaction. */
  transaction(execute: (tx: StoreTransaction) => Promise<string>): Promise<string>;
  /** Run a read (outside any transaction of this request). */
  read<T>(run: (access: StoreAccess) => Promise<T>): Promise<T>;
  /** Keep a confirm token issued by a successful preview. */
  storeToken(confirmation: Confirmation, operation: string, caller: string, paramsHash: string, now: number): Promise<void>;
  /** Release connections; the store's data stays. */
  close(): Promise<void>;
}

/**
 * The store a database setting names: a postgres:// URL (replicas share it), a SQLite file path or
 * ":memory:", an open SQLite database, or a store. `close` lets go of what was opened here (a
 * database or store given open stays open).
 */
export function openHostStore(database: string | Database | HostStore): { store: HostStore; db: Database | null; close(): Promise<void> } {
  if (typeof database === "object" && "claimKey" in database) return { store: database, db: null, close: async () => undefined };
  if (typeof database === "string" && isPostgresUrl(database)) {
    const store = new PostgresHostStore(database);
    return { store, db: null, close: () => store.close() };
  }
  const owned = typeof database === "string";
  const db = typeof database === "string" ? openDatabase(database) : database;
  const store = new SqliteHostStore(db);
  return {
    store,
    db,
    close: async () => {
      await store.close();
      if (owned && db.open) db.close();
    },
  };
}
