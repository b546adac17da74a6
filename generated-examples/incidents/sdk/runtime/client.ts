/**
 * The behaviour of every generated SDK method: local validation, the operation journal, HTTP
 * encoding, bounded retries with the same operation key, response validation and typed errors.
 * Generated clients are one-line calls into this class.
 */
import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { mkdirSync } from "node:fs";
import {
  CLIENT_CODES,
  ContractError,
  type ErrorClass,
  errorForClass,
  InternalError,
  InvalidInputError,
  type Outcome,
  type RecoveryAction,
  type Taxonomy,
  TransientError,
  UnauthenticatedError,
  UnknownOutcomeError,
} from "./errors.js";
import { hashValue, intentParameters } from "./hash.js";
import { type Awaitable, type Claim, type ClaimRequest, claimantGone, type JournalEntry, JournalUnusableError, newClaimant, type OperationJournal, SqliteJournal } from "./journal.js";
import { isPostgresUrl, PostgresJournal } from "./journal-postgres.js";
import { nextPageLink, PageResponse, type PageShape, Paginator, traverse, type TraversalBounds } from "./pagination.js";
import { type AuthAlternatives, type ContractAuth, type CredentialParts, credentialFieldNames, credentialSecrets, type CredentialValues, resolveCredentials, withCredentials } from "./credentials.js";
import { isSensitiveField, Redactor } from "./redact.js";
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy, sleep } from "./retry.js";
import { ENVELOPE_FORMAT, type ErrorFormat, isStubAnswer, notImplementedMessage, recognizeError } from "./wire-errors.js";
import { DEFAULT_TRANSPORT_LIMITS, exchange as sendRequest, type OutgoingRequest, readBodyBytes, TransportFailure, transportFailure, type TransportLimits } from "./transport.js";
import { encodeRequest, nonJsonResult, type WireBinding, wireInputProblem } from "./wire-request.js";

/** A validator of one schema slot of an operation (ajv, compiled from `schemas.json` when it first runs). */
export interface Validator {
  (data: unknown): boolean;
  errors?: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }> | null;
}

/** The validator of an answer the contract does not describe (a preview without `output`). */
const ANY_JSON: Validator = () => true;

/** Where an input field goes on the wire and how it is serialized (wire-request.ts). */
export type FieldBinding = WireBinding;

/** Everything the runtime needs to know about one operation (generated into operations.ts). */
/** One page of a next-link read (ContractClient.nextLinkPage). */
export interface LinkedPage {
  /** The page as the platform sent it (the operation's output). */
  readonly body: unknown;
  /** The next page's URL, on the platform's origin; null on the last page or when refused. */
  readonly next: string | null;
  /** Why a next link the page named is not followed (another origin, not a URL…), else null. */
  readonly refused: string | null;
}

export interface OperationSpec {
  readonly id: string;
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  readonly path: string;
  readonly bindings: readonly FieldBinding[];
  /** Statuses that count as success (the contract's `successStatus`); absent: any 2xx. Another 2xx is refused. */
  readonly successStatuses?: readonly number[];
  /** The input field whose value is the whole JSON request body (`http.body`), or null: body fields are its properties. */
  readonly bodyField?: string | null;
  /** Media type of the request body (`http.contentType`); absent: application/json. */
  readonly contentType?: string;
  /** Send a body ({} or an empty form) when no body field is given (`http.bodyRequired`). */
  readonly bodyRequired?: boolean;
  /** The media type asked for (`http.accept`); absent: application/json. A non-JSON answer is the result (text, or base64). */
  readonly accept?: string | null;
  readonly mutating: boolean;
  readonly idempotent: "natural" | "key" | "none";
  readonly keyField: string | null;
  /** How long the platform keeps an operation key and its outcome (the contract's idempotency retention). */
  readonly keyRetentionMs?: number;
  readonly preview: { readonly dryRunField: string; readonly confirmTokenField: string; readonly defaultDryRun: boolean } | null;
  readonly pagination: (PageShape & { readonly limitField: string | null; readonly limitMax: number | null; readonly limitDefault?: number | null }) | null;
  readonly errors: readonly string[];
  /** The operation's own credential alternatives (absent: the contract's); [] = public. */
  readonly auth?: AuthAlternatives;
  readonly validateInput: Validator;
  readonly validateOutput: Validator;
  readonly validatePreview: Validator | null;
  /** Where a generated skeleton keeps this operation's handler (`mcp/handlers/<name>.ts`), named when a stub answers. */
  readonly handlerFile?: string;
}

/** Facts about the contract the client was generated from. */
export interface ContractInfo {
  readonly name: string;
  readonly version: string;
  readonly baseUrl: string;
  readonly baseUrlEnv: string | null;
  readonly timeoutMs: number;
  readonly auth: ContractAuth;
  readonly taxonomy: Taxonomy;
  /** How the platform reports errors (`transport.http.errorFormat`); absent: contractgen's envelope. */
  readonly errorFormat?: ErrorFormat;
}

