/**
 * The contract test suite's harness: the contract facts the checks need, the implementer's fixture, and
 * an HTTP caller that speaks the wire protocol (docs/wire-protocol.md) directly. It deliberately does not
 * go through the generated SDK: the SDK's input validation, retries and journal would hide exactly the
 * server faults the suite is meant to find.
 */
import type { ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { randomUUID } from "node:crypto";
import type { ContractInfo } from "../../sdk/runtime/client.js";
import { type FilterRecord, type OperationRecord, operationRecords, storedSchemas } from "../../sdk/runtime/data.js";
import { exchange, readBodyBytes, TransportFailure, transportFailure } from "../../sdk/runtime/transport.js";
import type { TaxonomyEntry } from "../../sdk/runtime/errors.js";
import { ENVELOPE_FORMAT, type ErrorFormat, inputFieldOf, isStubAnswer, notImplementedMessage, PROBLEM_DEFAULTS, PROBLEM_MEDIA_TYPE, recognizeError, STUB_ERROR_STATUS, valueAt, wireCodeOf } from "../../sdk/runtime/wire-errors.js";
import { encodeRequest, nonJsonResult, type WireBinding } from "../../sdk/runtime/wire-request.js";
import { type AuthAlternatives, type AuthScheme, authSchemes, basicAuthorization, type ContractAuth, type CredentialParts, type CredentialValues, credentialSecrets, NO_CREDENTIALS, resolveCredentials, withCredentials } from "../../sdk/runtime/credentials.js";
import { maskSecrets, registerSecret } from "./mask.js";
import { NOT_IMPLEMENTED_REASON } from "./report.js";

const addFormats = addFormatsModule.default;

export type Schema = { readonly [keyword: string]: unknown } | boolean;

/** Where an input field goes on the wire and how it is serialized: the SDK's binding (wire-request.ts). */
export type BindingSpec = WireBinding;

export interface ErrorSpec {
  readonly class: string;
  readonly action: string;
  readonly http: number;
  readonly field: string | null;
  readonly details: Schema | null;
  /** What the platform puts at the error format's code pointer (`wire`); absent or null: the code. */
  readonly wire?: string | null;
}

export interface OperationSpec {
  readonly id: string;
  /** Where a generated skeleton keeps this operation's handler; absent in specs emitted before it was known. */
  readonly handlerFile?: string;
  readonly method: string;
  readonly path: string;
  readonly bindings: readonly BindingSpec[];
  readonly successStatus: number;
  /** Every status that counts as success (`successStatus` as a list); absent in specs emitted before lists existed. */
  readonly successStatuses?: readonly number[];
  /** The input field sent as the whole JSON body (`http.body`); absent or null: body fields are its properties. */
  readonly body?: string | null;
  /** Media type of the request body; absent: application/json. */
  readonly contentType?: string;
  /** A body is sent even when no body field is given. */
  readonly bodyRequired?: boolean;
  /** The media type asked for; absent: application/json. */
  readonly accept?: string | null;
  /** The operation's own credential alternatives (absent: the contract's); [] = public. */
  readonly auth?: AuthAlternatives;
  readonly kind: "read" | "mutating";
  readonly input: Schema;
  readonly output: Schema;
  /** Codes the operation may answer with. */
  readonly errors: readonly string[];
  readonly idempotency: { readonly keyField: string; readonly mismatchError: string | null } | null;
  readonly preview: {
    readonly dryRunField: string;
    readonly confirmTokenField: string;
    readonly invalidTokenError: string | null;
    readonly ttlMs: number;
    readonly output: Schema | null;
  } | null;
  /**
   * Each expectation: its input field, the target property it `compares` with, whether the input
   * requires it, and the error a stale one fails with (`compares`/`required` absent in specs emitted
   * before they were known).
   */
  readonly preconditions: ReadonlyArray<{ readonly kind: "revision" | "value"; readonly field: string; readonly error: string; readonly compares?: string; readonly required?: boolean }>;
  /**
   * The read operation whose output is the target the preconditions compare with (`target.readWith`,
   * declared or inferred); null when none. A check re-reads the expected values with it before each
   * execution it makes. Absent in specs emitted before it was known.
   */
  readonly readWith?: string | null;
  /** `effects.destructive`; absent in specs emitted before it was known. */
  readonly destructive?: boolean;
  readonly pagination: {
    /** Absent means cursor (specs emitted before styles existed). */
    readonly style?: "cursor" | "next-link" | "page" | "offset";
    readonly cursorField: string | null;
    readonly nextCursorField: string | null;
    /** Next-link style: the output field with the next URL, or "header" for the Link header. */
    readonly nextLink?: { readonly field: string } | "header" | null;
    readonly pageField?: string | null;
    readonly firstPage?: 0 | 1;
    readonly offsetField?: string | null;
    /** Null when the output itself is the page's array. */
    readonly itemsField: string | null;
    readonly limitField: string | null;
    /** Null when the contract knows no page-size bound. */
    readonly limitMax: number | null;
    readonly totalField: string | null;
    readonly partialField: string | null;
    readonly errorsField: string | null;
  } | null;
  /** Scopes a caller needs (`scopes`); absent in specs emitted before they were known. */
  readonly scopes?: readonly string[];
  /** `projection`: the input field selecting properties, those it may select, and those always returned. */
  readonly projection?: { readonly field: string; readonly selectable: readonly string[]; readonly identity: readonly string[] } | null;
  /**
   * `effects.undo`: the operation that undoes this one, the read operation that shows this one's target
   * (`target.readWith`, null when none), and the undo operation's expectations with the target property each
   * compares (its preconditions), so the suite can build the undo call from what it reads back.
   */
  readonly undo?: {
    readonly operation: string;
    readonly readWith: string | null;
    readonly expectations: ReadonlyArray<{ readonly field: string; readonly compares: string }>;
  } | null;
  /**
   * The operation's task scope (a bounded, resumable scan such as a count): the output fields saying
   * how much was examined, whether that was everything, how to resume, and the answer. Absent or null
   * when the operation is not task-level.
   */
  /**
   * `filters`: the input fields that narrow the result set, each with its meaning (record property
   * and match) when the contract gives one; absent when none (or in specs emitted before they were known).
   */
  readonly filters?: readonly FilterRecord[];
  readonly task?: {
    readonly recordsExaminedField: string;
    readonly completeField: string;
    readonly continuationField: string | null;
    readonly answerField: string | null;
  } | null;
  /**
   * What the behaviour checks (checks-behaviour.ts) read: the read operation showing the target
   * (`target.readWith`, declared or inferred; null when none), `effects.destructive` and
   * `effects.idempotent`, the target property each precondition compares (by index), and the
   * preview output's expiry field. Absent in specs emitted before it existed.
   */
  readonly behaviour?: {
    readonly readWith: string | null;
    readonly destructive: boolean;
    readonly idempotent: string;
    readonly compares: readonly string[];
    readonly expiresAtField: string | null;
    /**
     * The target's revision field when the record has one (a revision precondition's `compares`, or
     * a `revision` property of what the target read answers: the contract's default): every mutation
     * must advance it. Absent in specs emitted before it existed.
     */
    readonly revisionField?: string | null;
  } | null;
  /**
   * What the stateful checks (checks-stateful.ts) read: whether omitting the dry-run field previews
   * (`preview.default`; null without a preview) and how long the platform keeps an operation key
   * (`idempotency.retention` in ms; null without one). Absent in specs emitted before they were known.
   */
  readonly stateful?: { readonly defaultDryRun: boolean | null; readonly keyRetentionMs: number | null } | null;
}

export interface ContractSpec {
  readonly name: string;
  readonly version: string;
  /** The contract's per-request timeout (`http.timeout`); absent in specs emitted before it was known. */
  readonly timeoutMs?: number;
  /** The single forms (`header`: the API key's) or, for `type: "schemes"`, the named schemes and alternatives. */
  readonly auth:
    | { readonly type: "none" | "bearer" | "apiKey"; readonly header: string | null }
    | { readonly type: "schemes"; readonly header: null; readonly schemes: readonly AuthScheme[]; readonly require: AuthAlternatives };
  /** The error taxonomy: code → declared class, action, status, field and details schema. */
  readonly taxonomy: ReadonlyMap<string, ErrorSpec>;
  /** How the platform reports errors (`errorFormat`); absent: contractgen's envelope. */
  readonly errorFormat?: ErrorFormat;
  readonly operations: readonly OperationSpec[];
}

/**
 * The contract as the checks read it, from the SDK of the package under test: the package-wide facts
 * (`info`: sdk/contract.ts's CONTRACT, with the error taxonomy) and, through the runtime's one reader,
 * the operation table and stored schemas in `sdkDir` (sdk/operations.json, sdk/schemas.json). The
 * suite repeats none of them.
 */
export function contractSpec(info: ContractInfo, sdkDir: URL): ContractSpec {
  const records = operationRecords(sdkDir);
  const schemas = storedSchemas(sdkDir);
  const stored = (name: string): Schema => schemas.bundled(name) as Schema;
  // A Map: codes are contract names, never plain-object keys.
  const taxonomy = new Map<string, ErrorSpec>();
  for (const [code, e] of Object.entries(info.taxonomy)) {
    taxonomy.set(code, { class: e.class, action: e.action, http: e.http, field: e.field ?? null, details: e.detailsSchema !== undefined ? stored(e.detailsSchema) : null, ...(e.wire !== undefined ? { wire: e.wire } : {}) });
  }
  const operations = [...records].map(([id, r]) => operationSpecOf(id, r, records, stored));
  return {
    name: info.name,
    version: info.version,
    timeoutMs: info.timeoutMs,
    auth: info.auth.type === "schemes" ? { ...info.auth, header: null } : { type: info.auth.type, header: info.auth.type === "apiKey" ? info.auth.header : null },
    taxonomy,
    ...(info.errorFormat !== undefined ? { errorFormat: info.errorFormat } : {}),
    operations,
  };
}

/** One operation as the checks read it, from its record in the operation table. */
function operationSpecOf(id: string, r: OperationRecord, records: ReadonlyMap<string, OperationRecord>, stored: (name: string) => Schema): OperationSpec {
  const page = r.pagination;
  const undo = r.undo === null ? undefined : records.get(r.undo);
  return {
    id,
    ...(r.handlerFile !== undefined ? { handlerFile: r.handlerFile } : {}),
    method: r.method,
    path: r.path,
    bindings: r.bindings,
    successStatus: r.successStatuses[0] ?? 200,
    successStatuses: r.successStatuses,
    body: r.bodyField ?? null,
    ...(r.contentType !== undefined ? { contentType: r.contentType } : {}),
    ...(r.bodyRequired !== undefined ? { bodyRequired: r.bodyRequired } : {}),
    ...(r.accept !== undefined ? { accept: r.accept } : {}),
    ...(r.auth !== undefined ? { auth: r.auth } : {}),
    kind: r.mutating ? "mutating" : "read",
    input: stored(r.validateInput),
    output: stored(r.validateOutput),
    errors: r.errors,
    idempotency: r.keyField !== null && r.idempotent === "key" ? { keyField: r.keyField, mismatchError: r.keyMismatchError ?? null } : null,
    preview: r.preview
      ? { dryRunField: r.preview.dryRunField, confirmTokenField: r.preview.confirmTokenField, invalidTokenError: r.preview.invalidTokenError, ttlMs: r.preview.ttlMs, output: r.validatePreview !== null ? stored(r.validatePreview) : null }
      : null,
    preconditions: r.preconditions,
    readWith: r.readWith,
    destructive: r.destructive,
    pagination: page
      ? {
          ...(page.style !== undefined && page.style !== "cursor"
            ? { style: page.style, nextLink: page.nextLink == null ? null : page.nextLink.kind === "header" ? ("header" as const) : { field: page.nextLink.field }, pageField: page.pageField ?? null, firstPage: page.firstPage, offsetField: page.offsetField ?? null }
            : {}),
          cursorField: page.cursorField,
          nextCursorField: page.nextCursorField,
          itemsField: page.itemsField,
          limitField: page.limitField,
          limitMax: page.limitMax,
          totalField: page.totalField,
          partialField: page.partialField,
          errorsField: page.errorsField,
        }
      : null,
    scopes: r.scopes,
    projection: r.projection,
    undo: undo
      ? { operation: r.undo!, readWith: r.readWith, expectations: undo.preconditions.map((c) => ({ field: c.field, compares: c.compares })) }
      : null,
    ...(r.filters.length > 0 ? { filters: r.filters } : {}),
    behaviour: {
      readWith: r.readWith,
      destructive: r.destructive,
      idempotent: r.idempotent,
      compares: r.preconditions.map((c) => c.compares),
      expiresAtField: r.preview?.expiresAtField ?? null,
      revisionField: r.revisionField,
    },
    task: r.task,
    stateful: { defaultDryRun: r.preview?.defaultDryRun ?? null, keyRetentionMs: r.keyRetentionMs ?? null },
  };
}

export type Input = Record<string, unknown>;

/** Marks an input the suite derived (derive.ts): a symbol, never sent, kept by object spread, ignored by JSON. */
export const DERIVED = Symbol("derived input");

/** How an input was derived, and whom to tell when the implementation refuses it (so the next derivation avoids it). */
export interface DerivationMark {
  readonly how: string;
  refused?(code: string): void;
}

/** How the input was derived, when it was; undefined for the implementer's own inputs. */
export function derivationOf(input: unknown): DerivationMark | undefined {
  if (input === null || typeof input !== "object") return undefined;
  const mark = (input as { [DERIVED]?: DerivationMark })[DERIVED];
  return mark !== undefined && typeof mark.how === "string" ? mark : undefined;
}

/**
 * Data sets the suite may ask for (Fixture.resetWith):
 * - "default": what reset() seeds;
 * - "empty": no records at all (every list is one empty page, every count examines nothing);
 * - "mixed": records of every kind the operations' filters, predicates and visibility rules tell
 *   apart (e.g. drafts and prereleases beside stable releases); a fixture whose default data set
 *   already is mixed may serve that.
 */
export type DataSet = "default" | "empty" | "mixed";

/** The state Fixture.resetWith brings the implementation to. */
export interface ResetOptions {
  /** The records to start from (default "default"). */
  readonly dataset?: DataSet;
  /**
   * Lower the bound on records one call of a task operation examines to this many (a test setting
   * of the platform), so a small data set takes several calls and continuations. The suite picks a
   * bound below what a complete run examines; seeding thousands of records is never needed.
   */
  readonly maxExaminedPerCall?: number;
}

/**
 * What a skipped check needs that the fixture did not give: the fixture may word how its user gives it
 * (Fixture.enabler). `contractgen test` names its flags and samples-file entries; a generated package's
 * suite names the fixture members.
 */
export type Enabler =
  | { readonly kind: "sample"; readonly operation: string; readonly variant: number }
  /** Not a remedy: how a skip reason names a sample (its origin), e.g. "fixture.sampleInput(…)". */
  | { readonly kind: "sampleName"; readonly operation: string; readonly variant: number }
  | { readonly kind: "error"; readonly operation: string; readonly code: string }
  | { readonly kind: "observe" }
  | { readonly kind: "clock"; readonly purpose: string }
  | { readonly kind: "tokenWithout"; readonly scope: string }
  | { readonly kind: "undo"; readonly operation: string }
  | { readonly kind: "resetWith"; readonly purpose: string }
  | { readonly kind: "degrade"; readonly operation: string }
  | { readonly kind: "failAfterCommit"; readonly operation: string; readonly purpose: string };

/** The fixture whose wording skip reasons use (the suite's one Harness sets it). */
let wordingFixture: Fixture | undefined;

/** How to give what `need` names, in the fixture's words; undefined: word it as the fixture member to add. */
export function enablerWording(need: Enabler): string | undefined {
  return wordingFixture?.enabler?.(need);
}

/** How skip reasons name the sample `variant` of `operation`: in the fixture's words, else the fixture call giving it. */
export function sampleName(operation: string, variant = 0): string {
  return enablerWording({ kind: "sampleName", operation, variant }) ?? `fixture.sampleInput(${JSON.stringify(operation)}, ${variant})`;
}

/** What the implementer provides (tests/fixture.ts, or the module named by CONTRACT_FIXTURE). */
export interface Fixture {
  /**
   * How the fixture's user gives what a skipped check needs (a flag, a file entry), worded as a skip
   * reason's remedy; undefined keeps the default wording, which names the fixture member to add.
   */
  enabler?(need: Enabler): string | undefined;
  /** Base URL of the implementation under test (read before every request: reset may move it). */
  readonly baseUrl: string;
  /** Credential sent as the contract's auth declares (bearer token or API key). */
  readonly token?: string;
  /** Credentials by scheme name (a contract with `transport.auth.schemes`); a scheme not given is read from its environment variables. */
  readonly credentials?: CredentialValues;
  /** Called once before the suite and after it. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** Bring the implementation back to its known initial state (called before every case). */
  reset(): Promise<void>;
  /**
   * Parameters of a call of `operation` known to succeed from the initial state, without the operation
   * key, dry-run flag or confirm token (the suite adds those). `variant` 1 asks for different parameters
   * that also succeed (used for "changed parameters" cases); return undefined when there are none.
   */
  sampleInput(operation: string, variant?: number): Input | undefined;
  /** A snapshot of everything an operation may change (compared as JSON to detect effects). */
  observe?(): Promise<unknown>;
  /** Move the implementation's clock forward (to expire confirm tokens); without it expiry is not checked. */
  advanceTime?(ms: number): Promise<void>;
  /**
   * Parameters that make `operation` fail with the declared error `code` from the reset state (called
   * after reset; it may prepare the implementation, e.g. arm an upstream timeout). Without the operation
   * key (the suite adds one) and, for a previewable operation, sent as a preview unless it sets the
   * dry-run field. undefined: the fixture cannot provoke it (the case is skipped, unless the contract
   * alone can: invalid input, a missing credential).
   */
  errorInput?(operation: string, code: string): Input | undefined | Promise<Input | undefined>;
  /**
   * A credential the implementation accepts that grants every scope of the contract except `scope`
   * (same caller); undefined when there is none. Without it permission errors are not checked.
   */
  tokenWithout?(scope: string): string | undefined;
  /**
   * The call that undoes `operation` after it ran with `input` and answered `output`, for operations
   * whose contract names an undo (`effects.undo`) but whose undo parameters the suite cannot derive from
   * the contract (no read operation for the target). Without the operation key or confirm token.
   */
  undoInput?(operation: string, input: Input, output: unknown): Input | undefined;
  /**
   * Like reset(), into the state `options` describe (another data set, a lower per-call bound of task
   * operations). Resolve false when the implementation cannot take that state: the cases needing it
   * are skipped, saying why. Without it, empty/mixed data sets and bounded tasks are not checked.
   */
  resetWith?(options: ResetOptions): Promise<boolean>;
  /**
   * Until the next reset, make part of the store behind the paginated `operation` fail (a shard or
   * replica that times out), so a traversal misses records, as in production. The implementation
   * must then say so on the page concerned (the contract's partial and/or errors fields). The suite
   * traverses with pages of about a third of the data set, so a failure on the first page is followed
   * by clean pages. Resolve false when `operation` cannot be degraded (its cases are skipped).
   */
  degrade?(operation: string): Promise<boolean>;
  /**
   * What a complete run of the task operation `operation` with `input` gives on the default data
   * set: the records it examines and, optionally, its answer (the contract's answer field). Without
   * it the suite compares a bounded run with an unbounded one only.
   */
  taskResult?(operation: string, input: Input): { readonly recordsExamined: number; readonly answer?: unknown } | undefined;
  /**
   * Arm a failure after commit: the next execution of the keyed `operation` commits its effect (and
   * its recorded outcome) and then answers the contract's transient error (class transient, action
   * retry_same_key), as when a dependency times out after the write. Resolve false when the
   * implementation cannot be made to. Without it, a transient refusal after commit followed by a
   * retry under the same key is not checked.
   */
  failAfterCommit?(operation: string): Promise<boolean>;
}

/** A broken promise of the contract: the message names the promise, the request and what came back. */
export class ContractViolation extends Error {
  override name = "ContractViolation";
}

export interface Exchange {
  readonly request: { readonly method: string; readonly url: string; readonly body: unknown };
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  /** How the suite derived the input sent (derive.ts), when it did: a refusal of it is no violation. */
  readonly derived?: DerivationMark;
}

/**
 * The implementation refused an input the suite derived without the implementer (derive.ts) with an
 * error the operation declares: the derivation guessed wrong about its data, which is no broken
 * promise. The check is reported as skipped with this message.
 */
export class DerivedInputRefused extends Error {
  override name = "DerivedInputRefused";
}

/** At most `max` characters of `text`, saying how many were cut (a failure message stays readable in every report). */
function clipped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * `what` broke; the exchange is appended so a failure shows what was sent and what came back. Every
 * credential the suite sent is masked (before clipping: a clipped message keeps no part of one).
 */
export function violation(what: string, exchange?: Exchange): ContractViolation {
  if (!exchange) return new ContractViolation(maskSecrets(what));
  const shown = exchange.body === undefined ? undefined : maskSecrets(JSON.stringify(exchange.body) ?? "");
  const sent = exchange.request.body === undefined ? "" : ` ${clipped(maskSecrets(JSON.stringify(exchange.request.body) ?? ""), 2000)}`;
  return new ContractViolation(
    `${maskSecrets(what)}\n  request: ${exchange.request.method} ${clipped(maskSecrets(exchange.request.url), 1000)}${sent}\n  response: ${exchange.status} ${shown === undefined ? "" : clipped(shown, 2000)}`,
  );
}

/**
 * The implementation answered with a generated skeleton's stub (501 with the stub's code): the
 * operation is not implemented yet, so there is no promise to judge. The check is reported as
 * skipped with this message (NOT_IMPLEMENTED_REASON, then what to fill in), never as a violation.
 */
export class OperationNotImplemented extends Error {
  override name = "OperationNotImplemented";
}

/** Operations whose stub answered in this process, with the skip reason: a check of one without a sample says that instead. */
const stubbed = new Map<string, string>();

/** Why `operation`'s checks cannot run when it answered as a stub in this process, else undefined. */
export function notImplementedReason(operation: string): string | undefined {
  return stubbed.get(operation);
}

/**
 * The suite could not get an answer to judge (timeout, connection refused or reset, a body over the
 * limit, a redirect it does not follow): not a broken promise of the contract by itself, and reported
 * as such. The message names the cause, never fetch's bare "fetch failed".
 */
export class TransportProblem extends Error {
  override name = "TransportProblem";
}

/**
 * Limits of the suite's requests, from the environment `contractgen test` sets (or the implementer
 * does): CONTRACT_REQUEST_TIMEOUT_MS (default: the contract's own timeout, else 30 s),
 * CONTRACT_MAX_RESPONSE_BYTES (default 8 MiB, after decompression), CONTRACT_MAX_REDIRECTS (default 5)
 * and CONTRACT_SUITE_DEADLINE (epoch ms after which no request is sent).
 */
export interface SuiteLimits {
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxRedirects: number;
  readonly deadline: number | null;
}

export const DEFAULT_SUITE_LIMITS = { requestTimeoutMs: 30_000, maxResponseBytes: 8 * 1024 * 1024, maxRedirects: 5 } as const;

function positiveInteger(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got ${JSON.stringify(raw.slice(0, 40))}`);
  return n;
}

export function suiteLimits(contract: ContractSpec): SuiteLimits {
  const deadline = process.env.CONTRACT_SUITE_DEADLINE ? positiveInteger("CONTRACT_SUITE_DEADLINE", 0) : null;
  return {
    requestTimeoutMs: positiveInteger("CONTRACT_REQUEST_TIMEOUT_MS", contract.timeoutMs ?? DEFAULT_SUITE_LIMITS.requestTimeoutMs),
    maxResponseBytes: positiveInteger("CONTRACT_MAX_RESPONSE_BYTES", DEFAULT_SUITE_LIMITS.maxResponseBytes),
    maxRedirects: positiveInteger("CONTRACT_MAX_REDIRECTS", DEFAULT_SUITE_LIMITS.maxRedirects, 0),
    deadline,
  };
}

/**
 * An implementation that stops answering must not cost a timeout per check (a suite has hundreds of
 * requests): after UNANSWERED_LIMIT requests in a row time out, or OPERATION_UNANSWERED_LIMIT of one
 * operation (a hang in one handler), later requests of the suite, or of that operation, fail at once.
 * Any answer clears the count. Shared by every harness of the process (the suite runs in one).
 */
const UNANSWERED_LIMIT = 3;
const OPERATION_UNANSWERED_LIMIT = 2;
const unanswered = { inARow: 0, byOperation: new Map<string, number>() };

export interface CallOptions {
  /** Another credential for this call; null sends none. */
  readonly token?: string | null;
  /** A next-page link to GET instead of the operation's URL (same origin as the base URL only). */
  readonly url?: string;
}

export class Harness {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly compiled = new Map<Schema, ValidateFunction>();
  private limitsRead: SuiteLimits | undefined;

  constructor(
    readonly contract: ContractSpec,
    readonly fixture: Fixture,
  ) {
    addFormats(this.ajv);
    wordingFixture = fixture;
  }

  /**
   * Throws TransportProblem, naming `what` was not sent, once the suite's deadline has passed or the
   * implementation (or `op`) stopped answering (UNANSWERED_LIMIT, OPERATION_UNANSWERED_LIMIT).
   */
  expectAnswering(op: OperationSpec, what: string): void {
    const limits = this.limits;
    if (limits.deadline !== null && Date.now() >= limits.deadline) {
      throw new TransportProblem(maskSecrets(`${what}: not sent, the suite's time limit is reached (CONTRACT_SUITE_DEADLINE, contractgen test --suite-timeout)`));
    }
    const silent = unanswered.inARow >= UNANSWERED_LIMIT ? `the implementation did not answer the last ${unanswered.inARow} requests`
      : (unanswered.byOperation.get(op.id) ?? 0) >= OPERATION_UNANSWERED_LIMIT ? `${op.id} did not answer its last ${unanswered.byOperation.get(op.id)} requests`
      : null;
    if (silent !== null) throw new TransportProblem(maskSecrets(`${what}: not sent, ${silent} within ${limits.requestTimeoutMs} ms (CONTRACT_REQUEST_TIMEOUT_MS)`));
  }

  /** The suite's request limits (read from the environment at the first request). */
  get limits(): SuiteLimits {
    return (this.limitsRead ??= suiteLimits(this.contract));
  }

  operation(id: string): OperationSpec {
    const op = this.contract.operations.find((o) => o.id === id);
    if (!op) throw new Error(`no operation ${id} in the contract`);
    return op;
  }

  /**
   * What the credential of a call adds to its request, and every value to mask. `token` undefined: the
   * fixture's credentials (or the environment's) for the operation's first complete alternative; null:
   * none; a string: that value in place of every credential the operation's first alternative sends
   * (a wrong credential, for the unauthenticated checks).
   */
  private credentialFor(op: OperationSpec, token: string | null | undefined): { parts: CredentialParts; secrets: string[] } {
    const auth = this.contract.auth as ContractAuth & { header: string | null };
    // Specs emitted before named schemes: the API key's header is \`header\`.
    const contractAuth: ContractAuth = auth.type === "apiKey" ? { type: "apiKey", header: auth.header ?? "", tokenEnv: "" } : auth.type === "bearer" ? { type: "bearer", tokenEnv: "" } : auth;
    if (token === null) return { parts: NO_CREDENTIALS, secrets: [] };
    if (token !== undefined || auth.type === "bearer" || auth.type === "apiKey") {
      const value = token === undefined ? this.fixture.token : token;
      if (value === undefined) return { parts: NO_CREDENTIALS, secrets: [] };
      const { schemes, require } = authSchemes(contractAuth);
      const first = (op.auth ?? require)[0] ?? [];
      const credentials = new Map<string, string | { username: string; password: string }>();
      for (const name of first) {
        const scheme = schemes.find((s) => s.name === name);
        if (scheme) credentials.set(name, scheme.type === "basic" ? { username: value, password: value } : value);
      }
      const resolved = resolveCredentials(contractAuth, first.length > 0 ? [first] : [], { credentials, env: {} });
      const secrets = [value, ...(schemes.some((s) => s.type === "basic") ? [basicAuthorization(value, value)] : [])];
      return { parts: "parts" in resolved ? resolved.parts : NO_CREDENTIALS, secrets };
    }
    const sources = { ...(this.fixture.credentials !== undefined ? { credentials: this.fixture.credentials } : {}), ...(this.fixture.token !== undefined ? { token: this.fixture.token } : {}), env: process.env };
    const resolved = resolveCredentials(contractAuth, op.auth, sources);
    return { parts: "parts" in resolved ? resolved.parts : NO_CREDENTIALS, secrets: credentialSecrets(contractAuth, sources) };
  }

  /** Send `input` to `op` as the wire protocol binds it; nothing is validated or retried on the way. */
  async call(op: OperationSpec, input: Input, options: CallOptions = {}): Promise<Exchange> {
    const base = this.fixture.baseUrl.replace(/\/+$/, "");
    // The SDK's encoder (wire-request.ts); fields the contract does not bind (the "extra property"
    // cases) travel in the body, or the query of a GET, where the server must refuse them.
    const derived = derivationOf(input);
    const plain = encodeRequest({ ...op, bodyField: op.body ?? null }, input, base, { unbound: "send" });
    const credential = this.credentialFor(op, options.token);
    // The SDK's credential placement (credentials.ts): headers, query parameters, cookies.
    const withCredential = withCredentials(plain.url, { ...plain.headers }, credential.parts);
    const encoded = { ...plain, url: withCredential.url };
    const headers = new Headers(withCredential.headers);
    headers.set("x-request-id", randomUUID());
    // Following a next-page link is a plain GET of that URL: no body travels with it.
    const followsLink = options.url !== undefined;
    const sent: unknown = followsLink ? undefined : encoded.sent;
    const hasBody = !followsLink && encoded.body !== undefined;
    if (!hasBody) {
      headers.delete("content-type");
    }
    if (options.url !== undefined && new URL(options.url, base).origin !== new URL(base).origin) {
      throw violation(`${op.id}: a next-page link points to another origin (${new URL(options.url, base).origin}); the suite does not send the credential there`);
    }
    const url = options.url !== undefined ? new URL(options.url, base).href : encoded.url;
    const method = followsLink ? "GET" : op.method;
    const limits = this.limits;
    const where = `${op.id}: ${method} ${url}`;
    this.expectAnswering(op, where);
    for (const secret of credential.secrets) registerSecret(secret);
    let response: Response;
    let bytes: Uint8Array;
    try {
      // Only requests safe to send twice may be re-sent by a redirect; no credential goes to another origin.
      // A keyed operation's call is safe to resend only with its key (one the contract lets a call leave out is a separate intent without it).
      const resendable = op.kind === "read" || (op.idempotency !== null && (followsLink || Object.hasOwn(input, op.idempotency.keyField)));
      const signal = AbortSignal.timeout(limits.requestTimeoutMs);
      const headerRecord: Record<string, string> = Object.create(null) as Record<string, string>;
      headers.forEach((value, name) => (headerRecord[name] = value));
      const exchanged = await exchange(
        fetch,
        { url, method, headers: headerRecord, signal, ...(hasBody ? { body: encoded.body } : {}) },
        // Another origin is never followed: what the suite reads ends up in its reports (CI artifacts),
        // and a redirect to an internal address must not put that address's answer there.
        { limits, resendable, sameOriginOnly: true },
        limits.requestTimeoutMs,
      );
      response = exchanged.response;
      bytes = await readBodyBytes(response, limits.maxResponseBytes, limits.requestTimeoutMs);
    } catch (e) {
      const failure = e instanceof TransportFailure ? e : transportFailure(e, false, limits.requestTimeoutMs);
      if (failure.kind === "timeout") {
        unanswered.inARow++;
        unanswered.byOperation.set(op.id, (unanswered.byOperation.get(op.id) ?? 0) + 1);
      }
      throw new TransportProblem(maskSecrets(`${where}: ${failure.message}`), { cause: e });
    }
    unanswered.inARow = 0;
    unanswered.byOperation.delete(op.id);
    // An operation asking for another media type (a PDF, text) gets that answer as text or base64, as from the SDK.
    const other = response.status >= 200 && response.status < 300 ? nonJsonResult(op, response.headers.get("content-type"), bytes) : null;
    const how = derived !== undefined ? { derived } : {};
    if (other !== null) return { request: { method, url, body: sent }, status: response.status, headers: response.headers, body: other.value, ...how };
    const text = new TextDecoder().decode(bytes);
    let parsed: unknown = text;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: kept as text, and reported by whichever check expected JSON.
    }
    if (response.status === STUB_ERROR_STATUS) this.expectImplemented(op, response.status, parsed);
    return { request: { method, url, body: sent }, status: response.status, headers: response.headers, body: parsed, ...how };
  }

  /** Throws OperationNotImplemented when the answer is a generated skeleton's stub (isStubAnswer, as the SDK reads it). */
  private expectImplemented(op: OperationSpec, status: number, body: unknown): void {
    const format = this.contract.errorFormat ?? ENVELOPE_FORMAT;
    const wire = recognizeError(format, status, body === undefined ? null : body, op.errors, this.wireTaxonomy(), op.bindings);
    if (!isStubAnswer(format, status, wire)) return;
    const reason = maskSecrets(`${NOT_IMPLEMENTED_REASON}${notImplementedMessage(op.id, op.handlerFile)}`);
    stubbed.set(op.id, reason);
    throw new OperationNotImplemented(reason);
  }

  validator(schema: Schema): ValidateFunction {
    let v = this.compiled.get(schema);
    if (!v) {
      v = this.ajv.compile(schema);
      this.compiled.set(schema, v);
    }
    return v;
  }

  /** The response is a success whose body matches `schema` (the operation's output, or its preview output). */
  expectSuccess(op: OperationSpec, exchange: Exchange, schema: Schema = op.output, what = "a successful call"): Record<string, unknown> {
    // An answer that did not come through call() (a proxy's record) may be a stub's too.
    if (exchange.status === STUB_ERROR_STATUS) this.expectImplemented(op, exchange.status, exchange.body);
    if (exchange.status < 200 || exchange.status > 299) {
      // An error is still checked against the taxonomy first: an undeclared code is the sharper message.
      if (exchange.status >= 400) {
        const refused = this.expectDeclaredError(op, exchange);
        if (exchange.derived !== undefined) throw this.derivedRefusal(op, exchange, refused.code);
      }
      throw violation(`${op.id}: expected ${what} (${(op.successStatuses ?? [op.successStatus]).join(" or ")}), got ${exchange.status}`, exchange);
    }
    // A result (not a preview) comes with one of the listed statuses.
    if (schema === op.output && op.successStatuses && !op.successStatuses.includes(exchange.status)) {
      throw violation(`${op.id}: expected ${what} with status ${op.successStatuses.join(" or ")}, got ${exchange.status}, which the contract does not list`, exchange);
    }
    // No body (204, Content-Length 0) is the result null, as the SDK reads it.
    const result = exchange.body === undefined ? null : exchange.body;
    const validate = this.validator(schema);
    if (!validate(result)) {
      const e = validate.errors?.[0];
      throw violation(`${op.id}: response does not match the declared output schema: ${e?.instancePath || "/"} ${e?.message ?? ""}`, exchange);
    }
    return result as Record<string, unknown>;
  }

  /**
   * What to throw when the implementation refused a derived input (`exchange.derived`) with the
   * declared `code`: the check is skipped, and the derivation told, so the next one avoids the object.
   */
  derivedRefusal(op: OperationSpec, exchange: Exchange, code: string): DerivedInputRefused {
    exchange.derived?.refused?.(code);
    const remedy = enablerWording({ kind: "sample", operation: op.id, variant: 0 }) ?? `give fixture.sampleInput(${JSON.stringify(op.id)}, 0) parameters that succeed`;
    return new DerivedInputRefused(maskSecrets(`${op.id} refused the input the suite derived (${exchange.derived?.how ?? "derived"}) with ${code}, a declared error — ${remedy}`));
  }

  /**
   * The response is an error the contract allows, in the error format it declares: the code is one the
   * operation lists, the status is the taxonomy's. With the envelope (the default), the envelope has the
   * documented shape and details match the declared schema; `envelope` is its `error` member. With
   * problem or body, the body is a JSON object; with any other format, the code is recognised as the
   * SDK recognises it (the value at the code pointer, else the status).
   */
  expectDeclaredError(op: OperationSpec, exchange: Exchange): DeclaredError {
    if (exchange.status < 400) throw violation(`${op.id}: expected an error response, got ${exchange.status}`, exchange);
    if (exchange.status === STUB_ERROR_STATUS) this.expectImplemented(op, exchange.status, exchange.body);
    const format = this.contract.errorFormat ?? ENVELOPE_FORMAT;
    if (format.style !== "envelope") return this.expectDeclaredWireError(op, exchange, format);
    const envelope = exchange.body as { error?: Record<string, unknown> } | undefined;
    const error = envelope && typeof envelope === "object" ? envelope.error : undefined;
    if (!error || typeof error !== "object") throw violation(`${op.id}: error response without an error envelope { error: { code, message, … } }`, exchange);
    const validate = this.validator(ERROR_ENVELOPE);
    if (!validate(envelope)) {
      const e = validate.errors?.[0];
      throw violation(`${op.id}: error envelope does not match the wire protocol: ${e?.instancePath || "/"} ${e?.message ?? ""}`, exchange);
    }
    const code = error.code as string;
    const spec = this.contract.taxonomy.get(code);
    if (!spec || !op.errors.includes(code)) throw violation(`${op.id}: error code ${code} is not declared for this operation (undeclared error code)`, exchange);
    if (exchange.status !== spec.http) throw violation(`${op.id}: ${code} answered with status ${exchange.status}, the taxonomy declares ${spec.http}`, exchange);
    const details = error.details ?? null;
    if (details !== null && spec.details !== null) {
      const v = this.validator(spec.details);
      if (!v(details)) throw violation(`${op.id}: details of ${code} do not match the declared schema: ${v.errors?.[0]?.instancePath || "/"} ${v.errors?.[0]?.message ?? ""}`, exchange);
    }
    const reported = typeof error.field === "string" ? error.field : null;
    const field = reported === null ? null : inputFieldOf(op.bindings, reported);
    return { code, spec, field, wireField: field !== reported ? reported : null, details, envelope: error };
  }

  /** Whether the contract's error format can name the input field at fault: the envelope, or a format with a `field` pointer. */
  get errorsNameFields(): boolean {
    const format = this.contract.errorFormat;
    return format === undefined || format.style === "envelope" || format.field !== null;
  }

  /** expectDeclaredError for the problem, body and status formats: the code read as the SDK reads it. */
  private expectDeclaredWireError(op: OperationSpec, exchange: Exchange, format: ErrorFormat): DeclaredError {
    const body = exchange.body;
    const isObject = body !== null && typeof body === "object" && !Array.isArray(body);
    if (format.style !== "status" && !isObject) {
      throw violation(`${op.id}: error response without ${format.style === "problem" ? "a problem details object (RFC 9457)" : "a JSON object body"}, as the contract's error format (${format.style}) declares`, exchange);
    }
    if (format.style === "problem") {
      // RFC 9457: said by the media type, or at least by the members a problem has.
      const media = exchange.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
      const members = ["type", "title", "detail"].some((m) => typeof (body as Record<string, unknown>)[m] === "string");
      if (media !== PROBLEM_MEDIA_TYPE && !members) {
        throw violation(`${op.id}: error response is not problem details (RFC 9457): neither ${PROBLEM_MEDIA_TYPE} nor a type, title or detail member, as the contract's error format (problem) declares`, exchange);
      }
    }
    if (format.style === "body" && format.code !== null && valueAt(body, format.code) === undefined) {
      throw violation(`${op.id}: error body has no code at ${format.code}, where the contract's error format (body) puts it`, exchange);
    }
    const wire = recognizeError(format, exchange.status, body === undefined ? null : body, op.errors, this.wireTaxonomy(), op.bindings);
    if (wire.code === null) {
      const named = wire.wireCode !== null ? `error code ${JSON.stringify(wire.wireCode)} at ${format.code}` : `status ${exchange.status}`;
      throw violation(`${op.id}: ${named} names no error the operation declares (undeclared error code)`, exchange);
    }
    const spec = this.contract.taxonomy.get(wire.code)!;
    if (!op.errors.includes(wire.code)) throw violation(`${op.id}: error code ${wire.code} is not declared for this operation (undeclared error code)`, exchange);
    if (exchange.status !== spec.http) throw violation(`${op.id}: ${wire.code} answered with status ${exchange.status}, the taxonomy declares ${spec.http}`, exchange);
    this.expectCodeMember(op, exchange, format, wire.code, wire.wireCode);
    return { code: wire.code, spec, field: wire.field, wireField: wire.wireField, details: wire.details, envelope: null };
  }

  /**
   * Where the error format names a code member, the error must carry the code there: the status
   * alone selecting a declared error is not enough. RFC 9457's own `type` is the exception: a problem
   * without one, or with `about:blank`, says no more than its status (RFC 9457 §4.2.1), and a `type`
   * naming no code is read by its status too unless the contract binds its codes to `type` values
   * (`wire`).
   */
  private expectCodeMember(op: OperationSpec, exchange: Exchange, format: ErrorFormat, code: string, sent: string | null): void {
    if (format.code === null || format.style === "status") return;
    const expected = wireCodeOf(code, this.wireTaxonomy()[code]!);
    if (sent === expected) return;
    if (format.style === "problem" && format.code === PROBLEM_DEFAULTS.code) {
      const bindsTypes = [...this.contract.taxonomy.values()].some((e) => typeof e.wire === "string" && e.wire !== "");
      if (sent === null || sent === "about:blank" || !bindsTypes) return;
    }
    const said = sent === null ? "carries no code there" : `carries ${JSON.stringify(sent)} there`;
    throw violation(`${op.id}: the error format puts the code at ${format.code}: this ${code} (status ${exchange.status}) must carry ${JSON.stringify(expected)} there, but the error ${said}; only its status matches ${code}`, exchange);
  }

  /** The taxonomy as the runtime's recognizer takes it (an object without a prototype: codes are never inherited keys). */
  private wireTaxonomy(): Readonly<Record<string, TaxonomyEntry>> {
    if (this.wireTaxonomyCache === undefined) {
      const taxonomy = Object.create(null) as Record<string, TaxonomyEntry>;
      for (const [code, spec] of this.contract.taxonomy) {
        taxonomy[code] = { class: spec.class as TaxonomyEntry["class"], action: spec.action as TaxonomyEntry["action"], http: spec.http, ...(spec.wire ? { wire: spec.wire } : {}) };
      }
      this.wireTaxonomyCache = taxonomy;
    }
    return this.wireTaxonomyCache;
  }

  private wireTaxonomyCache: Readonly<Record<string, TaxonomyEntry>> | undefined;

  async snapshot(): Promise<string | undefined> {
    return this.fixture.observe ? JSON.stringify(await this.fixture.observe()) : undefined;
  }
}

/** A declared error as the checks read it: its code and taxonomy entry, the input field it names, its details. */
export interface DeclaredError {
  readonly code: string;
  readonly spec: ErrorSpec;
  /** The input field the error names (a wire name read through the operation's bindings: `If-Match` is `if_match`), or null. */
  readonly field: string | null;
  /** The field as the platform named it, when that differs from `field`; else null. */
  readonly wireField: string | null;
  readonly details: unknown;
  /** The envelope's `error` member; null in another error format. */
  readonly envelope: Record<string, unknown> | null;
}

const ERROR_ENVELOPE: Schema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", minLength: 1 },
        message: { type: "string" },
        field: { type: ["string", "null"] },
        operationId: { type: ["string", "null"] },
        outcome: { enum: ["completed", "pending", "rejected", "unknown"] },
      },
    },
  },
};
