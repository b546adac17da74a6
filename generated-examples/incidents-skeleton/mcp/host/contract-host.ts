/**
 * The contract host: executes one operation of a contract the way docs/wire-protocol.md says, with
 * the platform's handlers supplying only the domain logic. Authentication, scopes, input validation,
 * idempotency keys, preview/confirm tokens, preconditions, page-size bounds, projection, output
 * checks and the error envelope are all derived from the contract model here, once, for every
 * platform. It knows nothing about HTTP: the HTTP server (host.ts) decodes requests into inputs, and
 * another front end (an MCP server) can call invoke() the same way.
 */
import { createHash, randomUUID } from "node:crypto";
import { type ErrorClass, type HostContract, type HostIdempotency, type HostOperation, type HostPreview, hostAuthKind, type JsonSchema } from "./contract.js";
import { canonicalJson, hashValue, without } from "./canonical.js";
import { type Confirmation, newConfirmation, type TokenRefusal } from "./confirm-tokens.js";
import { CursorCodec } from "./cursors.js";
import { FALLBACK_ERRORS, NotImplementedError, PlatformError, type PlatformErrorOptions, codeForClass } from "./errors.js";
import type { JournalKey } from "./idempotency-journal.js";
import type { SeededDefect } from "./seeded-defects.js";
import type { Database } from "./sqlite.js";
import { CommitUnconfirmedError, type HostStore, type KeyLease, type SqlClient, type StoreAccess, type StoreTransaction } from "./store.js";
import { SqliteHostStore } from "./store-sqlite.js";
import { type FieldProblem, SchemaValidator } from "./validation.js";
import { ENVELOPE_FORMAT, encodeError } from "../../sdk/runtime/wire-errors.js";

export type { Confirmation } from "./confirm-tokens.js";
export type { SeededDefect } from "./seeded-defects.js";
export type { HostStore, SqlClient } from "./store.js";

// ---------------------------------------------------------------------------------------------
// What handlers see and provide

/** Who is calling, as established from the credential. */
export interface Caller {
  readonly id: string;
  hasScope(scope: string): boolean;
}

/** A credential the host accepts: the caller it identifies and the scopes it grants ("*" = all). */
export interface Credential {
  readonly caller: string;
  readonly scopes: readonly string[];
}

/**
 * Everything a handler may use. Handlers stay free of HTTP and of the contract's behaviours: they
 * read and write their tables and throw PlatformError with contract codes.
 */
export interface HandlerContext {
  readonly model: HostContract;
  readonly operation: HostOperation;
  /**
   * The SQLite database the host keeps its records in (SQLite store). Inside a mutation, statements
   * run in the transaction that also records the response. On the PostgreSQL store, reading it throws: use `sql`.
   */
  readonly db: Database;
  /**
   * The PostgreSQL session (PostgreSQL store; null on SQLite): inside a mutation, the connection of
   * the transaction that also records the response and spends the confirm token, so a throw (or a
   * crash) rolls the handler's writes back with them.
   */
  readonly sql: SqlClient | null;
  readonly caller: Caller;
  readonly requestId: string;
  /** The platform clock (injectable, so tests can expire tokens, keys and cursors). */
  now(): Date;
  /** Signs and reads cursors and continuations (see paging.ts). */
  readonly cursors: CursorCodec;
  readonly faults: Faults;
  /** Set only on a reference platform seeded with a defect on purpose (seeded-defects.ts); handlers ignore it. */
  readonly seededDefect?: SeededDefect;
  /** An error with the operation's invalid_input code, naming `field`. */
  invalidInput(field: string | null, message: string, details?: Readonly<Record<string, unknown>>): PlatformError;
}

/**
 * A handler is a function of the validated input, or an object with stages when the operation has
 * behaviours that need the domain's help:
 * - `preview` for operations with `preview` (the dry run; the host adds and stores the confirm token);
 * - `target` for operations with `preconditions` (the record the expectations are compared with).
 *
 * Input parameters are typed `never` here so a handler can declare its own input type: the host only
 * calls it with input that passed the contract's input schema. Any stage may be async. A mutation's
 * stages run inside one store transaction with the precondition check, the token redemption and the
 * journal entry; on SQLite an async stage holds the database's queue while it awaits.
 */
