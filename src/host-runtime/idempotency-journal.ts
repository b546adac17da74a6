/**
 * The idempotency journal (docs/wire-protocol.md, "Idempotency"): per operation, scope and key, the
 * hash of the parameters and, once the first execution finished, its response.
 */
import type { SeededDefect } from "./seeded-defects.js";
import type { Database } from "./sqlite.js";

export interface JournalKey {
  readonly operation: string;
  /** Whose key space the key lives in: a caller id, a tenant id, or "" for global keys. */
  readonly scope: string;
  readonly key: string;
}

export type Claim =
  /** The key is now reserved for this request: execute, then complete() or release(). */
  | { readonly kind: "claimed" }
  /** The key's first execution finished: answer with its response. */
  | { readonly kind: "replay"; readonly status: number; readonly body: string }
  /** The key was used with other parameters. */
  | { readonly kind: "mismatch" }
  /** Another request holding the key with these parameters is still executing. */
  | { readonly kind: "in_progress" };

interface JournalRow {
  params_hash: string;
  state: "in_progress" | "done";
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

export class IdempotencyJournal {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
  ) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS idempotency_journal (
        operation       TEXT    NOT NULL,
        scope           TEXT    NOT NULL,
        key             TEXT    NOT NULL,
        params_hash     TEXT    NOT NULL,
        state           TEXT    NOT NULL CHECK (state IN ('in_progress', 'done')),
        response_status INTEGER,
        response_body   TEXT,
        created_at      INTEGER NOT NULL,
        PRIMARY KEY (operation, scope, key)
      )`);
  }

  /**
   * Reserve the key, or say why not. Entries older than `retentionMs` are forgotten first.
   * `defect` is only ever set on a reference platform seeded with one (seeded-defects.ts).
   */
  claim(ref: JournalKey, paramsHash: string, retentionMs: number, defect: SeededDefect | null = null): Claim {
    return this.db.transaction((): Claim => {
      const now = this.now().getTime();
      const where = "operation = ? AND scope = ? AND key = ?";
      const args = [ref.operation, ref.scope, ref.key];
      let row = this.db.prepare(`SELECT * FROM idempotency_journal WHERE ${where}`).get(...args) as JournalRow | undefined;
      if (row && (row.created_at + retentionMs <= now || defect === "ignores-operation-key")) {
        this.db.prepare(`DELETE FROM idempotency_journal WHERE ${where}`).run(...args);
        row = undefined;
      }
      if (!row) {
        this.db
          .prepare("INSERT INTO idempotency_journal (operation, scope, key, params_hash, state, created_at) VALUES (?, ?, ?, ?, 'in_progress', ?)")
          .run(...args, paramsHash, now);
        return { kind: "claimed" };
      }
      if (row.params_hash !== paramsHash && defect !== "replays-changed-parameters") return { kind: "mismatch" };
      if (row.state === "in_progress") return { kind: "in_progress" };
      return { kind: "replay", status: row.response_status ?? 200, body: row.response_body ?? "" };
    })();
  }

  /** Record the response of the execution; call inside the transaction that made the change. */
  complete(ref: JournalKey, status: number, body: string): void {
    this.db
      .prepare("UPDATE idempotency_journal SET state = 'done', response_status = ?, response_body = ? WHERE operation = ? AND scope = ? AND key = ?")
      .run(status, body, ref.operation, ref.scope, ref.key);
  }

  /** Give the key back after a failed execution: nothing happened, so a retry may execute. */
  release(ref: JournalKey): void {
    this.db
      .prepare("DELETE FROM idempotency_journal WHERE operation = ? AND scope = ? AND key = ? AND state = 'in_progress'")
      .run(ref.operation, ref.scope, ref.key);
  }
}
