/**
 * The idempotency journal (docs/wire-protocol.md, "Idempotency"): per operation, scope and key, the
 * hash of the parameters and, once the first execution finished, its response. The stores
 * (store-sqlite.ts, store-postgres.ts) keep the rows; what a row means for a new request is decided
 * here, once for both.
 */
import type { SeededDefect } from "./seeded-defects.js";

export interface JournalKey {
  readonly operation: string;
  /** Whose key space the key lives in: a caller id, a tenant id, or "" for global keys. */
  readonly scope: string;
  readonly key: string;
}

/** Why a key cannot be claimed by a new request (store.ts adds the claimed case, with its lease). */
export type KeyRefusal =
  /** The key's first execution finished: answer with its response. */
  | { readonly kind: "replay"; readonly status: number; readonly body: string }
  /** The key was used with other parameters. */
  | { readonly kind: "mismatch" }
  /** Another request holding the key with these parameters is still executing. */
  | { readonly kind: "in_progress" };

/** A journal row as both stores read it. */
export interface JournalRow {
  readonly params_hash: string;
  readonly state: "in_progress" | "done";
  readonly response_status: number | null;
  readonly response_body: string | null;
  /** Epoch milliseconds (PostgreSQL returns BIGINT as text). */
  readonly created_at: number | string;
}

/** How long the seeded defect forgets-keys-early keeps a key, whatever the contract declares. */
const FORGETFUL_RETENTION_MS = 60 * 60_000;

/**
 * What an existing row means for a request with `paramsHash`: "expired" (forget it and claim the key),
 * or the answer. `defect` is only ever set on a reference platform seeded with one (seeded-defects.ts).
 */
export function existingClaim(row: JournalRow, paramsHash: string, retentionMs: number, now: number, defect: SeededDefect | null): KeyRefusal | "expired" {
  const kept = defect === "forgets-keys-early" ? Math.min(retentionMs, FORGETFUL_RETENTION_MS) : retentionMs;
  if (Number(row.created_at) + kept <= now || defect === "ignores-operation-key") return "expired";
  if (row.params_hash !== paramsHash && defect !== "replays-changed-parameters") return { kind: "mismatch" };
  if (row.state === "in_progress") return { kind: "in_progress" };
  return { kind: "replay", status: row.response_status ?? 200, body: row.response_body ?? "" };
}
