/**
 * The contract model: the one normalized, immutable representation every emitter and the diff read.
 * Defaults are applied, derived facts (names, MCP annotations, HTTP bindings) are computed, schemas are
 * self-contained, and every node keeps the source location it came from.
 */
import type { SourceLocation } from "../diagnostics/diagnostic.js";

/** A JSON Schema 2020-12 document (object or boolean form). */
export type JsonSchema = { readonly [keyword: string]: unknown } | boolean;

export interface SchemaModel {
  /** Self-contained schema: every $ref rewritten to point into its own `$defs`. */
  readonly schema: JsonSchema;
  /** Where the schema was written (the node holding it, before $ref resolution). */
  readonly loc: SourceLocation;
}

export interface ContractModel {
  /** Version of the contract format the document was read as. */
  readonly format: 1;
  readonly name: string;
  readonly version: string;
  readonly title: string;
  readonly description: string;
  readonly changelog: readonly ChangelogEntryModel[];
  readonly budget: BudgetModel;
  readonly transport: TransportModel;
  readonly toolsets: readonly ToolsetModel[];
  readonly types: readonly TypeModel[];
  /** The error taxonomy, in document order. */
  readonly errors: readonly ErrorModel[];
  /** Operations in document order. */
  readonly operations: readonly OperationModel[];
  /** Events the platform sends its consumers, in document order. */
  readonly webhooks: readonly WebhookModel[];
  /** Extension fields (`x-…`) of the document root, as written. */
  readonly extensions: { readonly [key: string]: unknown };
  /** Files read to build the model (the contract first, then referenced files). */
  readonly files: readonly string[];
  readonly loc: SourceLocation;
}

/** An event the platform sends (`webhooks.<name>`): the payload is what a consumer receives. */
export interface WebhookModel {
  readonly name: string;
  /** The SDK's type of its payload (`OrderPaidWebhook`), from the naming authority. */
  readonly identifier: string;
  readonly summary: string;
  readonly description: string;
  readonly deprecated: boolean;
  readonly payload: SchemaModel;
  readonly loc: SourceLocation;
}

export interface ChangelogEntryModel {
  readonly version: string;
  readonly date: string;
  readonly summary: string;
  readonly changes: readonly ChangelogChangeModel[];
  readonly loc: SourceLocation;
}

export type ChangelogChangeKind =
  | "unit"
  | "default"
  | "predicate"
  | "semantics"
  | "behaviour"
  | "added"
  | "removed"
  | "deprecated"
  | "fixed";

export interface ChangelogChangeModel {
  readonly kind: ChangelogChangeKind;
  /** JSON pointer into the contract document. */
  readonly target: string;
  readonly description: string;
  readonly loc: SourceLocation;
}

export interface BudgetModel {
  readonly catalogTokens: number | null;
  readonly maxTools: number | null;
  /** Ceilings on the generated Agent Skill (o200k_base tokens; null: none). */
  readonly skill: SkillBudgetModel;
  readonly loc: SourceLocation;
}

/** `budget.skill`: the listing (front matter name + description), the body (SKILL.md without front matter), each reference file. */
export interface SkillBudgetModel {
  readonly listingTokens: number | null;
  readonly bodyTokens: number | null;
  readonly referenceTokens: number | null;
}

/** One named credential scheme (`transport.auth.schemes.<name>`; the single forms are one scheme named after their type). */
export type AuthSchemeModel =
  | { readonly name: string; readonly type: "bearer"; readonly tokenEnv: string; readonly loc: SourceLocation }
  | { readonly name: string; readonly type: "basic"; readonly usernameEnv: string; readonly passwordEnv: string; readonly loc: SourceLocation }
  | { readonly name: string; readonly type: "apiKey"; readonly in: "header" | "query" | "cookie"; readonly paramName: string; readonly tokenEnv: string; readonly loc: SourceLocation };

/** Alternatives of credential schemes: the first whose credentials are all present is used; [] means none. */
export type AuthAlternatives = readonly (readonly string[])[];

/**
 * The contract's credentials, one shape whichever way they were written: `type: none` is no scheme and
 * `require: []`; `type: bearer` / `type: apiKey` (header) are one scheme named `bearer` / `apiKey`,
 * required. `form` records the way it was written, so that generated output of the single forms
 * stays what it was.
 */