export type HandlerFunction = (input: never, ctx: HandlerContext) => unknown;

export interface StagedHandler {
  /** The dry run: the expected effect, without changing anything. */
  preview?(input: never, ctx: HandlerContext, confirmation: Confirmation): unknown;
  /** The record the preconditions compare against; throws the not_found error when it is missing. */
  target?(input: never, ctx: HandlerContext): unknown;
  /**
   * True when the input would change nothing on `target`: preconditions are then not checked, so a
   * retry after a lost response succeeds (natural idempotency).
   */
  unchanged?(input: never, target: never): boolean;
  execute(input: never, ctx: HandlerContext, target: never): unknown;
}

export type OperationHandler = HandlerFunction | StagedHandler;

/**
 * One handler per operation of the contract, by operation id: an object literal (own properties
 * only are read) or a Map.
 */
export type Handlers = Readonly<Record<string, OperationHandler>> | ReadonlyMap<string, OperationHandler>;

/** The handlers by operation id; a name like `constructor` never resolves to an inherited member. */
function handlerMap(handlers: Handlers): ReadonlyMap<string, OperationHandler> {
  return handlers instanceof Map ? handlers : new Map(Object.entries(handlers));
}

/**
 * Failures a test can switch on. The object is read on every request, so a test may change it
 * while the platform runs; "once" lists are consumed as they fire.
 */
export interface Faults {
  /** Operations whose next call fails with the contract's transient error, before executing. */
  transientOnce?: string[];
  /**
   * Keyed operations whose next execution commits (its effect and its recorded outcome) and then
   * answers the contract's transient error, outcome unknown, as when a dependency times out after
   * the write: a retry under the same key gets the recorded outcome.
   */
  transientAfterCommitOnce?: string[];
  /** Operations whose next call is rate limited, before executing. */
  rateLimitedOnce?: string[];
  /** Retry-After (seconds) of rate-limited answers; default 1. */
  retryAfterSeconds?: number;
  /** Pages of a paginated operation that come back partial (see paging.ts). */
  partialPages?: PartialPageFault[];
  /** Milliseconds to wait, after reserving an idempotency key, before executing (widens races). */
  executionDelayMs?: Record<string, number>;
}

export interface PartialPageFault {
  readonly operation: string;
  /** 1-based page number within a traversal. */
  readonly page: number;
  /** Items left out of the page (default 1). */
  readonly missing?: number;
  readonly error: { readonly code: string; readonly message: string; readonly source?: string };
}

// ---------------------------------------------------------------------------------------------
// The host

/** What the host answers: a status, headers and the JSON text of the body. */
export interface HostResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Exactly the bytes sent; a replay repeats them. */
  readonly body: string;
}

export interface Invocation {
  readonly operation: HostOperation;
  /** The decoded input, not yet validated. */
  readonly input: Readonly<Record<string, unknown>>;
  /** Problems the front end found while decoding the request (reported as invalid input). */
  readonly decodeProblems?: readonly FieldProblem[];
  /** null when the request carried no valid credential. */
  readonly caller: Caller | null;
  readonly requestId: string;
}

export interface ContractHostOptions {
  readonly model: HostContract;
  readonly handlers: Handlers;
  /**
   * Where the host keeps its records (journal, confirm tokens, cursor secret): a SQLite database
   * (which also holds the platform's tables, as `ctx.db`), or a store (store-postgres.ts for replicas).
   */
  readonly db?: Database;
  readonly store?: HostStore;
  /** Accepted credentials by token. */
  readonly credentials: ReadonlyMap<string, Credential>;
  readonly now?: () => Date;
  readonly faults?: Faults;
  /**
   * How long a request waits for a concurrent request holding the same key (default 30 s). On SQLite
   * that is one in another process: in this one, a claim waits its turn (store-sqlite.ts).
   */
  readonly keyWaitMs?: number;
  /** Where unexpected failures are reported (never with credentials). */
  readonly log?: (line: string) => void;
  /**
   * Break one promise of the contract on purpose (seeded-defects.ts), so a test suite can prove it
   * notices. Only reference platforms set it; absent, the host behaves as the contract says.
   */
  readonly seededDefect?: SeededDefect;
}

