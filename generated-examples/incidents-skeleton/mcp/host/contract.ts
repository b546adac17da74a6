/**
 * The part of a contract the host reads: what it needs to enforce the contract's behaviour around
 * handlers (validation, idempotency, preview/confirm, preconditions, paging bounds, projection, the
 * error envelope). contractgen's ContractModel is assignable to it, so the example platforms pass
 * their parsed model; a generated skeleton server reads it from its SDK (loadHostContract).
 */
import type { ContractInfo } from "../../sdk/runtime/client.js";
import type { ContractAuth } from "../../sdk/runtime/credentials.js";
import { operationRecords, storedSchemas } from "../../sdk/runtime/data.js";
import type { ErrorClass, RecoveryAction } from "../../sdk/runtime/errors.js";
import type { ErrorFormat } from "../../sdk/runtime/wire-errors.js";

export type { ErrorClass, RecoveryAction };

/** A JSON Schema (2020-12) as the contract wrote it. */
export type JsonSchema = { readonly [keyword: string]: unknown } | boolean;

export interface HostSchema {
  readonly schema: JsonSchema;
}

export interface HostError {
  readonly code: string;
  readonly class: ErrorClass;
  readonly action: RecoveryAction;
  readonly httpStatus: number;
  /** The input field the code is about, when it names one. */
  readonly field: string | null;
  /** Schema of the error's `details`, when the contract declares one. */
  readonly details: HostSchema | null;
  /** What the host puts at the error format's code pointer (`wire`); absent or null: the code. */
  readonly wire?: string | null;
}

export interface HostIdempotency {
  readonly keyField: string;
  readonly retentionMs: number;
  readonly scope: "caller" | "tenant" | "global";
  readonly mismatchError: string | null;
  /** false: an execution without a key is accepted, and is a separate intent (nothing to replay it by). */
  readonly keyRequired: boolean;
}

export interface HostPreview {
  readonly dryRunField: string;
  readonly defaultDryRun: boolean;
  readonly confirmTokenField: string;
  readonly ttlMs: number;
  readonly output: HostSchema | null;
  readonly invalidTokenError: string | null;
  readonly singleUse: boolean;
}

export interface HostPrecondition {
  readonly field: string;
  readonly compares: string;
  readonly required: boolean;
  readonly error: string;
}

export interface HostPagination {
  readonly cursorField: string | null;
  readonly nextCursorField: string | null;
  /** Null when the output itself is the page's array. */
  readonly itemsField: string | null;
  readonly limitField: string | null;
  readonly limitDefault: number | null;
  readonly limitMax: number | null;
  readonly totalField: string | null;
  readonly partialField: string | null;
  readonly errorsField: string | null;
}

export interface HostTask {
  readonly recordsExaminedField: string;
  readonly completeField: string;
  readonly continuationField: string | null;
  readonly answerField: string | null;
}

/** Where an input field travels in a request (the contract's HTTP binding). */
export interface HostFieldBinding {
  readonly field: string;
  readonly in: "path" | "query" | "header" | "cookie" | "body";
  /** Wire name: the path segment, query key or header name (a body field: the field). */
  readonly name: string;
  /** The declared serialization style (OpenAPI `style`); absent: the location's default. */
  readonly style?: "form" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "simple" | "label" | "matrix";
  /** The declared `explode`; absent: the style's default (true for form). */
  readonly explode?: boolean;
}

/** What the HTTP front end needs to route a request to an operation and read its input back. */
export interface HostHttpOperation {
  readonly http: {
    readonly method: string;
    /** Relative to the base URL's path, with `{field}` segments. */
    readonly path: string;
    readonly bindings: readonly HostFieldBinding[];
    /** The input field that is the whole request body, or null: body fields are its properties. */
    readonly body: string | null;
  };
  readonly input: HostSchema;
}

export interface HostOperation extends HostHttpOperation {
  readonly names: { readonly id: string };
  readonly scopes: readonly string[];
  readonly http: HostHttpOperation["http"] & { readonly successStatus: number };
  readonly effects: { readonly kind: "read" | "mutating" };
  readonly input: HostSchema;
  readonly output: HostSchema;
  readonly errors: ReadonlyArray<{ readonly code: string }>;
  readonly idempotency: HostIdempotency | null;
  readonly preview: HostPreview | null;
  readonly preconditions: readonly HostPrecondition[];
  readonly pagination: HostPagination | null;
  readonly projection: { readonly field: string; readonly identity: readonly string[] } | null;
  readonly task: HostTask | null;
}

export interface HostContract {
  readonly name: string;
  readonly version: string;
  /**
   * `errorFormat`: how the host answers errors; absent: contractgen's envelope. `baseUrl`: its path is
   * where the HTTP front end serves the operations (absent: the root).
   */
  readonly transport: { readonly auth: HostAuth; readonly errorFormat?: ErrorFormat; readonly baseUrl?: string };
  readonly errors: readonly HostError[];
  readonly operations: readonly HostOperation[];
}