export interface AuthModel {
  readonly form: "none" | "bearer" | "apiKey" | "schemes";
  /** In declaration order. */
  readonly schemes: readonly AuthSchemeModel[];
  readonly require: AuthAlternatives;
  readonly loc: SourceLocation;
}

/** The credential alternatives an operation needs: its own, else the contract's. */
export function operationAuth(auth: AuthModel, op: { readonly auth: AuthAlternatives | null }): AuthAlternatives {
  return op.auth ?? auth.require;
}

/** Every environment variable a scheme reads, in order (basic: username then password). */
export function schemeEnvVars(scheme: AuthSchemeModel): string[] {
  return scheme.type === "basic" ? [scheme.usernameEnv, scheme.passwordEnv] : [scheme.tokenEnv];
}

/** Every environment variable the contract's credentials read, each once, in declaration order. */
export function authEnvVars(auth: AuthModel): string[] {
  return [...new Set(auth.schemes.flatMap(schemeEnvVars))];
}

// One definition of the error binding's vocabulary: the runtime's, which generated SDKs carry verbatim.
export type { ErrorFormat, ErrorStyle } from "../runtime/wire-errors.js";
import type { ErrorFormat } from "../runtime/wire-errors.js";

export interface TransportModel {
  readonly baseUrl: string;
  readonly baseUrlEnv: string | null;
  readonly timeoutMs: number;
  readonly auth: AuthModel;
  /**
   * How the platform reports errors (`http.errorFormat`), defaults applied: problem's code and message
   * pointers filled in; envelope and status carry null pointers where none is written.
   */
  readonly errorFormat: ErrorFormat;
  readonly loc: SourceLocation;
}

export interface ToolsetModel {
  readonly name: string;
  readonly description: string;
  readonly loc: SourceLocation;
}

export interface TypeModel {
  readonly name: string;
  /** Its declaration's name in the generated types (see naming.ts typeIdentifier). */
  readonly identifier: string;
  readonly schema: SchemaModel;
  readonly loc: SourceLocation;
}

// One definition of the taxonomy's vocabulary: the runtime's, which generated SDKs carry verbatim.
export type { ErrorClass, RecoveryAction } from "../runtime/errors.js";
import type { ErrorClass, RecoveryAction } from "../runtime/errors.js";

export interface ErrorModel {
  readonly code: string;
  readonly class: ErrorClass;
  readonly action: RecoveryAction;
  readonly httpStatus: number;
  readonly description: string;
  readonly since: string | null;
  /** Whether a caller may retry automatically (derived from the class). */
  readonly retryable: boolean;
  /** The input field the error concerns (`field:`), or null when it varies or there is none. */
  readonly field: string | null;
  /** Schema of the envelope's `details` when not null (`details:`), or null when undeclared. */
  readonly details: SchemaModel | null;
  /** The value the platform puts at the error format's code pointer (`wire:`), or null: the code itself. */
  readonly wire: string | null;
  readonly loc: SourceLocation;
}