const KEY_POLL_MS = 10;

/** One request, as the steps of invoke() pass it on. */
interface RequestScope {
  readonly op: HostOperation;
  readonly caller: Caller;
  readonly requestId: string;
  readonly cursors: CursorCodec;
}

export class ContractHost {
  readonly model: HostContract;
  readonly faults: Faults;
  private readonly handlers: ReadonlyMap<string, OperationHandler>;
  private readonly store: HostStore;
  private readonly credentials: ReadonlyMap<string, Credential>;
  private readonly now: () => Date;
  private readonly keyWaitMs: number;
  private readonly log: (line: string) => void;
  private readonly defect: SeededDefect | null;
  private readonly validator = new SchemaValidator();
  private readonly cursors: Promise<CursorCodec>;
  private readonly raisedByHost = new WeakSet<PlatformError>();
  /**
   * Keys whose execution committed and was answered with a transient failure (transientAfterCommitOnce),
   * with that answer; only the transient-after-commit seeded defects read them.
   */
  private readonly failedAfterCommit = new Map<string, HostResponse>();

  constructor(options: ContractHostOptions) {
    this.model = options.model;
    this.handlers = handlerMap(options.handlers);
    if ((options.db === undefined) === (options.store === undefined)) throw new Error("A contract host needs a database or a store (one of them).");
    this.store = options.store ?? new SqliteHostStore(options.db as Database);
    this.credentials = new Map([...options.credentials].map(([token, credential]) => [digest(token), credential]));
    this.now = options.now ?? (() => new Date());
    this.faults = options.faults ?? {};
    this.keyWaitMs = options.keyWaitMs ?? 30_000;
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.defect = options.seededDefect ?? null;
    checkHandlers(this.model, this.handlers);
    this.cursors = this.store.cursorSecret().then((secret) => new CursorCodec(secret));
    this.cursors.catch(() => undefined); // Reported by the first invoke() that awaits it.
  }

  /** The caller a presented token identifies, or null. Contracts without auth admit everyone. */
  authenticate(token: string | null): Caller | null {
    if (hostAuthKind(this.model.transport.auth) === "none") return makeCaller({ caller: "anonymous", scopes: ["*"] });
    if (token === null || token === "") return null;
    const credential = this.credentials.get(digest(token));
    return credential ? makeCaller(credential) : null;
  }

  /** Execute one call and answer it; never throws. */
  async invoke(call: Invocation): Promise<HostResponse> {
    const op = call.operation;
    const key = op.idempotency ? call.input[op.idempotency.keyField] : undefined;
    // The envelope names the operation instance: its key for keyed mutations, else the request.
    const operationId = typeof key === "string" && key !== "" ? key : call.requestId;
    try {
      const caller = this.authorize(op, call.caller, call.input);
      const input = this.validInput(op, call.input, call.decodeProblems ?? []);
      this.injectFaults(op);
      const request: RequestScope = { op, caller, requestId: call.requestId, cursors: await this.cursors };
      if (op.preview && this.isDryRun(op.preview, input)) return await this.preview(request, op.preview, input);
      // A key-less execution the contract allows (idempotency.keyRequired: false) is a separate intent: nothing to replay it by.
      if (op.idempotency && input[op.idempotency.keyField] !== undefined) return await this.executeOnce(request, op.idempotency, input);
      const status = op.http.successStatus;
      if (op.effects.kind === "read") {
        return respond(status, await this.store.read(async (access) => this.encodeOutput(op, input, await this.runHandler(input, this.context(request, access)), op.output.schema)));
      }
      return respond(status, await this.store.transaction((tx) => this.mutate(request, input, tx)));
    } catch (error) {
      return this.failure(op, error, operationId);
    }
  }

  /** The envelope for a failure outside any operation (unknown route, unreadable request). */
  rejectRequest(code: string, message: string, requestId: string, headers: Record<string, string> = {}): HostResponse {
    return this.envelope(new PlatformError(code, message), requestId, headers);
  }

  // -- steps of invoke() -----------------------------------------------------------------------

