/**
 * Typed errors of a generated SDK. Every error says what happened (code, class), what to do about it
 * (one recovery action), which field was at fault, which operation instance it concerns and whether
 * the operation took effect (outcome).
 */

export type ErrorClass =
  | "invalid_input"
  | "not_found"
  | "conflict"
  | "permission"
  | "unauthenticated"
  | "rate_limited"
  | "transient"
  | "internal";

export type RecoveryAction =
  | "fix_field"
  | "verify_identifier"
  | "reread_and_replan"
  | "reconcile"
  | "stop_and_surface"
  | "reauthenticate"
  | "retry_after"
  | "retry_same_key";

/** Did the operation take effect? `unknown` means it may have: reconcile before acting again. */
export type Outcome = "completed" | "pending" | "rejected" | "unknown";

export interface ErrorDetails {
  readonly code: string;
  readonly errorClass: ErrorClass;
  readonly action: RecoveryAction;
  readonly message: string;
  readonly field?: string | null;
  /** The field as the platform named it, when that differs from `field` (a header's name). */
  readonly wireField?: string | null;
  readonly operation: string;
  readonly operationId?: string | null;
  readonly outcome?: Outcome;
  readonly status?: number | null;
  readonly details?: unknown;
  readonly retryAfterMs?: number | null;
  readonly cause?: unknown;
}

export class ContractError extends Error {
  readonly code: string;
  readonly errorClass: ErrorClass;
  readonly action: RecoveryAction;
  /**
   * The input field at fault (invalid_input), else null: always the contract's input field, even
   * where the platform named it as the wire does (see wireField).
   */
  readonly field: string | null;
  /** What the platform named the field, when that is not the input field's name (`If-Match` for `if_match`); else null. */
  readonly wireField: string | null;
  /** Name of the contract operation that failed. */
  readonly operation: string;
  /** The operation key of a keyed mutation, else the request id. */
  readonly operationId: string | null;
  readonly outcome: Outcome;
  /** HTTP status, when the platform answered. */
  readonly status: number | null;
  readonly details: unknown;
  readonly retryAfterMs: number | null;

  constructor(d: ErrorDetails) {
    super(d.message, d.cause === undefined ? undefined : { cause: d.cause });
    this.name = new.target.name;
    this.code = d.code;
    this.errorClass = d.errorClass;
    this.action = d.action;
    this.field = d.field ?? null;
    this.wireField = d.wireField ?? null;
    this.operation = d.operation;
    this.operationId = d.operationId ?? null;
    this.outcome = d.outcome ?? "rejected";
    this.status = d.status ?? null;
    this.details = d.details ?? null;
    this.retryAfterMs = d.retryAfterMs ?? null;
  }

  /**
   * Replace credential values in the message, the stack and the details (and sensitive fields of the
   * details): the client calls this before an error leaves it, since a platform may echo what it got.
   */
  redact(redactor: { text(value: string): string; value(value: unknown, byName: boolean): unknown }): this {
    this.message = redactor.text(this.message);
    if (typeof this.stack === "string") this.stack = redactor.text(this.stack);
    (this as { details: unknown }).details = redactor.value(this.details, true);
    return this;
  }

  /** Transient and rate-limited failures may be retried with the same operation key. */
  get retryable(): boolean {
    return this.errorClass === "transient" || this.errorClass === "rate_limited";
  }

  /** A plain object for logs and JSON output (never contains credentials). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      class: this.errorClass,
      action: this.action,
      message: this.message,
      field: this.field,
      // Only when the platform named the field otherwise: the JSON of every other error is unchanged.
      ...(this.wireField !== null ? { wireField: this.wireField } : {}),
      operation: this.operation,
      operationId: this.operationId,
      outcome: this.outcome,
      status: this.status,
      details: this.details,
    };
  }
}

export class InvalidInputError extends ContractError {}
export class NotFoundError extends ContractError {}
export class ConflictError extends ContractError {}
export class PermissionError extends ContractError {}
export class UnauthenticatedError extends ContractError {}
export class RateLimitedError extends ContractError {}
export class TransientError extends ContractError {}
export class InternalError extends ContractError {}

/**
 * A mutation was sent but its result could not be determined (timeout, connection lost after the
 * request left). It may or may not have taken effect. Retry with the *same* operation key (the
 * platform replays the first result) or reconcile by reading the target; never send it with a new key.
 */
export class UnknownOutcomeError extends ContractError {
  /** The operation key to retry with, when the operation is keyed. */
  readonly operationKey: string | null;
  /** What to do next: "retry_same_key" for keyed operations, else "reconcile". */
  readonly nextAction: RecoveryAction;