export interface NamesModel {
  /** The key in the contract: stable identity of the operation. */
  readonly id: string;
  /** SDK method name. */
  readonly camel: string;
  /** PascalCase stem of derived member names (previewRefundInvoice). */
  readonly pascal: string;
  /** Names of the generated input, output and preview types (RefundInvoiceInput); one authority: naming.ts. */
  readonly types: { readonly input: string; readonly output: string; readonly preview: string | null };
  /** CLI command name. */
  readonly kebab: string;
  /** MCP tool name. */
  readonly tool: string;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type BindingLocation = "path" | "query" | "header" | "cookie" | "body";
export type { ParamStyle, RequestContentType } from "../contract/raw.js";
import type { ParamStyle, RequestContentType } from "../contract/raw.js";

export interface FieldBinding {
  readonly field: string;
  readonly in: BindingLocation;
  /** Wire name: the path segment, query key, header or cookie name (a body field: the field). */
  readonly name: string;
  /** Serialization style as declared (`http.params`, or `http.encoding` for a body field); absent: the location's default. */
  readonly style?: ParamStyle;
  /** `explode` as declared; absent: the style's default (true for form, false otherwise). */
  readonly explode?: boolean;
  /** Query: reserved characters are sent unencoded (`allowReserved: true`); absent when not declared. */
  readonly allowReserved?: boolean;
  /** A multipart part's media type (`http.encoding.<field>.contentType`); absent when not declared. */
  readonly contentType?: string;
  /** A multipart body field whose value is base64 text sent as the bytes of a file part; absent otherwise. */
  readonly file?: true;
}

export interface HttpModel {
  readonly method: HttpMethod;
  readonly path: string;
  readonly pathParams: readonly string[];
  /** Where each input property goes, in input-property order. */
  readonly bindings: readonly FieldBinding[];
  /** The first declared success status (200 when none is): the one a reference host answers with. */
  readonly successStatus: number;
  /** Every status that counts as success (`successStatus` as an integer or a list), in declaration order. */
  readonly successStatuses: readonly number[];
  /** The input field whose value is the whole request body (`http.body`), or null: body fields become its properties. */
  readonly body: string | null;
  /** Media type of the request body (`http.contentType`); default application/json. */
  readonly contentType: RequestContentType;
  /** A body is sent even when no body field is given (`http.bodyRequired`). */
  readonly bodyRequired: boolean;
  /** The media type asked for (`http.accept`), or null for application/json. */
  readonly accept: string | null;
  /** Other media types the platform accepts the request body in (`http.alsoAccepts`): only the diff reads them. */
  readonly alsoAccepts: readonly string[];
  /** Other media types the success response is offered in (`http.alsoOffers`): only the diff reads them. */
  readonly alsoOffers: readonly string[];
  readonly loc: SourceLocation;
}

export type EffectKind = "read" | "mutating";
export type IdempotencyMode = "natural" | "key" | "none";

export interface EffectsModel {
  readonly kind: EffectKind;
  readonly idempotent: IdempotencyMode;
  readonly destructive: boolean;
  readonly reversible: boolean;
  readonly openWorld: boolean;
  /** The operation that undoes the effect (`effects.undo`), or null. */
  readonly undo: string | null;
  /** Guessed by a tool (`effects.inferred: true`) and not reviewed by a person. */
  readonly inferred: boolean;
  readonly loc: SourceLocation;
}

/** MCP tool annotations, derived from effects (never defaulted independently). */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface IdempotencyModel {
  readonly keyField: string;
  readonly retention: string;
  readonly retentionMs: number;
  readonly scope: "caller" | "tenant" | "global";
  readonly mismatchError: string | null;
  /**
   * Whether the platform refuses an execution without a key (`idempotency.keyRequired`, default true).
   * false: a key-less call is a separate intent; the generated callers still send one (minted when not given).
   */
  readonly keyRequired: boolean;
  readonly loc: SourceLocation;
}

export interface PreviewModel {
  readonly dryRunField: string;
  /** Whether omitting the dry-run field previews (true) or executes (false). */
  readonly defaultDryRun: boolean;
  readonly confirmTokenField: string;
  readonly ttl: string;
  readonly ttlMs: number;
  readonly output: SchemaModel | null;
  readonly invalidTokenError: string | null;
  /** A token authorises one execution (default true); a replay of the same operation key is not a second one. */
  readonly singleUse: boolean;
  /** Preview-output field with the token's expiry time, or null. */
  readonly expiresAtField: string | null;
  readonly loc: SourceLocation;
}

export interface PreconditionModel {
  readonly kind: "revision" | "value";
  readonly field: string;
  readonly compares: string;
  readonly required: boolean;
  readonly error: string;
  readonly loc: SourceLocation;
}

export type OutcomeState = "completed" | "pending" | "rejected" | "unknown";

/** What preconditions compare against: a declared type or a read operation's output (`inferred` when not written). */
export type TargetModel =
  | { readonly kind: "type"; readonly type: string; readonly loc: SourceLocation }
  | { readonly kind: "read"; readonly operation: string; readonly inferred: boolean; readonly loc: SourceLocation };

export interface OutcomesModel {
  readonly states: readonly OutcomeState[];
  readonly pollWith: string | null;
  readonly partialField: string | null;
  readonly loc: SourceLocation;
}

export type PaginationStyle = "cursor" | "next-link" | "page" | "offset";

/** Where a next-link traversal finds the next page's URL: an output field, or the RFC 8288 Link header. */
export type NextLinkSource = { readonly kind: "field"; readonly field: string } | { readonly kind: "header"; readonly header: "Link" };

export interface PaginationModel {
  readonly style: PaginationStyle;
  /** Cursor style only (null otherwise). */
  readonly cursorField: string | null;
  readonly nextCursorField: string | null;
  /** Next-link style only. */
  readonly nextLink: NextLinkSource | null;
  /** Page style only: the page-number input field and the number of the first page. */
  readonly pageField: string | null;
  readonly firstPage: 0 | 1;
  /** Offset style only: the input field with the number of items to skip. */
  readonly offsetField: string | null;
  /** Null when the output itself is the page's array. */
  readonly itemsField: string | null;
  /** Null when the contract declares no page-size field (non-cursor styles). */
  readonly limitField: string | null;
  readonly limitDefault: number | null;
  /** Null when the bound is unknown (non-cursor styles; validate warns `pagination-unbounded`). */
  readonly limitMax: number | null;
  readonly totalField: string | null;
  readonly partialField: string | null;
  readonly errorsField: string | null;
  readonly loc: SourceLocation;
}

/** How a filter narrows a list: what a record's property must be for the filter's value. */
export type FilterMatch = "equals" | "contains" | "prefix" | "range";

/**
 * One filter of an operation. A plain field name in the contract leaves its meaning unknown
 * (property and match null): only totals can judge it. A range's `ends` say which ends include
 * their value; `bound` names the one end a single-bound field gives (null: a `{from, to}` window).
 */
export interface FilterModel {
  readonly field: string;
  readonly property: string | null;
  readonly match: FilterMatch | null;
  readonly bound: "from" | "to" | null;
  readonly ends: { readonly fromInclusive: boolean; readonly toInclusive: boolean } | null;
  readonly loc: SourceLocation;
}

export interface ProjectionModel {
  readonly field: string;
  readonly selectable: readonly string[];
  readonly identity: readonly string[];
  readonly loc: SourceLocation;
}

export interface TaskScopeModel {
  readonly recordsExaminedField: string;
  readonly completeField: string;
  readonly continuationField: string | null;
  /** Output field holding the task's answer (`task.answer`), or null. */
  readonly answerField: string | null;
  readonly loc: SourceLocation;
}

/** How settled an operation is (`stability`), least settled first. */
export const STABILITY_LEVELS = ["draft", "alpha", "beta", "stable"] as const;
export type StabilityLevel = (typeof STABILITY_LEVELS)[number];

export interface DeprecationModel {
  readonly since: string;
  readonly sunset: string | null;
  readonly replacement: string | null;
  readonly loc: SourceLocation;
}

export interface OperationErrorRef {
  readonly code: string;
  readonly loc: SourceLocation;
}

export interface OperationModel {
  readonly names: NamesModel;
  readonly summary: string;
  readonly description: string;
  readonly toolset: string | null;
  readonly scopes: readonly string[];
  /** The operation's own credential alternatives (`auth:`), or null: the contract's `transport.auth.require`. */
  readonly auth: AuthAlternatives | null;
  readonly deprecated: DeprecationModel | null;
  /** `stability`, or null when the contract does not say (read as stable). */
  readonly stability: StabilityLevel | null;
  readonly http: HttpModel;
  readonly effects: EffectsModel;
  readonly annotations: ToolAnnotations;
  readonly input: SchemaModel;
  readonly output: SchemaModel;
  /** Codes the operation may raise, including those its behaviours imply, in declaration order. */
  readonly errors: readonly OperationErrorRef[];
  readonly idempotency: IdempotencyModel | null;
  readonly preview: PreviewModel | null;
  readonly preconditions: readonly PreconditionModel[];
  /** The resource the operation acts on, when declared or inferable; null otherwise. */
  readonly target: TargetModel | null;
  readonly outcomes: OutcomesModel;
  readonly pagination: PaginationModel | null;
  readonly filters: readonly FilterModel[];
  readonly projection: ProjectionModel | null;
  readonly task: TaskScopeModel | null;
  readonly mcp: { readonly exposed: boolean; readonly title: string | null };
  /** Extension fields (`x-…`) as written. */
  readonly extensions: { readonly [key: string]: unknown };
  readonly loc: SourceLocation;
}
