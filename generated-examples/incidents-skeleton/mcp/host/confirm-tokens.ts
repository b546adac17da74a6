/**
 * Confirm tokens of previewable operations (docs/wire-protocol.md, "Preview and confirm"): issued by
 * a preview, bound to the operation, the caller and the hash of the parameters, valid until they
 * expire, and consumed by the one execution they authorise. The stores keep them; whether a token
 * authorises an execution is decided here, once for both.
 */
import { randomBytes } from "node:crypto";
import type { SeededDefect } from "./seeded-defects.js";

export interface Confirmation {
  readonly token: string;
  /** RFC 3339, UTC. */
  readonly expiresAt: string;
}

/** Why a token did not authorise an execution. */
export type TokenRefusal = "missing" | "unknown" | "other_parameters" | "expired" | "used";

/** A stored token as both stores read it (times in epoch milliseconds; PostgreSQL BIGINT comes as text). */
export interface TokenRow {
  readonly operation: string;
  readonly caller: string;
  readonly params_hash: string;
  readonly expires_at: number | string;
  readonly used_at: number | string | null;
}

/** What a redemption asks for. */
export interface Redemption {
  readonly token: unknown;
  readonly operation: string;
  readonly caller: string;
  readonly paramsHash: string;
  /** `preview.singleUse`: the token authorises only its first execution. */
  readonly singleUse: boolean;
  /** Only ever set on a reference platform seeded with one (seeded-defects.ts). */
  readonly defect: SeededDefect | null;
}

/** How long spent and expired tokens are kept to tell "expired"/"used" from "unknown". */
export const KEEP_AFTER_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** A new token, not yet valid: the store keeps it once the preview succeeded. */
export function newConfirmation(now: number, ttlMs: number): Confirmation {
  return { token: `ct_${randomBytes(24).toString("base64url")}`, expiresAt: new Date(now + ttlMs).toISOString() };
}

/** Whether the token can be used without a row (it cannot, unless a seeded defect says so). */
export function tokenGiven(r: Redemption): TokenRefusal | "given" | "skip" {
  if (typeof r.token === "string" && r.token !== "") return "given";
  return r.defect === "executes-without-confirm-token" ? "skip" : "missing";
}

/** Why `row` does not authorise the redemption at `now`, or null (then the store marks it used). */
export function tokenRefusal(row: TokenRow | undefined, r: Redemption, now: number): TokenRefusal | null {
  if (!row || row.operation !== r.operation || row.caller !== r.caller) return "unknown";
  if (row.params_hash !== r.paramsHash) return "other_parameters";
  if (row.used_at !== null && r.singleUse && r.defect !== "reuses-single-use-token") return "used";
  if (Number(row.expires_at) <= now && r.defect !== "accepts-expired-token") return "expired";
  return null;
}