  private authorize(op: HostOperation, caller: Caller | null, input: Readonly<Record<string, unknown>>): Caller {
    if (!caller) {
      throw this.fail(op, "unauthenticated", "The request carries no valid credential; authenticate and retry.");
    }
    if (this.defect === "preview-skips-scopes" && op.preview && this.isDryRun(op.preview, input)) return caller;
    const missing = op.scopes.filter((scope) => !caller.hasScope(scope));
    if (missing.length > 0) {
      if (this.defect === "permission-as-transient") throw this.fail(op, "transient", `${op.names.id} could not be authorised just now; retry.`);
      throw this.fail(op, "permission", `${op.names.id} needs the scope ${missing.join(", ")}, which this caller does not have.`, {
        details: { missing_scopes: missing },
      });
    }
    return caller;
  }

  private validInput(op: HostOperation, input: Readonly<Record<string, unknown>>, decodeProblems: readonly FieldProblem[]): Record<string, unknown> {
    const skipSchema = decodeProblems.length > 0 || this.defect === "ignores-invalid-input";
    const problems = [...decodeProblems, ...(skipSchema ? [] : this.validator.problems(op.input.schema, input))];
    for (const p of op.preconditions) {
      if (p.required && input[p.field] === undefined) problems.push({ field: p.field, message: `${p.field} is required` });
    }
    // The operation key is required to execute, not to preview (a previewable operation leaves it out of
    // input.required), unless the contract accepts key-less executions (idempotency.keyRequired: false).
    const key = op.idempotency?.keyRequired === false ? undefined : op.idempotency?.keyField;
    if (op.preview && key !== undefined && input[key] === undefined && !this.isDryRun(op.preview, input)) {
      problems.push({ field: key, message: `${key} is required to execute ${op.names.id}` });
    }
    const page = op.pagination;
    const limit = page && page.limitField !== null ? input[page.limitField] : undefined;
    if (page && page.limitField !== null && page.limitMax !== null && typeof limit === "number" && limit > page.limitMax) {
      problems.push({ field: page.limitField, message: `${page.limitField} must be <= ${page.limitMax}` });
    }
    const first = problems[0];
    if (first) {
      throw this.fail(op, "invalid_input", first.message, {
        field: first.field,
        details: problems.length > 1 ? { problems } : null,
      });
    }
    return { ...input };
  }

  private injectFaults(op: HostOperation): void {
    const id = op.names.id;
    if (consume(this.faults.rateLimitedOnce, id)) {
      const seconds = this.faults.retryAfterSeconds ?? 1;
      throw this.fail(op, "rate_limited", `Too many requests; retry after ${seconds} s.`, { retryAfterSeconds: seconds });
    }
    if (consume(this.faults.transientOnce, id)) {
      throw this.fail(op, "transient", "An upstream dependency did not answer in time; nothing was executed. Retry.");
    }
  }

  /** Whether the call previews (isDryRun), unless a seeded defect takes an omitted flag for an execution. */
  private isDryRun(preview: HostPreview, input: Readonly<Record<string, unknown>>): boolean {
    if (input[preview.dryRunField] === undefined) {
      if (this.defect === "dry-run-default-ignored") return false;
      if (this.defect === "token-without-flag-executes" && input[preview.confirmTokenField] !== undefined) return false;
    }
    return isDryRun(preview, input);
  }

  /** What a handler sees, reaching the store through `access` (a transaction inside a mutation). */
  private context(request: RequestScope, access: StoreAccess): HandlerContext {
    const { op, caller, requestId, cursors } = request;
    const invalidCode = codeForClass(this.model, op, "invalid_input");
    const ctx = {
      model: this.model,
      operation: op,
      sql: access.sql,
      caller,
      requestId,
      now: this.now,
      cursors,
      faults: this.faults,
      ...(this.defect ? { seededDefect: this.defect } : {}),
      invalidInput: (field: string | null, message: string, details?: Readonly<Record<string, unknown>>) => new PlatformError(invalidCode, message, { field, details: details ?? null }),
    };
    const db = access.db;
    return Object.defineProperty(ctx, "db", {
      enumerable: true,
      get: (): Database => {
        if (db === null) throw new Error(`${op.names.id}: this host keeps its records in ${this.store.kind}, not SQLite: the handler reaches it as ctx.sql.`);
        return db;
      },
    }) as HandlerContext;
  }

