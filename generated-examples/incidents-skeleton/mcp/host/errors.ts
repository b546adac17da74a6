import type { ErrorClass, HostContract, HostOperation } from "./contract.js";

export interface PlatformErrorOptions {
  /** The input field at fault (dotted path for nested fields), when one is. */
  readonly field?: string | null;
  /** Machine-readable facts that help the caller recover (e.g. the refundable balance). */
  readonly details?: Readonly<Record<string, unknown>> | null;
  /** Sent as Retry-After (rate limiting, unavailability). */
  readonly retryAfterSeconds?: number | null;
}

/**
 * Marks PlatformErrors of every copy of this runtime: each generated package carries its own copy,
 * and a team's shared domain code may throw one package's PlatformError into another's host.
 */
const PLATFORM_ERROR = Symbol.for("contractgen.PlatformError");
const NOT_IMPLEMENTED = Symbol.for("contractgen.NotImplementedError");

/**
 * A failure a handler (or the host) reports with a code from the contract's error taxonomy. The host
 * turns it into the wire envelope; the HTTP status comes from the taxonomy, never from the handler.
 * `instanceof` recognises one thrown by any copy of the runtime (a brand, not the class's identity).
 */
export class PlatformError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (value === null || typeof value !== "object") return false;
    const brand = this === PlatformError ? PLATFORM_ERROR : this === NotImplementedError ? NOT_IMPLEMENTED : null;
    return brand !== null ? (value as Record<symbol, unknown>)[brand] === true : Function.prototype[Symbol.hasInstance].call(this, value);
  }

  override readonly name: string = "PlatformError";
  readonly [PLATFORM_ERROR] = true;
  readonly field: string | null;
  readonly details: Readonly<Record<string, unknown>> | null;
  readonly retryAfterSeconds: number | null;

  constructor(
    readonly code: string,
    message: string,
    options: PlatformErrorOptions = {},
  ) {
    super(message);
    this.field = options.field ?? null;
    this.details = options.details ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
  }
}

/**
 * What a handler that was generated but not filled in yet throws: the host answers with the
 * NOT_IMPLEMENTED code (class internal), whatever codes the operation lists. Nothing was executed.
 */
export class NotImplementedError extends PlatformError {
  readonly [NOT_IMPLEMENTED] = true;

  constructor(operation: string) {
    super("NOT_IMPLEMENTED", `${operation} is not implemented yet: its handler is a generated stub; nothing was executed.`);
  }
}

/**
 * Codes the host answers with when the contract has no code of the needed class (and for failures
 * outside any operation, such as an unknown route). A contract's own code always wins.
 */
export const FALLBACK_ERRORS: Readonly<Record<string, { readonly class: ErrorClass; readonly httpStatus: number }>> = {
  INVALID_INPUT: { class: "invalid_input", httpStatus: 400 },
  UNAUTHENTICATED: { class: "unauthenticated", httpStatus: 401 },
  FORBIDDEN: { class: "permission", httpStatus: 403 },
  ROUTE_NOT_FOUND: { class: "not_found", httpStatus: 404 },
  METHOD_NOT_ALLOWED: { class: "invalid_input", httpStatus: 405 },
  PAYLOAD_TOO_LARGE: { class: "invalid_input", httpStatus: 413 },
  IDEMPOTENCY_KEY_REUSED: { class: "conflict", httpStatus: 409 },
  CONFIRMATION_REQUIRED: { class: "conflict", httpStatus: 409 },
  PRECONDITION_FAILED: { class: "conflict", httpStatus: 412 },
  RATE_LIMITED: { class: "rate_limited", httpStatus: 429 },
  UNAVAILABLE: { class: "transient", httpStatus: 503 },
  INTERNAL: { class: "internal", httpStatus: 500 },
  NOT_IMPLEMENTED: { class: "internal", httpStatus: 501 },
};

const FALLBACK_BY_CLASS: Readonly<Record<ErrorClass, string>> = {
  invalid_input: "INVALID_INPUT",
  not_found: "ROUTE_NOT_FOUND",
  conflict: "PRECONDITION_FAILED",
  permission: "FORBIDDEN",
  unauthenticated: "UNAUTHENTICATED",
  rate_limited: "RATE_LIMITED",
  transient: "UNAVAILABLE",
  internal: "INTERNAL",
};

/**
 * The code an operation uses for a class of failure: the first code of that class the operation
 * lists, then any code of that class in the taxonomy, then the host's fallback. For invalid input a
 * `fix_field` code is preferred (UNKNOWN_TEAM is invalid_input too, but means something narrower).
 */
export function codeForClass(model: HostContract, op: HostOperation | null, cls: ErrorClass): string {
  const ofClass = model.errors.filter((e) => e.class === cls);
  const listed = op ? ofClass.filter((e) => op.errors.some((ref) => ref.code === e.code)) : [];
  for (const candidates of [listed, ofClass]) {
    const preferred = cls === "invalid_input" ? candidates.find((e) => e.action === "fix_field") : undefined;
    const chosen = preferred ?? candidates[0];
    if (chosen) return chosen.code;
  }
  return FALLBACK_BY_CLASS[cls];
}