export interface ClientOptions {
  /** Overrides the contract's base URL and its environment variable. */
  readonly baseUrl?: string;
  /**
   * How this client's user sets the base URL, as an unreachable platform's error names it (the CLI:
   * `--base-url or <CONTRACT>_BASE_URL`); default: the contract's base URL variable or the `baseUrl` option.
   */
  readonly baseUrlSetting?: string;
  /** Credential of a contract with a single bearer or API-key scheme; by default read from the environment variable the contract names. */
  readonly token?: string;
  /**
   * Credentials by scheme name (the contract's `transport.auth.schemes`): a token, or
   * `{ username, password }` for HTTP basic. A scheme not given here is read from its environment variables.
   */
  readonly credentials?: CredentialValues;
  /** Per-request timeout; defaults to the contract's transport timeout. */
  readonly timeoutMs?: number;
  /** Largest response body read, in bytes after decompression (default 64 MiB); a larger one is an error. */
  readonly maxResponseBytes?: number;
  /** Redirects followed per request (default 5; 0 follows none). Another origin never gets a credential. */
  readonly maxRedirects?: number;
  /** Retry policy for transient and rate-limited failures; `{ maxAttempts: 1 }` disables retries. */
  readonly retry?: Partial<RetryPolicy>;
  /**
   * Where operation keys and outcomes are recorded before and after each keyed mutation: a journal,
   * a SQLite file path, a `postgres://` URL (the store replicas share), or `false` for none.
   * Default: `$<CONTRACT>_JOURNAL_URL`, `$<CONTRACT>_JOURNAL`, else
   * `~/.contractgen/<contract>-journal.sqlite`.
   */
  readonly journal?: OperationJournal | string | false;
  /**
   * How long after a lost call's outcome was recovered an identical call without an operation key
   * still gets that outcome instead of a new effect (default 60 s): processes that retry one lost call
   * together start at different moments, and each must get the one outcome. A new operation key makes
   * a deliberate identical call a new intent at any time; 0 hands the outcome only to calls that
   * waited for it.
   */
  readonly recoveryWindowMs?: number;
  readonly fetch?: typeof fetch;
  /** Extra headers on every request (never logged). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Randomness for backoff jitter (tests pin it). */
  readonly random?: () => number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

type Input = Record<string, unknown>;

/** How a page request differs from a plain call: a next link to GET instead of the input's URL, and who sees the response. */
interface Exchange {
  readonly url: string | null;
  /** The request URL and the response (a paginator reads its Link header only). */
  readonly seen: (url: string, response: Response) => void;
}

/** An input field's own value: a field named like an Object.prototype member (`constructor`) is absent unless the caller set it. */
function field(input: Input, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(input, name) ? input[name] : undefined;
}

/** `T` with the fields `K` made optional (e.g. an operation key the journal can supply). */
export type WithOptional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/**
 * The input of a confirmed execution: the confirm token `Token` required, the dry-run switch `DryRun`
 * absent or false (the client sends false whatever the contract's default), so a call without the
 * token fails to compile instead of at the server.
 */
export type WithConfirmation<T, DryRun extends keyof T, Token extends keyof T> = Omit<T, DryRun | Token> & { [K in DryRun]?: false } & { [K in Token]-?: NonNullable<T[K]> };

/** Bounds of a per-request timeout: 1 ms to 24 h (timers cannot go beyond 2^31-1 ms; longer is a mistake). */
export const TIMEOUT_BOUNDS_MS = { min: 1, max: 86_400_000 } as const;

/** How long a journal claim holds unless its sender renews it: a sender that died is taken over after this. */
export const JOURNAL_LEASE_MS = 15_000;
/** How often a sender renews its claim while it awaits the answer. */
const JOURNAL_RENEW_EVERY_MS = 5_000;
/** Default of ClientOptions.recoveryWindowMs. */
export const DEFAULT_RECOVERY_WINDOW_MS = 60_000;
/** Longest recovery window: a day (an identical call a day later is surely a new intent). */
const RECOVERY_WINDOW_MAX_MS = 86_400_000;

/** Host names of the local machine: one journal identity (`127.0.0.1`), whichever is written. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Ports fetch refuses to connect to (the Fetch standard's "bad ports"): refused before, not during, a call. */
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * Why a base URL cannot be used, or null: it must be an absolute http(s) URL without credentials
 * (those go in the token, never in a URL that ends up in messages and the journal), query or fragment.
 */
export function baseUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "it is not an absolute URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `its scheme ${JSON.stringify(url.protocol.slice(0, -1).slice(0, 20))} is not http or https`;
  if (url.username !== "" || url.password !== "") return "it contains credentials (user:password@); pass the credential through its environment variable or the token option";
  if (url.search !== "" || url.hash !== "") return "it has a query or fragment";
  if (url.port !== "" && FETCH_BAD_PORTS.has(Number(url.port))) return `its port ${url.port} is one fetch refuses to use`;
  return null;
}

/**
 * The platform identity operation keys are journaled under: scheme, host and port as \`URL\` normalises
 * them (lower-case host, default port dropped), the loopback names \`localhost\`, \`127.0.0.1\` and
 * \`[::1]\` read as \`127.0.0.1\` (same port), a trailing dot of the host dropped, and the path without
 * trailing slashes. \`http://LOCALHOST:80/v1/\` and \`http://127.0.0.1/v1\` are one platform.
 */