  private async preview(request: RequestScope, preview: HostPreview, input: Record<string, unknown>): Promise<HostResponse> {
    const op = request.op;
    const handler = this.handlers.get(op.names.id) as StagedHandler & Required<Pick<StagedHandler, "preview">>;
    const confirmation = newConfirmation(this.now().getTime(), preview.ttlMs);
    const body = await this.store.read(async (access) => {
      const ctx = this.context(request, access);
      // A preview fails on a stale expectation exactly as the execution would, before any token exists.
      if (this.defect !== "precondition-only-at-execution") await this.checkedTarget(op, handler, input, ctx, false);
      const output = await handler.preview(input as never, ctx, confirmation);
      if (output === null || typeof output !== "object" || Array.isArray(output)) {
        throw new Error(`The preview handler of ${op.names.id} returned no object.`);
      }
      return this.encodeOutput(op, input, { ...output, [preview.confirmTokenField]: confirmation.token }, preview.output?.schema ?? true);
    });
    await this.store.storeToken(confirmation, op.names.id, request.caller.id, paramsHash(op, input), this.now().getTime());
    return respond(200, body);
  }

  private async executeOnce(request: RequestScope, idempotency: HostIdempotency, input: Record<string, unknown>): Promise<HostResponse> {
    const op = request.op;
    const ref: JournalKey = {
      // Keys are scoped to their operation: one key space per operation.
      operation: this.defect === "key-shared-across-operations" ? "" : op.names.id,
      scope: idempotency.scope === "global" ? "" : request.caller.id,
      key: String(input[idempotency.keyField]),
    };
    const hash = paramsHash(op, input);
    const seeded = this.afterCommitDefect(request, ref, input);
    if (seeded) return await seeded;
    const giveUpAt = Date.now() + this.keyWaitMs;
    let lease: KeyLease;
    for (;;) {
      const claim = await this.store.claimKey(ref, hash, idempotency.retentionMs, this.now().getTime(), this.defect);
      if (claim.kind === "claimed") {
        lease = claim.lease;
        break;
      }
      if (claim.kind === "replay") return respond(claim.status, claim.body, { "Idempotent-Replayed": "true" });
      if (claim.kind === "mismatch") {
        throw this.hostError(
          idempotency.mismatchError ?? "IDEMPOTENCY_KEY_REUSED",
          `${idempotency.keyField} was already used for ${op.names.id} with different parameters; nothing was executed.`,
        );
      }
      // Another request with this key and these parameters is executing (on SQLite: another process
      // is writing, perhaps it): wait for its answer.
      if (Date.now() > giveUpAt) {
        throw this.fail(op, "transient", `A request with this ${idempotency.keyField} is still executing; retry with the same key.`);
      }
      await sleep(KEY_POLL_MS);
    }
    try {
      const delay = this.faults.executionDelayMs?.[op.names.id];
      if (delay) await sleep(delay);
      const status = op.http.successStatus;
      const body = await lease.execute(status, (tx) => this.mutate(request, input, tx));
      if (consume(this.faults.transientAfterCommitOnce, op.names.id)) return this.transientAfterCommit(op, ref);
      return respond(status, body);
    } catch (error) {
      await lease.release();
      throw error;
    }
  }

  /** The transient failure answered after a commit (transientAfterCommitOnce): the outcome is unknown to the caller, the key holds it. */
  private transientAfterCommit(op: HostOperation, ref: JournalKey): HostResponse {
    const error = this.fail(op, "transient", "An upstream dependency did not answer in time after the change was written: it may have taken effect. Retry with the same operation key to get its outcome.");
    const answer = this.envelope(error, ref.key, {}, "unknown");
    if (this.defect === "transient-after-commit-not-replayed" || this.defect === "transient-after-commit-executes-again") this.failedAfterCommit.set(journalKeyText(ref), answer);
    return answer;
  }