  constructor(d: Omit<ErrorDetails, "errorClass" | "action" | "outcome"> & { operationKey: string | null }) {
    const nextAction: RecoveryAction = d.operationKey ? "retry_same_key" : "reconcile";
    super({ ...d, errorClass: "transient", action: nextAction, outcome: "unknown" });
    this.operationKey = d.operationKey;
    this.nextAction = nextAction;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), operationKey: this.operationKey, nextAction: this.nextAction };
  }
}

const CLASS_CONSTRUCTORS: Record<ErrorClass, new (d: ErrorDetails) => ContractError> = {
  invalid_input: InvalidInputError,
  not_found: NotFoundError,
  conflict: ConflictError,
  permission: PermissionError,
  unauthenticated: UnauthenticatedError,
  rate_limited: RateLimitedError,
  transient: TransientError,
  internal: InternalError,
};

/** The error subclass for a class of the taxonomy. */
export function errorForClass(d: ErrorDetails): ContractError {
  return new CLASS_CONSTRUCTORS[d.errorClass](d);
}

/** One entry of the contract's error taxonomy, as generated into `errors.ts`. */
export interface TaxonomyEntry {
  readonly class: ErrorClass;
  readonly action: RecoveryAction;
  readonly http: number;
  /** The value the platform puts at the error format's code pointer, when it is not the code itself. */
  readonly wire?: string;
  /** The input field the code is about, when it names one. */
  readonly field?: string;
  /** The name of the error's `details` schema in sdk/schemas.json, when the contract declares one. */
  readonly detailsSchema?: string;
}

export type Taxonomy = Readonly<Record<string, TaxonomyEntry>>;

/** Codes the runtime raises itself (they never come from the platform). */
export const CLIENT_CODES = {
  /** Input failed the contract's input schema before any request was sent. */
  invalidInput: "CLIENT_INVALID_INPUT",
  /** A path parameter would change the route ("", ".", ".."). */
  invalidPathParameter: "CLIENT_INVALID_PATH_PARAMETER",
  /** The journal holds this operation key for different parameters. */
  keyReused: "CLIENT_OPERATION_KEY_REUSED",
  /** Another call has been sending the same intent for longer than a call may take (outcome unknown; retry with its key). */
  intentInProgress: "CLIENT_INTENT_IN_PROGRESS",
  /**
   * The platform could not be reached (nothing listens at the base URL, its host is unknown or
   * unreachable); nothing was sent. Class internal, action stop_and_surface: the client has already
   * resent it within its retry policy, and what is left is for a person (start the platform, or point
   * the client at the one that runs).
   */
  unreachable: "CLIENT_UNREACHABLE",
  /** The request was sent but no response arrived. */
  noResponse: "CLIENT_NO_RESPONSE",
  /**
   * The platform answered with a redirect the client does not follow: to another origin for a
   * request with a body, to a non-http(s) URL, a loop, too many, or one that would send again a
   * request that is not safe to repeat. The request reached the platform (outcome unknown for a mutation).
   */
  redirectRefused: "CLIENT_REDIRECT_REFUSED",
  /** The response does not match the contract. */
  badResponse: "CLIENT_RESPONSE_INVALID",
  /** The platform answered with a code the contract does not declare. */
  undeclaredCode: "CLIENT_UNDECLARED_ERROR",
  /**
   * The platform is a generated skeleton whose handler for the operation is still a stub: it answered
   * 501 with the stub's code (wire-errors.ts isStubAnswer). Nothing was executed.
   */
  notImplemented: "CLIENT_NOT_IMPLEMENTED",
  /** No credential was found in the environment variable the contract names. */
  missingCredential: "CLIENT_MISSING_CREDENTIAL",
  /** The credential is shorter than MIN_CREDENTIAL_LENGTH (redact.ts); nothing was sent. */
  credentialTooShort: "CLIENT_CREDENTIAL_TOO_SHORT",
  /** The base URL is not an absolute http(s) URL without credentials, query or fragment; nothing was sent. */
  invalidBaseUrl: "CLIENT_INVALID_BASE_URL",
  /** A client or call option is out of range (e.g. the timeout); nothing was sent. */
  invalidOption: "CLIENT_INVALID_OPTION",
  /** The journal file cannot be opened or is not a journal; nothing was sent. */
  journalUnusable: "CLIENT_JOURNAL_UNUSABLE",
  /** The HTTP request could not be built from the input (e.g. a header value); nothing was sent. */
  requestInvalid: "CLIENT_REQUEST_INVALID",
} as const;