export function journalTarget(baseUrl: string): string {
  const url = new URL(baseUrl);
  let host = url.hostname.replace(/\.$/, "");
  if (LOOPBACK_HOSTS.has(host)) host = "127.0.0.1";
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The error for input that failed `validator` just now: the first problem names the field, every
 * problem is in the details. One definition, so the SDK and every adapter over it (the MCP server
 * checks tool arguments with the same validators) report invalid input alike.
 */
export function inputRejected(operation: string, validator: Validator, operationId: string | null): InvalidInputError {
  const first = validator.errors?.[0];
  const missing = first?.keyword === "required" ? String(first.params.missingProperty) : undefined;
  const field = [first?.instancePath.replace(/^\//, "").replace(/\//g, "."), missing].filter((s) => s).join(".") || null;
  return new InvalidInputError({
    code: CLIENT_CODES.invalidInput,
    errorClass: "invalid_input",
    action: "fix_field",
    message: `Invalid input for ${operation}: ${field ?? "input"} ${first?.message ?? "is invalid"}. Nothing was sent.`,
    field,
    operation,
    operationId,
    outcome: "rejected",
    details: validator.errors ?? null,
  });
}

export class ContractClient {
  private readonly policy: RetryPolicy;
  private readonly fetchImpl: typeof fetch;
  private journalInstance: OperationJournal | null | undefined;

  constructor(
    readonly contract: ContractInfo,
    private readonly options: ClientOptions = {},
  ) {
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.fetchImpl = options.fetch ?? globalThis.fetch;
  }

  /** The base URL requests go to. */
  get baseUrl(): string {
    const fromEnv = this.contract.baseUrlEnv ? process.env[this.contract.baseUrlEnv] : undefined;
    return (this.options.baseUrl ?? (fromEnv || this.contract.baseUrl)).replace(/\/+$/, "");
  }

  /** The journal in use (opened on first need), or null when disabled. */
  get journal(): OperationJournal | null {
    if (this.journalInstance === undefined) {
      const option = this.options.journal;
      if (option === false) this.journalInstance = null;
      else if (typeof option === "object" && option !== null) this.journalInstance = option;
      else {
        const envName = `${this.contract.name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_JOURNAL`;
        // A PostgreSQL URL (the option, <CONTRACT>_JOURNAL_URL or <CONTRACT>_JOURNAL) selects the
        // shared store that replicas need; anything else is a SQLite file.
        const url = option ?? process.env[`${envName}_URL`] ?? process.env[envName];
        if (url !== undefined && isPostgresUrl(url)) {
          this.journalInstance = new PostgresJournal(url);
          return this.journalInstance;
        }
        const path = option ?? process.env[envName] ?? join(homedir(), ".contractgen", `${this.contract.name}-journal.sqlite`);
        if (option === undefined && !process.env[envName]) {
          try {
            mkdirSync(join(homedir(), ".contractgen"), { recursive: true });
          } catch (e) {
            throw new JournalUnusableError(path, `its folder cannot be created (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
          }
        }
        this.journalInstance = new SqliteJournal(path);
      }
    }
    return this.journalInstance;
  }

  /** Close the journal if this client opened it. */
  close(): void {
    if (this.journalInstance && typeof this.options.journal !== "object") this.journalInstance.close();
    this.journalInstance = undefined;
  }

  /** The base URL and journal identity for a call, checked before anything is recorded or sent. */
  private endpoint(op: OperationSpec, operationId: string | null): { base: string; target: string } {
    const base = this.baseUrl;
    const problem = baseUrlProblem(base);
    if (problem) {
      throw new InvalidInputError({
        code: CLIENT_CODES.invalidBaseUrl,
        errorClass: "invalid_input",
        action: "fix_field",
        // The URL itself is not repeated: it may carry credentials.
        message: `The base URL for ${op.id} cannot be used: ${problem}. Nothing was sent.`,
        field: null,
        operation: op.id,
        operationId,
        outcome: "rejected",
      });
    }
    return { base, target: journalTarget(base) };
  }

  /** The per-request timeout, refused outside TIMEOUT_BOUNDS_MS before anything is recorded or sent. */
  private timeoutMs(op: OperationSpec, options: CallOptions, operationId: string | null): number {
    const ms = options.timeoutMs ?? this.options.timeoutMs ?? this.contract.timeoutMs;
    if (!Number.isInteger(ms) || ms < TIMEOUT_BOUNDS_MS.min || ms > TIMEOUT_BOUNDS_MS.max) {
      throw new InvalidInputError({
        code: CLIENT_CODES.invalidOption,
        errorClass: "invalid_input",
        action: "fix_field",
        message: `The timeout for ${op.id} must be an integer from ${TIMEOUT_BOUNDS_MS.min} to ${TIMEOUT_BOUNDS_MS.max} ms, got ${String(ms).slice(0, 40)}. Nothing was sent.`,
        field: null,
        operation: op.id,
        operationId,
        outcome: "rejected",
      });
    }
    return ms;
  }

  /** The journal, with an unusable journal file reported as a usage problem that names it. */
  private openJournal(op: OperationSpec): OperationJournal | null {
    try {
      return this.journal;
    } catch (e) {
      throw this.journalProblem(op, e);
    }
  }

  /** A journal that cannot be used (a file, or a database found unusable on first use): nothing was sent. */
  private journalProblem(op: OperationSpec, e: unknown): unknown {
    if (!(e instanceof JournalUnusableError)) return e;
    return new InvalidInputError({
      code: CLIENT_CODES.journalUnusable,
      errorClass: "invalid_input",
      action: "fix_field",
      message: `${e.message} Nothing was sent.`,
      field: null,
      operation: op.id,
      outcome: "rejected",
      details: { path: e.path, problem: e.problem },
    });
  }

  /** Every credential value this client sends, to keep them out of results, errors and the journal. */
  private redactor(): Redactor {
    const secrets = credentialSecrets(this.contract.auth, this.credentialSources());
    for (const [name, value] of Object.entries(this.options.headers ?? {})) if (isSensitiveField(name)) secrets.push(value);
    return new Redactor(secrets, credentialFieldNames(this.contract.auth));
  }

  private credentialSources() {
    return { ...(this.options.credentials !== undefined ? { credentials: this.options.credentials } : {}), ...(this.options.token !== undefined ? { token: this.options.token } : {}), env: process.env };
  }

  /**
   * Execute an operation. For previewable operations this is the real execution (dry run off) and
   * needs the confirm token a `preview` of the same parameters returned.
   */
  async call<O>(op: OperationSpec, input: object, options: CallOptions = {}): Promise<O> {
    const prepared: Input = op.preview ? { ...input, [op.preview.dryRunField]: false } : { ...input };
    if (op.keyField && op.idempotent === "key") return this.callKeyed<O>(op, prepared, options);
    this.endpoint(op, null);
    this.timeoutMs(op, options, null);
    this.validateInput(op, prepared, null);
    return (await this.sendWithRetries(op, prepared, options, null, op.validateOutput)) as O;
  }

  /** Ask for a preview: nothing executes; the answer carries the expected effect and a confirm token. */
  async preview<P>(op: OperationSpec, input: object, options: CallOptions = {}): Promise<P> {
    if (!op.preview) throw new TypeError(`${op.id} has no preview`);
    const prepared: Input = { ...input, [op.preview.dryRunField]: true };
    // A preview executes nothing: no key is minted, sent or journaled (the key is required to execute only).
    if (op.keyField) delete prepared[op.keyField];
    this.endpoint(op, null);
    this.timeoutMs(op, options, null);
    this.validateInput(op, prepared, null);
    // A preview without a declared output is not described by the contract: any JSON answer is taken.
    return (await this.sendWithRetries(op, prepared, options, null, op.validatePreview ?? ANY_JSON)) as P;
  }

  /**
   * One page of a next-link read, for callers that read a page per call (the MCP server): the first
   * page (`url` null, the input validated) or the page at a URL an earlier page named (checked against
   * the platform's origin before any credential is attached), with the URL of the page after it when
   * there is one and it may be followed, else why not.
   */
  async nextLinkPage(op: OperationSpec, input: object, url: string | null, options: CallOptions = {}): Promise<LinkedPage> {
    const shape = op.pagination;
    if (shape?.style !== "next-link") throw new TypeError(`${op.id} is not paginated by next links`);
    const response = await this.readPage(op, { ...(input as Input) }, url, options.signal);
    const body = response.body;
    const page = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Input) : {};
    // The page's own URL was checked against the platform's origin before it was read.
    const target = nextPageLink(shape, page, response, response.url === "" ? null : new URL(response.url).origin);
    if (target === null) return { body, next: null, refused: null };
    return "url" in target ? { body, next: target.url, refused: null } : { body, next: null, refused: target.refused };
  }

  /** A bounded traversal of a paginated read; iterate it or `collect()` it for items plus completeness. */
  paginate<T>(op: OperationSpec, input: object, bounds: TraversalBounds): Paginator<T> {
    if (!op.pagination) throw new TypeError(`${op.id} is not paginated`);
    // A cursor page is an ordinary call; the other styles need the page's URL and Link header too.
    return traverse<T>(op.pagination, input, bounds, (pageInput, url, signal) =>
      (op.pagination!.style ?? "cursor") === "cursor" ? this.call<Record<string, unknown>>(op, pageInput, { signal }) : this.readPage(op, pageInput, url, signal),
    );
  }

  /**
   * One page of a non-cursor traversal with the URL it came from and its Link header. `url` is a
   * next link the paginator already checked (same origin as the first request); it is checked
   * again here against the base URL before any credential is attached.
   */
  private async readPage(op: OperationSpec, input: Input, url: string | null, signal: AbortSignal | undefined): Promise<PageResponse> {
    const options: CallOptions = signal ? { signal } : {};
    this.endpoint(op, null);
    this.timeoutMs(op, options, null);
    if (url === null) this.validateInput(op, input, null);
    let seen = { url: "", link: null as string | null };
    const body = await this.sendWithRetries(op, input, options, null, op.validateOutput, {
      url,
      seen: (requestUrl, response) => {
        seen = { url: requestUrl, link: response.headers.get("link") };
      },
    });
    return new PageResponse(body, seen.url, seen.link);
  }

  /**
   * Keyed mutation: one atomic claim in the journal decides which key is sent and whether anything is
   * sent at all (journal.ts, decideClaim), before the first byte leaves; the claim is renewed while
   * the answer is awaited and settled with the outcome.
   */
  private async callKeyed<O>(op: OperationSpec, input: Input, options: CallOptions): Promise<O> {
    const keyField = op.keyField!;
    const excluded = [keyField, op.preview?.dryRunField, op.preview?.confirmTokenField];
    const paramsHash = hashValue(intentParameters(input, excluded));
    // Everything that can be refused locally is checked before the journal records an intent.
    const { target } = this.endpoint(op, null);
    const timeoutMs = this.timeoutMs(op, options, null);
    const journal = this.openJournal(op);
    // A key the caller gave is never replaced: one that is not a string fails the input schema.
    const keyValue = field(input, keyField);
    if (keyValue !== undefined && typeof keyValue !== "string") this.validateInput(op, input, null);
    const callerKey = keyValue !== undefined ? String(keyValue) : null;
    const recoveryWindowMs = this.options.recoveryWindowMs ?? DEFAULT_RECOVERY_WINDOW_MS;
    if (!Number.isInteger(recoveryWindowMs) || recoveryWindowMs < 0 || recoveryWindowMs > RECOVERY_WINDOW_MAX_MS) {
      throw new InvalidInputError({
        code: CLIENT_CODES.invalidOption,
        errorClass: "invalid_input",
        action: "fix_field",
        message: `${op.id}: recoveryWindowMs must be an integer from 0 to ${RECOVERY_WINDOW_MAX_MS} ms, got ${String(recoveryWindowMs).slice(0, 40)}. Nothing was sent.`,
        field: null,
        operation: op.id,
        outcome: "rejected",
      });
    }
    const newKey = callerKey ?? randomUUID();
    // Validated with the key a new intent would get: a key the journal hands out instead was valid when recorded.
    this.validateInput(op, { ...input, [keyField]: newKey }, newKey);
    if (!journal) return (await this.sendWithRetries(op, { ...input, [keyField]: newKey }, options, newKey, op.validateOutput)) as O;

    // A confirm token is spent by the one execution it allows: the same parameters under the same
    // token are the same intent, so a re-run after success (within the key's retention) gets that
    // intent's key and its recorded result, where the platform would refuse the spent token.
    const token = op.preview ? field(input, op.preview.confirmTokenField) : undefined;
    const confirmHash = typeof token === "string" ? hashValue(token) : null;
    const now = Date.now();
    const request: ClaimRequest = {
      operation: op.id,
      target,
      paramsHash,
      confirmHash,
      key: callerKey,
      newKey,
      claimant: newClaimant(),
      leaseMs: JOURNAL_LEASE_MS,
      replaySince: confirmHash !== null && op.keyRetentionMs !== undefined ? now - op.keyRetentionMs : null,
      recoveredSince: now - recoveryWindowMs,
      usable: (result) => op.validateOutput(result),
      senderGone: claimantGone,
    };
    const claim = await this.claimIntent(op, journal, request, options.signal, this.longestCallMs(timeoutMs));
    const key = claim.entry.key;
    if (claim.kind === "mismatch") {
      throw errorForClass({
        code: CLIENT_CODES.keyReused,
        errorClass: "conflict",
        action: "stop_and_surface",
        message: `Operation key ${key} was already used for ${op.id} with different parameters; refused locally, nothing was sent.`,
        field: keyField,
        operation: op.id,
        operationId: key,
        outcome: "rejected",
      });
    }
    // Recovered: the outcome another call recorded for this intent, no second effect.
    if (claim.kind === "recorded") return recordedOutcome<O>(op, claim.entry);

    const ref = { operation: op.id, target, key };
    // The store may fail at any point from here: the claim then lapses and a retry takes the intent
    // over with the same key (the platform answers from its record), which is no reason to fail this call.
    const quietly = (step: () => unknown) => Promise.resolve().then(step).catch(() => undefined);
    const renewal = setInterval(() => void quietly(() => journal.renew(ref, request.claimant, Date.now() + JOURNAL_LEASE_MS)), JOURNAL_RENEW_EVERY_MS);
    renewal.unref?.();
    try {
      const result = await this.sendWithRetries(op, { ...input, [keyField]: key }, options, key, op.validateOutput);
      await quietly(() => journal.settle(ref, request.claimant, "completed", result));
      return result as O;
    } catch (e) {
      const error = e as ContractError;
      // Not a contract error (e.g. the caller aborted during a backoff after an attempt that may have
      // executed), or one that proves nothing about the intent (a retryable refusal may come before
      // the platform's key lookup): the intent stays unfinished, and the next call reuses its key.
      const settled = typeof error?.outcome !== "string" || error.outcome === "unknown" || error.outcome === "pending" || error.retryable === true;
      const status = settled ? "unknown" : error.outcome === "completed" ? "completed" : "rejected";
      await quietly(() => journal.settle(ref, request.claimant, status, this.redactor().value(typeof error?.toJSON === "function" ? error.toJSON() : { message: String(e) }, true)));
      throw e;
    } finally {
      clearInterval(renewal);
    }
  }

  /**
   * Claim the intent, waiting while another live call sends it (then its outcome is this call's):
   * `send`, `recorded` or `mismatch`. A wait longer than a call may take (`patienceMs`: a live sender
   * has finished by then) ends in an unknown outcome under the intent's key.
   */
  private async claimIntent(op: OperationSpec, journal: OperationJournal, request: ClaimRequest, signal: AbortSignal | undefined, patienceMs: number): Promise<Claim> {
    const giveUpAt = Date.now() + patienceMs;
    let ask = request;
    for (;;) {
      const claim = await this.beforeSending(op, () => journal.claim(ask, Date.now()));
      // A keyless call that waited on a key later bound again to other parameters starts over by its parameters.
      if (claim.kind === "mismatch" && ask !== request && request.key === null) {
        ask = request;
        continue;
      }
      if (claim.kind !== "wait") return claim;
      // From here on this call is that intent: it asks by its key.
      ask = { ...request, key: claim.entry.key };
      const outcome = await this.waitForSender(op, journal, claim.entry, request, giveUpAt, signal);
      if (outcome) return { kind: "recorded", entry: outcome };
    }
  }

  /**
   * Poll the intent a live call is sending until that call settles it (its entry: the outcome), or
   * the intent is unknown again, taken over or its sender gone (null: claim again).
   */
  private async waitForSender(op: OperationSpec, journal: OperationJournal, sending: JournalEntry, request: ClaimRequest, giveUpAt: number, signal: AbortSignal | undefined): Promise<JournalEntry | null> {
    for (let delay = 10; ; delay = Math.min(100, Math.round(delay * 1.5))) {
      await sleep(delay, signal);
      const now = Date.now();
      const entry = await this.beforeSending(op, () => journal.get(sending));
      if (!entry || entry.paramsHash !== sending.paramsHash) return null;
      const stillSending = entry.status === "sending" && entry.claimant === sending.claimant && (entry.leaseUntil ?? 0) > now && !(entry.claimant !== null && (request.senderGone?.(entry.claimant) ?? false));
      if (!stillSending) {
        const settled = entry.claimant === null && (entry.status === "rejected" || (entry.status === "completed" && (request.usable?.(entry.result) ?? true)));
        return settled ? entry : null;
      }
      if (now > giveUpAt) {
        throw new UnknownOutcomeError({
          code: CLIENT_CODES.intentInProgress,
          message: `${op.id}: another call has been sending this intent under operation key ${entry.key} for longer than a call may take; it may take effect. Retry with the same operation key ${entry.key}.`,
          operation: op.id,
          operationId: entry.key,
          operationKey: entry.key,
        });
      }
    }
  }

  /** How long one call may take at most: every attempt's timeout and the backoff between them. */
  private longestCallMs(timeoutMs: number): number {
    return this.policy.maxAttempts * (timeoutMs + this.policy.maxDelayMs);
  }

  /** A journal step before anything is sent: a store found unusable there is the caller's to fix, like a bad file. */
  private async beforeSending<T>(op: OperationSpec, step: () => Awaitable<T>): Promise<T> {
    try {
      return await step();
    } catch (e) {
      throw this.journalProblem(op, e);
    }
  }

  private validateInput(op: OperationSpec, input: Input, operationId: string | null): void {
    if (!op.validateInput(input)) throw inputRejected(op.id, op.validateInput, operationId);
    // Valid by the schema, yet a value the wire cannot carry (a header outside Latin-1): refused before sending, naming the field.
    const unsendable = wireInputProblem(op, input);
    if (unsendable !== null) {
      throw new InvalidInputError({
        code: CLIENT_CODES.invalidInput,
        errorClass: "invalid_input",
        action: "fix_field",
        message: `Invalid input for ${op.id}: ${unsendable.field} ${unsendable.problem}. Nothing was sent.`,
        field: unsendable.field,
        operation: op.id,
        operationId,
        outcome: "rejected",
        details: null,
      });
    }
    for (const binding of op.bindings) {
      const value = field(input, binding.field);
      if (binding.in === "path" && (value === "" || value === "." || value === "..")) {
        throw new InvalidInputError({
          code: CLIENT_CODES.invalidPathParameter,
          errorClass: "invalid_input",
          action: "fix_field",
          message: `${binding.field} cannot be ${JSON.stringify(value)}: it would change the request path.`,
          field: binding.field,
          operation: op.id,
          operationId,
          outcome: "rejected",
        });
      }
    }
  }

  private async sendWithRetries(op: OperationSpec, input: Input, options: CallOptions, key: string | null, validate: Validator, exchange?: Exchange): Promise<unknown> {
    const requestId = randomUUID();
    // Only operations that are safe to repeat are retried: reads, naturally idempotent and keyed ones.
    const repeatable = !op.mutating || op.idempotent !== "none";
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sendOnce(op, input, options, key, requestId, validate, exchange);
      } catch (e) {
        const error = e as ContractError;
        const retryable = typeof error.retryable === "boolean" && error.retryable && !(error instanceof UnknownOutcomeError);
        // A request that provably never left may be resent whatever the operation.
        const neverSent = error.code === CLIENT_CODES.unreachable;
        if (!((retryable && repeatable) || neverSent) || attempt >= this.policy.maxAttempts) throw e;
        await sleep(backoffDelay(this.policy, attempt, error.retryAfterMs, this.options.random), options.signal);
      }
    }
  }

  /** What the operation's credentials add to its request (src/runtime/credentials.ts); refused when none is usable. */
  private credential(op: OperationSpec, operationId: string | null): CredentialParts {
    const resolved = resolveCredentials(this.contract.auth, op.auth, this.credentialSources());
    if ("parts" in resolved) return resolved.parts;
    const { problem } = resolved;
    if (problem.kind === "invalid") {
      throw new InvalidInputError({ code: CLIENT_CODES.invalidOption, errorClass: "invalid_input", action: "fix_field", message: `${op.id}: ${problem.message}. Nothing was sent.`, field: null, operation: op.id, operationId, outcome: "rejected" });
    }
    const code = problem.kind === "missing" ? CLIENT_CODES.missingCredential : CLIENT_CODES.credentialTooShort;
    throw new UnauthenticatedError({
      code,
      errorClass: "unauthenticated",
      action: "reauthenticate",
      message: problem.kind === "missing" ? problem.message : `${problem.message}. Nothing was sent.`,
      operation: op.id,
      operationId,
      outcome: "rejected",
      ...(problem.kind === "missing" ? { details: { env: problem.envVars } } : {}),
    });
  }

  /** One attempt; what it returns or throws has every credential value it sent redacted. */
  private async sendOnce(op: OperationSpec, input: Input, options: CallOptions, key: string | null, requestId: string, validate: Validator, exchange?: Exchange): Promise<unknown> {
    const redactor = this.redactor();
    try {
      return redactor.value(await this.attempt(op, input, options, key, requestId, validate, exchange), false);
    } catch (e) {
      throw e instanceof ContractError ? e.redact(redactor) : e;
    }
  }

  /** Build the request (nothing sent yet: any failure is a rejection). */
  private prepare(op: OperationSpec, input: Input, options: CallOptions, operationId: string, requestId: string, exchange?: Exchange): { request: OutgoingRequest; timeoutMs: number } {
    const { base } = this.endpoint(op, operationId);
    if (exchange?.url != null && new URL(exchange.url).origin !== new URL(base).origin) {
      // The credential goes only to the platform's own origin (the paginator refuses such links first).
      throw new InvalidInputError({
        code: CLIENT_CODES.requestInvalid,
        errorClass: "invalid_input",
        action: "fix_field",
        message: `${op.id}: a next-page link points outside ${new URL(base).origin}; nothing was sent.`,
        operation: op.id,
        operationId,
        outcome: "rejected",
      });
    }
    const timeoutMs = this.timeoutMs(op, options, operationId);
    const timeout = AbortSignal.timeout(timeoutMs);
    const credential = this.credential(op, operationId);
    try {
      const built = buildRequest(op, input, base);
      // A next link replaces the URL (its query included); header bindings still apply.
      const plain = exchange?.url != null ? { ...built, method: "GET", url: exchange.url, body: undefined } : built;
      const withCredential = withCredentials(plain.url, { ...this.options.headers, ...plain.headers }, credential);
      const request = { ...plain, url: withCredential.url };
      const headers = { ...withCredential.headers, "x-request-id": requestId };
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      // Throws here, not inside fetch, on a URL or header fetch would refuse.
      new Request(request.url, { method: request.method, headers, ...(request.body !== undefined ? { body: request.body } : {}) });
      return { request: { url: request.url, method: request.method, headers, signal, ...(request.body !== undefined ? { body: request.body } : {}) }, timeoutMs };
    } catch (e) {
      throw new InvalidInputError({
        code: CLIENT_CODES.requestInvalid,
        errorClass: "invalid_input",
        action: "fix_field",
        message: `${op.id}: the request cannot be built (${(e as Error)?.message ?? String(e)}); nothing was sent.`,
        operation: op.id,
        operationId,
        outcome: "rejected",
      });
    }
  }

  /** Redirect and body-size limits of this client, refused when out of range before anything is sent. */
  private transportLimits(op: OperationSpec, operationId: string): TransportLimits {
    const limits = {
      maxRedirects: this.options.maxRedirects ?? DEFAULT_TRANSPORT_LIMITS.maxRedirects,
      maxResponseBytes: this.options.maxResponseBytes ?? DEFAULT_TRANSPORT_LIMITS.maxResponseBytes,
    };
    const bad = !Number.isInteger(limits.maxRedirects) || limits.maxRedirects < 0 || limits.maxRedirects > 20 ? `maxRedirects must be an integer from 0 to 20, got ${String(limits.maxRedirects).slice(0, 40)}`
      : !Number.isInteger(limits.maxResponseBytes) || limits.maxResponseBytes < 1 ? `maxResponseBytes must be a positive integer, got ${String(limits.maxResponseBytes).slice(0, 40)}`
      : null;
    if (bad !== null) {
      throw new InvalidInputError({
        code: CLIENT_CODES.invalidOption,
        errorClass: "invalid_input",
        action: "fix_field",
        message: `${op.id}: ${bad}. Nothing was sent.`,
        field: null,
        operation: op.id,
        operationId,
        outcome: "rejected",
      });
    }
    return limits;
  }

  private async attempt(op: OperationSpec, input: Input, options: CallOptions, key: string | null, requestId: string, validate: Validator, exchange?: Exchange): Promise<unknown> {
    const operationId = key ?? requestId;
    const { request, timeoutMs } = this.prepare(op, input, options, operationId, requestId, exchange);
    const limits = this.transportLimits(op, operationId);

    let response: Response;
    let url: string;
    let bytes: Uint8Array | null = null;
    // Why the body was not read (larger than the limit); the status still says what happened.
    let unread: string | null = null;
    try {
      // Only requests safe to repeat may be sent again by a redirect that keeps the method and body.
      const resendable = !op.mutating || op.idempotent !== "none";
      const exchanged = await sendRequest(this.fetchImpl, request, { limits, resendable }, timeoutMs);
      response = exchanged.response;
      url = exchanged.url;
      try {
        bytes = await readBodyBytes(response, limits.maxResponseBytes, timeoutMs);
      } catch (e) {
        if (!(e instanceof TransportFailure && e.kind === "body-too-large")) throw e;
        unread = e.message;
      }
    } catch (e) {
      if (options.signal?.aborted && !op.mutating) throw options.signal.reason;
      throw this.networkError(op, e, key, operationId, timeoutMs);
    }

    let body: unknown = null;
    let parsed = unread === null;
    // An operation that asks for another media type (a PDF, text) gets that answer as its result: text or base64.
    const other = response.ok && bytes !== null ? nonJsonResult(op, response.headers.get("content-type"), bytes) : null;
    const text = bytes === null || other !== null ? null : new TextDecoder().decode(bytes);
    if (other !== null) body = other.value;
    else if (text !== null && text.trim() !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        parsed = false;
      }
    }
    if (response.ok && op.successStatuses && !op.successStatuses.includes(response.status)) {
      // A 2xx the contract does not list (202 Accepted where 200 was promised) may mean "not done yet":
      // neither a result nor proof that a mutation took effect.
      throw new InternalError({
        code: CLIENT_CODES.badResponse,
        errorClass: "internal",
        action: "stop_and_surface",
        message: `${op.id} answered HTTP ${response.status}, which the contract does not list as a success (${op.successStatuses.join(", ")}).`,
        operation: op.id,
        operationId,
        outcome: op.mutating ? "unknown" : "rejected",
        status: response.status,
        details: parsed ? body : null,
      });
    }
    if (response.ok) {
      // A 2xx answer means a mutation took effect, whether or not its body is usable. An empty body
      // (204, Content-Length 0) is null, which the output schema must admit.
      if (!parsed || !validate(body)) {
        const first = parsed ? validate.errors?.[0] : undefined;
        throw new InternalError({
          code: CLIENT_CODES.badResponse,
          errorClass: "internal",
          action: "stop_and_surface",
          message: `The response of ${op.id} does not match the contract: ${unread !== null ? `the ${unread}` : !parsed ? "the body is not JSON" : first ? `${first.instancePath || "(root)"} ${first.message}` : "invalid"}.`,
          operation: op.id,
          operationId,
          outcome: op.mutating ? "completed" : "rejected",
          status: response.status,
          details: parsed ? validate.errors : null,
        });
      }
      exchange?.seen(url, response);
      return body;
    }
    throw this.responseError(op, response, parsed ? body : null, key, operationId);
  }

  private networkError(op: OperationSpec, e: unknown, key: string | null, operationId: string, timeoutMs: number): ContractError {
    const failure = transportFailure(e, false, timeoutMs);
    if (!failure.sent) {
      // Resent within the retry policy already (nothing had left): what helps now is a person starting
      // the platform or pointing the client at the one that runs, so the action is stop_and_surface.
      const env = this.contract.baseUrlEnv;
      const setting = this.options.baseUrlSetting ?? `${env ? `${env} or ` : ""}the baseUrl option`;
      const where = failure.kind === "refused" ? `nothing is listening at ${this.baseUrl}: ${failure.message}` : `the platform at ${this.baseUrl} could not be reached: ${failure.message}`;
      return new InternalError({
        code: CLIENT_CODES.unreachable,
        errorClass: "internal",
        action: "stop_and_surface",
        message: `${op.id}: ${where}; nothing was sent. Start the server, or point the client at it with ${setting}.`,
        operation: op.id,
        operationId,
        outcome: "rejected",
        cause: failure.cause ?? e,
      });
    }
    if (failure.kind.startsWith("redirect-")) {
      // The platform answered, with a redirect this client does not follow: a retry would get the same.
      return new InternalError({
        code: CLIENT_CODES.redirectRefused,
        errorClass: "internal",
        action: "stop_and_surface",
        message: `${op.id}: the request reached the platform, which answered ${failure.message}.${op.mutating ? " It may have taken effect: reconcile by reading the target before acting again." : ""}`,
        operation: op.id,
        operationId,
        outcome: op.mutating ? "unknown" : "rejected",
        cause: failure.cause ?? e,
      });
    }
    if (op.mutating) {
      // The request may have been committed: the caller must not treat this as a plain failure.
      return new UnknownOutcomeError({
        code: CLIENT_CODES.noResponse,
        message: `${op.id}: no response after the request was sent (${failure.message}); it may have taken effect. ${key ? `Retry with the same operation key ${key}.` : "Reconcile by reading the target before acting again."}`,
        operation: op.id,
        operationId,
        operationKey: key,
        cause: failure.cause ?? e,
      });
    }
    return new TransientError({
      code: CLIENT_CODES.noResponse,
      errorClass: "transient",
      action: "retry_same_key",
      message: `${op.id}: no response (${failure.message}).`,
      operation: op.id,
      operationId,
      outcome: "rejected",
      cause: failure.cause ?? e,
    });
  }

  private responseError(op: OperationSpec, response: Response, body: unknown, key: string | null, operationId: string): ContractError {
    const wire = recognizeError(this.contract.errorFormat ?? ENVELOPE_FORMAT, response.status, body, op.errors, this.contract.taxonomy, op.bindings);
    const code = wire.wireCode;
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
    if (wire.code !== null && wire.entry !== null) {
      // Only the envelope says whether the operation took effect; another format's 5xx answer to a mutation may have.
      const outcome: Outcome = wire.outcome ?? (this.contract.errorFormat && this.contract.errorFormat.style !== "envelope" && op.mutating && response.status >= 500 ? "unknown" : "rejected");
      return errorForClass({
        code: wire.code,
        errorClass: wire.entry.class,
        action: wire.entry.action,
        message: wire.message ?? `${op.id} failed with ${wire.code}.`,
        field: wire.field,
        wireField: wire.wireField,
        operation: op.id,
        operationId: wire.operationId ?? operationId,
        outcome,
        status: response.status,
        details: wire.details,
        retryAfterMs,
      });
    }
    // A generated skeleton whose handler is still the stub: said as such, not as an undeclared error.
    if (isStubAnswer(this.contract.errorFormat ?? ENVELOPE_FORMAT, response.status, wire)) {
      return new InternalError({
        code: CLIENT_CODES.notImplemented,
        errorClass: "internal",
        action: "stop_and_surface",
        message: `${op.id}: ${notImplementedMessage(op.id, op.handlerFile)}; nothing was executed.`,
        operation: op.id,
        operationId,
        outcome: "rejected",
        status: response.status,
        details: body,
      });
    }
    // No contract error: a gateway in between failed. For a mutation that may have gone through.
    if ([502, 503, 504].includes(response.status)) {
      if (op.mutating && op.idempotent === "none") {
        return new UnknownOutcomeError({ code: CLIENT_CODES.noResponse, message: `${op.id}: HTTP ${response.status} from an intermediary; the outcome is unknown.`, operation: op.id, operationId, operationKey: key, status: response.status });
      }
      return new TransientError({ code: CLIENT_CODES.noResponse, errorClass: "transient", action: "retry_same_key", message: `${op.id}: HTTP ${response.status} from an intermediary.`, operation: op.id, operationId, outcome: "unknown", status: response.status, retryAfterMs });
    }
    return new InternalError({
      code: CLIENT_CODES.undeclaredCode,
      errorClass: "internal",
      action: "stop_and_surface",
      message:
        (this.contract.errorFormat?.style ?? "envelope") === "envelope"
          ? `${op.id}: HTTP ${response.status}${code ? ` with undeclared error code ${code}` : " without a contract error body"}.`
          : `${op.id}: HTTP ${response.status}${code ? ` with error code ${code}` : ""}, which no declared error of the contract matches.`,
      operation: op.id,
      operationId,
      outcome: op.mutating && response.status >= 500 ? "unknown" : "rejected",
      status: response.status,
      details: body,
    });
  }
}

/** The outcome a journal entry records, as the call that settled it saw it: its result, or its error again. */
function recordedOutcome<O>(op: OperationSpec, entry: JournalEntry): O {
  if (entry.status === "completed") return entry.result as O;
  const e = (entry.result ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof e[name] === "string" ? (e[name] as string) : null);
  const errorClass = text("class") as ErrorClass | null;
  throw errorForClass({
    code: text("code") ?? CLIENT_CODES.undeclaredCode,
    errorClass: errorClass ?? "internal",
    action: (text("action") as RecoveryAction | null) ?? "stop_and_surface",
    message: text("message") ?? `${op.id} was rejected.`,
    field: text("field"),
    wireField: text("wireField"),
    operation: op.id,
    operationId: entry.key,
    outcome: "rejected",
    status: typeof e.status === "number" ? e.status : null,
    details: e.details ?? null,
  });
}

export interface EncodedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON or form text, or multipart bytes; undefined without a body. */
  readonly body: string | ArrayBuffer | undefined;
}

/** Encode an operation's input as an HTTP request, following its field bindings (wire-request.ts). */
export function buildRequest(op: OperationSpec, input: Input, baseUrl: string): EncodedRequest {
  const { method, url, headers, body } = encodeRequest(op, input, baseUrl);
  return { method, url, headers, body };
}