  /**
   * The transient-after-commit seeded defects, for a key whose commit was answered with a transient
   * failure: the failure again (not-replayed), or a new execution outside the journal (executes-again).
   */
  private afterCommitDefect(request: RequestScope, ref: JournalKey, input: Record<string, unknown>): Promise<HostResponse> | null {
    const failure = this.failedAfterCommit.get(journalKeyText(ref));
    if (failure === undefined) return null;
    if (this.defect === "transient-after-commit-not-replayed") return Promise.resolve(failure);
    this.failedAfterCommit.delete(journalKeyText(ref));
    const status = request.op.http.successStatus;
    return this.store.transaction((tx) => this.mutate(request, input, tx)).then((body) => respond(status, body));
  }

  /**
   * A mutation inside its store transaction, with everything that must commit or roll back with it:
   * the confirm-token redemption, the precondition check and (the caller's) journal entry.
   */
  private async mutate(request: RequestScope, input: Record<string, unknown>, tx: StoreTransaction): Promise<string> {
    const op = request.op;
    if (op.preview) await this.redeemConfirmToken(op, op.preview, input, request.caller, tx);
    const output = await this.runHandler(input, this.context(request, tx));
    return this.encodeOutput(op, input, output, op.output.schema);
  }

  private async runHandler(input: Record<string, unknown>, ctx: HandlerContext): Promise<unknown> {
    const op = ctx.operation;
    const handler = this.handlers.get(op.names.id);
    if (typeof handler === "function") return await handler(input as never, ctx);
    if (!handler) throw new Error(`No handler for ${op.names.id}.`);
    return await handler.execute(input as never, ctx, (await this.checkedTarget(op, handler, input, ctx, true)) as never);
  }

  /** The handler's target record, with the operation's preconditions checked against it (previews and executions alike). */
  private async checkedTarget(op: HostOperation, handler: StagedHandler, input: Record<string, unknown>, ctx: HandlerContext, execution: boolean): Promise<unknown> {
    if (!handler.target) return undefined;
    const target = await handler.target(input as never, ctx);
    const trusted = this.defect === "precondition-not-rechecked-at-execution" && execution && op.preview !== null;
    if (!trusted && !handler.unchanged?.(input as never, target as never)) this.checkPreconditions(op, input, target);
    return target;
  }

  private async redeemConfirmToken(op: HostOperation, preview: HostPreview, input: Record<string, unknown>, caller: Caller, tx: StoreTransaction): Promise<void> {
    const refusal = await tx.redeemToken(
      { token: input[preview.confirmTokenField], operation: op.names.id, caller: caller.id, paramsHash: paramsHash(op, input), singleUse: preview.singleUse, defect: this.defect },
      this.now().getTime(),
    );
    if (refusal) {
      throw this.hostError(preview.invalidTokenError ?? "CONFIRMATION_REQUIRED", `${refusalText(refusal, preview.confirmTokenField)} Nothing was executed: preview these exact parameters (${preview.dryRunField}: true) and pass back its ${preview.confirmTokenField}.`, {
        details: { reason: refusal },
      });
    }
  }

  private checkPreconditions(op: HostOperation, input: Record<string, unknown>, target: unknown): void {
    const record = (target ?? {}) as Record<string, unknown>;
    if (this.defect === "ignores-expected-revision") return;
    for (const p of op.preconditions) {
      const expected = input[p.field];
      if (expected === undefined) continue;
      const current = record[p.compares];
      const loose = this.defect === "precondition-case-insensitive" && typeof expected === "string" && typeof current === "string";
      if (loose ? expected.toLowerCase() !== current.toLowerCase() : canonicalJson(expected) !== canonicalJson(current)) {
        throw this.hostError(p.error, `${p.field} is ${canonicalJson(expected)} but the current ${p.compares} is ${canonicalJson(current)}; nothing was changed. Re-read and decide again.`, {
          field: p.field,
          details: { [p.compares]: current },
        });
      }
    }
  }

  /** Apply the projection, check the output against the contract, and serialize it. */
  private encodeOutput(op: HostOperation, input: Record<string, unknown>, output: unknown, schema: JsonSchema): string {
    const projected = project(op, input, output, this.defect === "leaks-unprojected-field");
    const problems = this.validator.problems(schema, projected);
    if (problems.length > 0) {
      throw new Error(`The ${op.names.id} handler produced output the contract does not allow: ${problems.map((p) => p.message).join("; ")}`);
    }
    return JSON.stringify(projected);
  }

