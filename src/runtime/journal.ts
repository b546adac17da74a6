/**
 * The operation journal: an intent (operation, target, key, parameter hash) is written *before* the
 * first submission and its outcome after, so that a second process — after a crash or a lost
 * response — recovers the same intent instead of creating a second effect.
 *
 * Every call goes through one atomic step, `claim`: finding the intent it repeats, taking it over or
 * waiting for the live call sending it, finding its recorded outcome, or recording a new intent happen
 * under one lock, so that any number of processes recovering one lost call at once send one key and
 * get one outcome. A claim is a lease: the sender renews it while it waits for the answer, and a
 * sender that died leaves a claim that expires, after which the intent is taken over.
 */
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
// Types only: better-sqlite3 is an optional package, loaded when a SQLite journal is opened.
import type Database from "better-sqlite3";
import { OptionalPackageError, requireOptional } from "./optional-package.js";

export type JournalStatus = "sending" | "completed" | "rejected" | "unknown";

/** Which recorded intent: its operation key is only meaningful per operation and platform. */
export interface IntentRef {
  readonly operation: string;
  /** Where it is sent (base URL): keys are only meaningful per platform. */
  readonly target: string;
  readonly key: string;
}

export interface Intent extends IntentRef {
  readonly paramsHash: string;
  /** sha256 of the confirm token the execution carried (a previewable operation), else null. */
  readonly confirmHash?: string | null;
}

export interface JournalEntry extends Intent {
  readonly status: JournalStatus;
  /** The recorded response body (completed) or error (rejected/unknown), as JSON. */
  readonly result: unknown;
  readonly createdAt: number;
  /** When the entry last changed hands or was settled (ms). */
  readonly updatedAt: number;
  /** The call sending the intent now (its claim), or null when nobody is. */
  readonly claimant: string | null;
  /** Until when (ms) the claimant's claim holds unless renewed; past it, the sender is presumed gone. */
  readonly leaseUntil: number | null;
  /** Whether the intent was taken over after its outcome was unknown (a lost response, a sender gone). */
  readonly recovered: boolean;
}

/** A value now (an embedded store) or later (a database across the network). */
export type Awaitable<T> = T | Promise<T>;

/** One call's request to send an intent, or to learn that it need not (OperationJournal.claim). */
export interface ClaimRequest {
  readonly operation: string;
  readonly target: string;
  readonly paramsHash: string;
  readonly confirmHash: string | null;
  /** The operation key the caller gave, or null: then the intent is found by its parameters. */
  readonly key: string | null;
  /** The key a new intent gets when no recorded one is the same. */
  readonly newKey: string;
  /** This call's own id: the claim it holds while sending. */
  readonly claimant: string;
  /** How long the claim holds without renewal (ms). */
  readonly leaseMs: number;
  /** Keyless: a completed intent under the same confirm token begun at or after this time (ms) is replayed; null: none is. */
  readonly replaySince: number | null;
  /** Keyless: a recovered intent settled at or after this time (ms) is this call's outcome too; null: none is. */
  readonly recoveredSince: number | null;
  /** Whether a recorded result can be returned as it is (it still matches the output schema); absent: any. */
  readonly usable?: (result: unknown) => boolean;
  /** Whether the call holding a claim is known to be gone before its lease runs out (claimantGone); absent: never. */
  readonly senderGone?: (claimant: string) => boolean;
}

/**
 * A new claim's id: the machine and process it comes from, and a unique part, so that another
 * process on the same machine can tell when the sender has died (claimantGone).
 */
export function newClaimant(): string {
  return `${hostname()}/${process.pid}/${randomUUID()}`;
}

/**
 * Whether the call holding `claimant` is certainly gone: it ran on this machine, in another process,
 * and no process has that id now (a killed CLI run, a crashed server). Then its intent is taken over at
 * once instead of when its lease runs out. Misjudging costs at most a second send of the same key.
 */