/**
 * The host contract of a generated skeleton server, read from its SDK: the package-wide facts
 * (`info`: sdk/contract.ts's CONTRACT, with the error taxonomy) and the operation table and stored
 * schemas in `sdkDir` (sdk/operations.json, sdk/schemas.json) through the runtime's one reader, so
 * the package holds each fact once. Each schema is read when the contract is: the host validates
 * every call.
 */
export function loadHostContract(info: ContractInfo, sdkDir: URL): HostContract {
  const records = operationRecords(sdkDir);
  const schemas = storedSchemas(sdkDir);
  const stored = (name: string): HostSchema => ({ schema: schemas.bundled(name) as JsonSchema });
  // Entries, not keys: codes are contract names (a Record built by the generator, read as data here).
  const errors = Object.entries(info.taxonomy).map(([code, e]): HostError => ({
    code,
    class: e.class,
    action: e.action,
    httpStatus: e.http,
    field: e.field ?? null,
    details: e.detailsSchema !== undefined ? stored(e.detailsSchema) : null,
    ...(e.wire !== undefined ? { wire: e.wire } : {}),
  }));
  const operations = [...records].map(([id, r]): HostOperation => ({
    names: { id },
    scopes: r.scopes,
    http: { method: r.method, path: r.path, bindings: r.bindings as readonly HostFieldBinding[], body: r.bodyField ?? null, successStatus: r.successStatuses[0] ?? 200 },
    effects: { kind: r.mutating ? "mutating" : "read" },
    input: stored(r.validateInput),
    output: stored(r.validateOutput),
    errors: r.errors.map((code) => ({ code })),
    idempotency:
      r.keyField !== null && r.keyRetentionMs !== undefined
        ? { keyField: r.keyField, retentionMs: r.keyRetentionMs, scope: r.keyScope ?? "caller", mismatchError: r.keyMismatchError ?? null, keyRequired: r.keyRequired ?? true }
        : null,
    preview: r.preview
      ? {
          dryRunField: r.preview.dryRunField,
          defaultDryRun: r.preview.defaultDryRun,
          confirmTokenField: r.preview.confirmTokenField,
          ttlMs: r.preview.ttlMs,
          output: r.validatePreview !== null ? stored(r.validatePreview) : null,
          invalidTokenError: r.preview.invalidTokenError,
          singleUse: r.preview.singleUse,
        }
      : null,
    preconditions: r.preconditions.map((p) => ({ field: p.field, compares: p.compares, required: p.required, error: p.error })),
    pagination: r.pagination
      ? {
          cursorField: r.pagination.cursorField,
          nextCursorField: r.pagination.nextCursorField,
          itemsField: r.pagination.itemsField,
          limitField: r.pagination.limitField,
          limitDefault: r.pagination.limitDefault,
          limitMax: r.pagination.limitMax,
          totalField: r.pagination.totalField,
          partialField: r.pagination.partialField,
          errorsField: r.pagination.errorsField,
        }
      : null,
    projection: r.projection ? { field: r.projection.field, identity: r.projection.identity } : null,
    task: r.task,
  }));
  return {
    name: info.name,
    version: info.version,
    transport: { auth: hostAuthOf(info.auth), ...(info.errorFormat !== undefined ? { errorFormat: info.errorFormat } : {}), baseUrl: info.baseUrl },
    errors,
    operations,
  };
}

/** The host's view of the SDK's credentials: none, or a token it checks (several schemes: a bearer token). */
function hostAuthOf(auth: ContractAuth): HostAuth {
  switch (auth.type) {
    case "schemes":
      return { type: auth.require.length === 0 ? "none" : "bearer" };
    case "apiKey":
      return { type: "apiKey", header: auth.header };
    default:
      return { type: auth.type };
  }
}

/**
 * Credentials as the host sees them: the generated `{type}` (with the header an API key travels in),
 * or the model's normalised form.
 */
export type HostAuth =
  | { readonly type: "none" | "bearer" | "apiKey"; readonly header?: string }
  | {
      readonly form: "none" | "bearer" | "apiKey" | "schemes";
      readonly require: readonly (readonly string[])[];
      readonly schemes?: ReadonlyArray<{ readonly type: string; readonly paramName?: string }>;
    };

/** The header a single API key scheme travels in, or null: credentials come as `Authorization: Bearer`. */
export function apiKeyHeader(auth: HostAuth): string | null {
  if ("type" in auth) return auth.type === "apiKey" ? (auth.header ?? null) : null;
  const single = auth.form === "apiKey" ? auth.schemes?.[0] : undefined;
  return single?.type === "apiKey" && single.paramName !== undefined ? single.paramName : null;
}

/** Whether callers must present a credential, and how the host reads it: none, a bearer token, or an API key. */
export function hostAuthKind(auth: HostAuth): "none" | "bearer" | "apiKey" {
  if ("type" in auth) return auth.type;
  if (auth.form !== "schemes") return auth.form;
  return auth.require.length === 0 ? "none" : "bearer";
}