  /** A failure the host itself raises: its code comes from codeForClass or a behaviour of the operation. */
  private fail(op: HostOperation, cls: ErrorClass, message: string, options: PlatformErrorOptions = {}): PlatformError {
    return this.hostError(codeForClass(this.model, op, cls), message, options);
  }

  private hostError(code: string, message: string, options: PlatformErrorOptions = {}): PlatformError {
    const error = new PlatformError(code, message, options);
    this.raisedByHost.add(error);
    return error;
  }

  private failure(op: HostOperation, error: unknown, operationId: string): HostResponse {
    if (error instanceof PlatformError) {
      const listed = op.errors.some((ref) => ref.code === error.code);
      const known = this.model.errors.some((e) => e.code === error.code) || FALLBACK_ERRORS[error.code] !== undefined;
      // Handlers may only raise what the operation lists; a code outside it is a handler bug.
      const detailsProblem = this.detailsProblem(error);
      if (detailsProblem) this.log(`${op.names.id}: ${error.code} carries details the contract does not allow: ${detailsProblem}`);
      // A handler not filled in yet says so with the host's own code, whatever the operation lists.
      else if (listed || (known && (this.raisedByHost.has(error) || error instanceof NotImplementedError))) return this.envelope(error, operationId);
      else this.log(`${op.names.id}: raised ${error.code}, which the operation does not list: ${error.message}`);
    } else if (error instanceof CommitUnconfirmedError) {
      this.log(`${op.names.id}: ${error.message}`);
      const unconfirmed = this.fail(op, "internal", "The platform lost its database connection while committing this call: it may have taken effect. Retry with the same operation key to get its outcome.");
      return this.envelope(unconfirmed, operationId, {}, "unknown");
    } else {
      this.log(`${op.names.id}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    const internal = this.fail(op, "internal", "The platform failed unexpectedly; nothing was changed.");
    return this.envelope(internal, operationId);
  }

  /** Why an error's details break the schema its code declares (`errors.<CODE>.details`), or null. */
  private detailsProblem(error: PlatformError): string | null {
    const schema = this.model.errors.find((e) => e.code === error.code)?.details?.schema;
    if (schema === undefined || error.details === null) return null;
    const problems = this.validator.problems(schema, error.details);
    return problems.length > 0 ? problems.map((p) => p.message).join("; ") : null;
  }

  private envelope(error: PlatformError, operationId: string, headers: Record<string, string> = {}, outcome: "rejected" | "unknown" = "rejected"): HostResponse {
    const declared = this.model.errors.find((e) => e.code === error.code);
    const code = this.defect === "undeclared-error-code" && declared?.class === "not_found" ? "NOT_FOUND" : error.code;
    const status = declared?.httpStatus ?? FALLBACK_ERRORS[error.code]?.httpStatus ?? 500;
    const extra: Record<string, string> = { ...headers };
    if (error.retryAfterSeconds !== null) extra["Retry-After"] = String(error.retryAfterSeconds);
    if (status === 401 && hostAuthKind(this.model.transport.auth) === "bearer") extra["WWW-Authenticate"] = "Bearer";
    const format = this.model.transport.errorFormat ?? ENVELOPE_FORMAT;
    const generic = this.defect === "code-member-by-status" && format.style !== "envelope";
    const encoded = encodeError(format, {
      code,
      entry: generic ? { wire: "error" } : declared && code === declared.code ? { wire: declared.wire ?? null } : null,
      status,
      message: error.message,
      // The field the taxonomy ties the code to, unless the raiser named a more precise one.
      field: error.field ?? declared?.field ?? null,
      details: error.details,
      operationId,
      // Every rejection happens before or inside a rolled-back transaction: nothing took effect. Only
      // a commit whose acknowledgement was lost leaves the outcome unknown.
      outcome,
    });
    // The envelope's media type is the front end's default (JSON); another one is said.
    if (format.style === "problem") extra["Content-Type"] = encoded.contentType;
    return respond(status, JSON.stringify(encoded.body), extra);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** sha256 of canonical JSON of every input field except the key, the dry-run flag and the confirm token. */
export function paramsHash(op: HostOperation, input: Readonly<Record<string, unknown>>): string {
  return hashValue(without(input, [op.idempotency?.keyField ?? null, op.preview?.dryRunField ?? null, op.preview?.confirmTokenField ?? null]));
}

function isDryRun(preview: HostPreview, input: Readonly<Record<string, unknown>>): boolean {
  const flag = input[preview.dryRunField];
  return flag === true || (flag === undefined && preview.defaultDryRun);
}

/** Keep only the selected properties (plus identity) of each projected record; `leak` is a seeded defect keeping one more. */
function project(op: HostOperation, input: Readonly<Record<string, unknown>>, output: unknown, leak = false): unknown {
  const projection = op.projection;
  const selected = projection ? input[projection.field] : undefined;
  if (!projection || !Array.isArray(selected)) return output;
  const keep = new Set<unknown>([...projection.identity, ...selected]);
  const trim = (record: unknown) => {
    if (record === null || typeof record !== "object") return record;
    const leaked = leak ? Object.keys(record).find((k) => !keep.has(k)) : undefined;
    return Object.fromEntries(Object.entries(record).filter(([k]) => keep.has(k) || k === leaked));
  };
  const itemsField = op.pagination?.itemsField;
  if (itemsField === undefined) return trim(output);
  // A page that is itself the array: each element is an item.
  if (itemsField === null) return Array.isArray(output) ? output.map(trim) : output;
  const page = output as Record<string, unknown>;
  const items = page[itemsField];
  return Array.isArray(items) ? { ...page, [itemsField]: items.map(trim) } : output;
}

function checkHandlers(model: HostContract, handlers: ReadonlyMap<string, OperationHandler>): void {
  const problems: string[] = [];
  for (const op of model.operations) {
    const handler = handlers.get(op.names.id);
    if (!handler) problems.push(`no handler for ${op.names.id}`);
    else if (op.preview && (typeof handler === "function" || !handler.preview)) problems.push(`${op.names.id} has a preview: its handler needs preview() and execute()`);
    else if (op.preconditions.length > 0 && (typeof handler === "function" || !handler.target)) {
      problems.push(`${op.names.id} has preconditions: its handler needs target() and execute()`);
    }
  }
  for (const id of handlers.keys()) if (!model.operations.some((op) => op.names.id === id)) problems.push(`${id} is not an operation of ${model.name}`);
  if (problems.length > 0) throw new Error(`Handlers for ${model.name}: ${problems.join("; ")}.`);
}

function refusalText(refusal: TokenRefusal, field: string): string {
  switch (refusal) {
    case "missing":
      return `No ${field} was given.`;
    case "unknown":
      return `The ${field} was not issued by a preview of this operation.`;
    case "other_parameters":
      return `The ${field} was issued for different parameters.`;
    case "expired":
      return `The ${field} has expired.`;
    case "used":
      return `The ${field} was already used.`;
  }
}

/** The caller a credential identifies (front ends that establish identity themselves use this). */
export function makeCaller(credential: Credential): Caller {
  const scopes = new Set(credential.scopes);
  return { id: credential.caller, hasScope: (scope) => scopes.has("*") || scopes.has(scope) };
}

/** A journal key as one string (operation, scope and key cannot run into each other). */
function journalKeyText(ref: JournalKey): string {
  return JSON.stringify([ref.operation, ref.scope, ref.key]);
}

function consume(list: string[] | undefined, id: string): boolean {
  const at = list?.indexOf(id) ?? -1;
  if (at < 0) return false;
  list?.splice(at, 1);
  return true;
}

function respond(status: number, body: string, headers: Record<string, string> = {}): HostResponse {
  // 204 No Content has no body (RFC 9110 §15.3.5): the output is null, which clients read from the empty body.
  return { status, headers, body: status === 204 ? "" : body };
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A fresh request id, for requests that came without X-Request-Id. */
export function newRequestId(): string {
  return randomUUID();
}