export function claimantGone(claimant: string): boolean {
  const [host, pid] = claimant.split("/");
  if (host !== hostname() || pid === undefined || !/^\d{1,10}$/.test(pid) || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    // EPERM: a process of another user has that id; it may be the sender.
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * What a call does with an intent, decided in one atomic step of the journal:
 * - `send`: the call holds the claim on `entry.key`; it sends, renews the claim while it waits for the
 *   answer, and settles the outcome;
 * - `recorded`: the outcome is recorded (an earlier call, or a concurrent recovery, settled it): use it;
 * - `wait`: another live call is sending this intent: wait for its outcome, then claim again by key;
 * - `mismatch`: the caller's key was used with other parameters.
 */
export type Claim = Outcome<"send" | "recorded" | "wait" | "mismatch">;

/** One `{ kind, entry }` member per kind, so that checking `kind` narrows. */
type Outcome<Kind extends string> = Kind extends string ? { readonly kind: Kind; readonly entry: JournalEntry } : never;

/**
 * Where keyed intents and their outcomes are recorded. Embedded stores (memory, SQLite) answer at
 * once; a shared database (PostgreSQL, journal-postgres.ts) answers with promises: callers await.
 */
export interface OperationJournal {
  /**
   * In one atomic step (one lock or transaction): take over the unfinished intent this call repeats,
   * or learn that a live call is sending it, or find its recorded outcome, or record a new intent.
   * Decided by decideClaim, the same for every store.
   */
  claim(request: ClaimRequest, now?: number): Awaitable<Claim>;
  /** Extend the claimant's lease while it still holds the claim; false when it no longer does. */
  renew(ref: IntentRef, claimant: string, leaseUntil: number): Awaitable<boolean>;
  /** Record how the claimant's attempt ended (ignored when another call has taken the claim over). */
  settle(ref: IntentRef, claimant: string, status: Exclude<JournalStatus, "sending">, result: unknown, now?: number): Awaitable<void>;
  get(ref: IntentRef): Awaitable<JournalEntry | undefined>;
  close(): void;
}

/** The entries a claim is decided on, read by the store under its lock. */
export interface ClaimRows {
  /** The caller's key's entry (a request with a key). */
  readonly byKey?: JournalEntry | undefined;
  /** Keyless: the newest unfinished (sending or unknown) entry with the same operation, target and parameters. */
  readonly unfinished?: JournalEntry | undefined;
  /** Keyless: the newest completed entry with the same parameters and confirm token, begun since `replaySince`. */
  readonly replay?: JournalEntry | undefined;
  /** Keyless: the newest recovered, settled entry with the same parameters and confirm token, settled since `recoveredSince`. */
  readonly recovered?: JournalEntry | undefined;
}

/** How a claim ends: an answer read from the rows, or an entry the store writes (then the call sends it). */
export type ClaimDecision = Outcome<"recorded" | "wait" | "mismatch" | "insert" | "update">;

/**
 * The one rule of every store: what a claim does, given the rows the store read under its lock.
 * - With the caller's key: a new key is recorded; a key whose last attempt was rejected (nothing
 *   executed) is bound again to these parameters; a key of other parameters is a mismatch; a completed
 *   one is recorded; an unfinished one is taken over unless a live call is sending it.
 * - Without one, the call repeats an unfinished intent of the same parameters (a re-run after a lost
 *   response: taken over, or waited for while a live call sends it); else a completed one under the
 *   same confirm token (a spent token's one execution); else one under the same confirm token whose
 *   unknown outcome was recovered within the recovery window (it was lost for every call made before
 *   it was known; a new preview's token is a new decision); else it is new.
 */
export function decideClaim(request: ClaimRequest, rows: ClaimRows, now: number): ClaimDecision {
  const usable = (entry: JournalEntry) => request.usable?.(entry.result) ?? true;
  const held = { status: "sending" as const, result: null, claimant: request.claimant, leaseUntil: now + request.leaseMs, updatedAt: now };
  const takeOver = (entry: JournalEntry, recovered: boolean): ClaimDecision => ({ kind: "update", entry: { ...entry, ...held, recovered: entry.recovered || recovered } });
  const unfinished = (entry: JournalEntry): ClaimDecision => {
    const live = entry.status === "sending" && entry.claimant !== null && entry.claimant !== request.claimant && (entry.leaseUntil ?? 0) > now && !request.senderGone?.(entry.claimant);
    return live ? { kind: "wait", entry } : takeOver(entry, true);
  };
  const fresh = (key: string): ClaimDecision => ({
    kind: "insert",
    entry: { operation: request.operation, target: request.target, key, paramsHash: request.paramsHash, confirmHash: request.confirmHash, createdAt: now, recovered: false, ...held },
  });
  if (request.key !== null) {
    const entry = rows.byKey;
    if (!entry) return fresh(request.key);
    if (entry.status === "rejected") return { kind: "update", entry: { ...entry, ...held, paramsHash: request.paramsHash, confirmHash: request.confirmHash, createdAt: now, recovered: false } };
    if (entry.paramsHash !== request.paramsHash) return { kind: "mismatch", entry };
    if (entry.status === "completed") return usable(entry) ? { kind: "recorded", entry } : takeOver(entry, false);
    return unfinished(entry);
  }
  if (rows.unfinished) return unfinished(rows.unfinished);
  if (rows.replay && usable(rows.replay)) return { kind: "recorded", entry: rows.replay };
  if (rows.recovered && (rows.recovered.status !== "completed" || usable(rows.recovered))) return { kind: "recorded", entry: rows.recovered };
  return fresh(request.newKey);
}

/** Whether an entry settled by a recovery is the outcome of a keyless call with these parameters. */
function recoveredFor(e: JournalEntry, request: ClaimRequest): boolean {
  return request.recoveredSince !== null && e.recovered && (e.status === "completed" || e.status === "rejected") && e.updatedAt >= request.recoveredSince && (e.confirmHash ?? null) === request.confirmHash;
}

/** In-process journal: survives retries, not the process. JavaScript runs one claim at a time, so each is atomic. */
export class MemoryJournal implements OperationJournal {
  private readonly entries = new Map<string, JournalEntry>();

  private static id(i: IntentRef): string {
    return JSON.stringify([i.target, i.operation, i.key]);
  }

  claim(request: ClaimRequest, now = Date.now()): Claim {
    const rows: ClaimRows =
      request.key !== null
        ? { byKey: this.entries.get(MemoryJournal.id({ ...request, key: request.key })) }
        : {
            unfinished: this.newest(request, (e) => e.status === "sending" || e.status === "unknown"),
            replay: this.newest(request, (e) => request.replaySince !== null && e.status === "completed" && e.confirmHash === request.confirmHash && e.createdAt >= request.replaySince),
            recovered: this.newest(request, (e) => recoveredFor(e, request), (e) => e.updatedAt),
          };
    const decision = decideClaim(request, rows, now);
    if (decision.kind !== "insert" && decision.kind !== "update") return decision;
    const id = MemoryJournal.id(decision.entry);
    // A new or re-bound intent moves to the end: the map's order is the order intents began (newest last).
    if (this.entries.get(id)?.createdAt !== decision.entry.createdAt) this.entries.delete(id);
    this.entries.set(id, decision.entry);
    return { kind: "send", entry: decision.entry };
  }

  /** The newest entry of the request's operation, target and parameters that `matches` (by `time`, then the one recorded last). */
  private newest(request: ClaimRequest, matches: (e: JournalEntry) => boolean, time = (e: JournalEntry) => e.createdAt): JournalEntry | undefined {
    let found: JournalEntry | undefined;
    for (const e of this.entries.values()) {
      if (e.operation !== request.operation || e.target !== request.target || e.paramsHash !== request.paramsHash || !matches(e)) continue;
      if (!found || time(e) >= time(found)) found = e;
    }
    return found;
  }

  renew(ref: IntentRef, claimant: string, leaseUntil: number): boolean {
    const entry = this.entries.get(MemoryJournal.id(ref));
    if (!entry || entry.claimant !== claimant || entry.status !== "sending") return false;
    this.entries.set(MemoryJournal.id(ref), { ...entry, leaseUntil });
    return true;
  }

  settle(ref: IntentRef, claimant: string, status: Exclude<JournalStatus, "sending">, result: unknown, now = Date.now()): void {
    const entry = this.entries.get(MemoryJournal.id(ref));
    if (entry && entry.claimant === claimant) this.entries.set(MemoryJournal.id(ref), { ...entry, status, result, claimant: null, leaseUntil: null, updatedAt: now });
  }

  get(ref: IntentRef): JournalEntry | undefined {
    return this.entries.get(MemoryJournal.id(ref));
  }

  close(): void {}
}

/** A journal row as every store names its columns; stores differ in how results and times come back. */
export interface StoredJournalRow<Result, Time> {
  operation: string;
  target: string;
  key: string;
  params_hash: string;
  confirm_hash: string | null;
  status: JournalStatus;
  result: Result;
  created_at: Time;
  updated_at: Time;
  claimant: string | null;
  lease_until: Time | null;
  recovered: number | boolean;
}

/** SQLite's: the result as JSON text, times as integers. */
type Row = StoredJournalRow<string | null, number>;

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

/**
 * Journal in a SQLite file, shared safely by several processes (WAL mode, busy timeout; each claim a
 * BEGIN IMMEDIATE transaction). The intent row is committed before the request leaves, so it survives
 * a crash mid-request.
 */
export class SqliteJournal implements OperationJournal {
  private readonly db: Database.Database;

  /** @throws JournalUnusableError when the path is not a usable journal file (missing folder, a folder, not SQLite). */
  constructor(readonly path: string) {
    const problem = journalPathProblem(path);
    if (problem) throw new JournalUnusableError(path, problem);
    let BetterSqlite3: typeof Database;
    try {
      BetterSqlite3 = requireOptional<typeof Database>("better-sqlite3", "The SQLite journal");
    } catch (e) {
      // "The SQLite journal needs the package better-sqlite3, which is not installed: npm install …"
      if (e instanceof OptionalPackageError) throw new JournalUnusableError(path, e.message);
      throw e;
    }
    let db: Database.Database | undefined;
    try {
      db = new BetterSqlite3(path);
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
    const columnsNow = () => (this.db.prepare("SELECT name FROM pragma_table_info('operation_journal')").all() as Array<{ name: string }>).map((c) => c.name);
    if (!["target", "operation", "key", "params_hash", "status", "result"].every((c) => columnsNow().includes(c))) {
      throw Object.assign(new Error("not a journal"), { code: "NOT_A_JOURNAL" });
    }
    // Journals written by earlier runtimes get the columns added since (in a write transaction, so two
    // processes opening the same old file do not both add them): the confirm token's hash, and each
    // intent's claim (who is sending it, until when) and whether it was recovered.
    this.db
      .transaction(() => {
        const columns = columnsNow();
        for (const [name, type] of JOURNAL_COLUMNS_ADDED) if (!columns.includes(name)) this.db.exec(`ALTER TABLE operation_journal ADD COLUMN ${name} ${type}`);
        // Claims look intents up by their parameters.
        this.db.exec("CREATE INDEX IF NOT EXISTS operation_journal_intent ON operation_journal (operation, target, params_hash)");
      })
      .immediate();
  }

  claim(request: ClaimRequest, now = Date.now()): Claim {
    // BEGIN IMMEDIATE: the file's write lock from the first read, so that no other process (or
    // connection) reads the same rows and decides alongside this one.
    return this.db.transaction((): Claim => {
      const rows: ClaimRows = request.key !== null ? { byKey: this.get({ ...request, key: request.key }) } : this.rowsOfIntent(request);
      const decision = decideClaim(request, rows, now);
      if (decision.kind === "insert") {
        const e = decision.entry;
        this.db
          .prepare(
            `INSERT INTO operation_journal (target, operation, key, params_hash, confirm_hash, status, result, created_at, updated_at, claimant, lease_until, recovered)
             VALUES (?, ?, ?, ?, ?, 'sending', NULL, ?, ?, ?, ?, 0)`,
          )
          .run(e.target, e.operation, e.key, e.paramsHash, e.confirmHash ?? null, e.createdAt, e.updatedAt, e.claimant, e.leaseUntil);
      } else if (decision.kind === "update") {
        const e = decision.entry;
        this.db
          .prepare(
            `UPDATE operation_journal SET params_hash = ?, confirm_hash = ?, status = 'sending', result = NULL, created_at = ?, updated_at = ?, claimant = ?, lease_until = ?, recovered = ?
             WHERE target = ? AND operation = ? AND key = ?`,
          )
          .run(e.paramsHash, e.confirmHash ?? null, e.createdAt, e.updatedAt, e.claimant, e.leaseUntil, e.recovered ? 1 : 0, e.target, e.operation, e.key);
      } else return decision;
      return { kind: "send", entry: decision.entry };
    }).immediate();
  }

  /** The rows a keyless claim is decided on. */
  private rowsOfIntent(request: ClaimRequest): ClaimRows {
    const intent = "operation = ? AND target = ? AND params_hash = ?";
    const args = [request.operation, request.target, request.paramsHash];
    const one = (where: string, order: string, ...more: unknown[]) => {
      const row = this.db.prepare(`SELECT * FROM operation_journal WHERE ${intent} AND ${where} ORDER BY ${order}, rowid DESC LIMIT 1`).get(...args, ...more) as Row | undefined;
      return row ? toEntry(row) : undefined;
    };
    return {
      unfinished: one("status IN ('sending', 'unknown')", "created_at DESC"),
      replay: request.replaySince === null || request.confirmHash === null ? undefined : one("confirm_hash = ? AND status = 'completed' AND created_at >= ?", "created_at DESC", request.confirmHash, request.replaySince),
      recovered: request.recoveredSince === null ? undefined : one("recovered = 1 AND status IN ('completed', 'rejected') AND updated_at >= ? AND confirm_hash IS ?", "updated_at DESC", request.recoveredSince, request.confirmHash),
    };
  }

  renew(ref: IntentRef, claimant: string, leaseUntil: number): boolean {
    return (
      this.db
        .prepare(`UPDATE operation_journal SET lease_until = ? WHERE target = ? AND operation = ? AND key = ? AND claimant = ? AND status = 'sending'`)
        .run(leaseUntil, ref.target, ref.operation, ref.key, claimant).changes === 1
    );
  }

  settle(ref: IntentRef, claimant: string, status: Exclude<JournalStatus, "sending">, result: unknown, now = Date.now()): void {
    this.db
      .prepare(`UPDATE operation_journal SET status = ?, result = ?, updated_at = ?, claimant = NULL, lease_until = NULL WHERE target = ? AND operation = ? AND key = ? AND claimant = ?`)
      .run(status, JSON.stringify(result ?? null), now, ref.target, ref.operation, ref.key, claimant);
  }

  get(ref: IntentRef): JournalEntry | undefined {
    const row = this.db.prepare(`SELECT * FROM operation_journal WHERE target = ? AND operation = ? AND key = ?`).get(ref.target, ref.operation, ref.key) as Row | undefined;
    return row ? toEntry(row) : undefined;
  }

  close(): void {
    this.db.close();
  }
}

/** Columns added to the journal table after its first version, with their SQLite types. */
const JOURNAL_COLUMNS_ADDED: ReadonlyArray<readonly [string, string]> = [
  ["confirm_hash", "TEXT"],
  ["claimant", "TEXT"],
  ["lease_until", "INTEGER"],
  ["recovered", "INTEGER NOT NULL DEFAULT 0"],
];

function toEntry(row: Row): JournalEntry {
  return journalEntry(row, row.result === null ? null : (JSON.parse(row.result) as unknown));
}

/** A stored row as an entry, its result already decoded (every store names its columns alike). */
export function journalEntry(
  row: Omit<StoredJournalRow<unknown, number | string>, "result">,
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
    claimant: row.claimant ?? null,
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
    recovered: row.recovered === true || row.recovered === 1,
  };
}
