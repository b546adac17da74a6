/**
 * The part of a contract the host reads: what it needs to enforce the contract's behaviour around
 * handlers (validation, idempotency, preview/confirm, preconditions, paging bounds, projection, the
 * error envelope). contractgen's ContractModel is assignable to it, so the example platforms pass
 * their parsed model; a generated skeleton server reads it from data (mcp/contract.json).
 */
import { readFileSync } from "node:fs";
import type { ErrorClass, RecoveryAction } from "../runtime/errors.js";
import type { ErrorFormat } from "../runtime/wire-errors.js";
import { linkSchemaDefs, StoredSchemas } from "../runtime/schema-defs.js";

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

/** The contract with `f` applied to each of its schemas: error details, inputs, outputs, preview outputs. */
export function mapHostSchemas(contract: HostContract, f: (schema: HostSchema) => HostSchema): HostContract {
  return {
    ...contract,
    errors: contract.errors.map((e) => ({ ...e, details: e.details ? f(e.details) : null })),
    operations: contract.operations.map((op) => ({
      ...op,
      input: f(op.input),
      output: f(op.output),
      preview: op.preview ? { ...op.preview, output: op.preview.output ? f(op.preview.output) : null } : null,
    })),
  };
}

/**
 * The host contract of a generated skeleton server, from its data file (`mcp/contract.json`, beside
 * the module once built). Error details carry their schemas, each `$defs` entry put back from
 * `schemaDefs`; an operation's input, output and preview name the schema the SDK stores
 * (`{ stored: <validator> }` in `sdk/schemas.json`), and its method, path and bindings are the SDK's
 * operation table's (`sdk/operations.json`), so the package holds each once. Data, not a literal: tsc would otherwise infer types over megabytes of it.
 */
export function loadHostContract(file: URL, schemas: URL = new URL("../sdk/schemas.json", file), operationsFile: URL = new URL("../sdk/operations.json", file)): HostContract {
  const { schemaDefs, ...data } = JSON.parse(readFileSync(file, "utf8")) as HostContract & { readonly schemaDefs?: unknown };
  const defs = Array.isArray(schemaDefs) ? (schemaDefs as unknown[]) : [];
  // An operation written without its method, path and bindings takes them from the SDK's operation table.
  let table: ReadonlyMap<string, Record<string, unknown>> | undefined;
  const withWire = (op: HostOperation): HostOperation => {
    if (typeof op.http.method === "string") return op;
    table ??= new Map(Object.entries(JSON.parse(readFileSync(operationsFile, "utf8")) as Record<string, Record<string, unknown>>));
    const record = table.get(op.names.id);
    if (record === undefined) throw new Error(`${operationsFile.pathname} has no operation "${op.names.id}": regenerate the package.`);
    const http = { method: record.method, path: record.path, bindings: record.bindings, body: record.bodyField ?? null, successStatus: op.http.successStatus };
    return { ...op, http: http as HostOperation["http"] };
  };
  const contract: HostContract = { ...data, operations: data.operations.map(withWire) };
  let stored: StoredSchemas | undefined;
  return mapHostSchemas(contract, (s) => {
    const name = (s as { stored?: unknown }).stored;
    if (typeof name !== "string") return { ...s, schema: linkSchemaDefs(s.schema, defs, file.pathname) };
    stored ??= StoredSchemas.read(schemas);
    return { schema: stored.bundled(name) as JsonSchema };
  });
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
