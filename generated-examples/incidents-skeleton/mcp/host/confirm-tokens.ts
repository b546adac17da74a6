/**
 * Confirm tokens of previewable operations (docs/wire-protocol.md, "Preview and confirm"): issued by
 * a preview, bound to the operation, the caller and the hash of the parameters, valid until they
 * expire, and consumed by the one execution they authorise.
 */
import { randomBytes } from "node:crypto";
import type { SeededDefect } from "./seeded-defects.js";
import type { Database } from "./sqlite.js";

export interface Confirmation {
  readonly token: string;
  /** RFC 3339, UTC. */
  readonly expiresAt: string;
}

/** Why a token did not authorise an execution. */
export type TokenRefusal = "missing" | "unknown" | "other_parameters" | "expired" | "used";

interface TokenRow {
  operation: string;
  caller: string;
  params_hash: string;
  expires_at: number;
  used_at: number | null;
}

/** How long spent and expired tokens are kept to tell "expired"/"used" from "unknown". */
const KEEP_AFTER_EXPIRY_MS = 24 * 60 * 60 * 1000;

export class ConfirmTokens {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
  ) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS confirm_tokens (
        token       TEXT    PRIMARY KEY,
        operation   TEXT    NOT NULL,
        caller      TEXT    NOT NULL,
        params_hash TEXT    NOT NULL,
        expires_at  INTEGER NOT NULL,
        used_at     INTEGER
      )`);
  }

  /** A new token, not yet valid: store() it once the preview succeeded. */
  prepare(ttlMs: number): Confirmation {
    return {
      token: `ct_${randomBytes(24).toString("base64url")}`,
      expiresAt: new Date(this.now().getTime() + ttlMs).toISOString(),
    };
  }

  store(confirmation: Confirmation, operation: string, caller: string, paramsHash: string): void {
    const now = this.now().getTime();
    this.db.prepare("DELETE FROM confirm_tokens WHERE expires_at < ?").run(now - KEEP_AFTER_EXPIRY_MS);
    this.db
      .prepare("INSERT INTO confirm_tokens (token, operation, caller, params_hash, expires_at) VALUES (?, ?, ?, ?, ?)")
      .run(confirmation.token, operation, caller, paramsHash, Date.parse(confirmation.expiresAt));
  }

  /**
   * Redeem `token` for an execution of `operation` with these parameters, or say why it cannot be;
   * a `singleUse` token (`preview.singleUse`) authorises only its first execution.
   * Call inside the execution's transaction, so a failed execution leaves the token unused.
   * `defect` is only ever set on a reference platform seeded with one (seeded-defects.ts).
   */
  redeem(token: unknown, operation: string, caller: string, paramsHash: string, singleUse: boolean, defect: SeededDefect | null = null): TokenRefusal | null {
    if (typeof token !== "string" || token === "") return defect === "executes-without-confirm-token" ? null : "missing";
    const row = this.db.prepare("SELECT * FROM confirm_tokens WHERE token = ?").get(token) as TokenRow | undefined;
    if (!row || row.operation !== operation || row.caller !== caller) return "unknown";
    if (row.params_hash !== paramsHash) return "other_parameters";
    if (row.used_at !== null && singleUse && defect !== "reuses-single-use-token") return "used";
    const now = this.now().getTime();
    if (row.expires_at <= now && defect !== "accepts-expired-token") return "expired";
    if (row.used_at === null) this.db.prepare("UPDATE confirm_tokens SET used_at = ? WHERE token = ?").run(now, token);
    return null;
  }
}
