import type { StabilityLevel } from "../model/types.js";

/**
 * The contract document as written, once it has passed the structural check against
 * schema/contract.schema.json. Only the checks and the model builder read these types.
 */
export interface RawContract {
  format?: 1;
  contract: string;
  version: string;
  title?: string;
  description?: string;
  changelog?: RawChangelogEntry[];
  budget?: { catalogTokens?: number; maxTools?: number; skill?: { listingTokens?: number; bodyTokens?: number; referenceTokens?: number } };
  transport: {
    http: { baseUrl: string; baseUrlEnv?: string; timeout?: string; errorFormat?: RawErrorFormat };
    auth?: { type: "none" } | { type: "bearer"; tokenEnv: string } | { type: "apiKey"; header: string; tokenEnv: string } | RawAuthSchemes;
  };
  toolsets?: Record<string, { description: string }>;
  types?: Record<string, unknown>;
  errors: Record<string, RawError>;
  operations: Record<string, RawOperation>;
  webhooks?: Record<string, RawWebhook>;
}

/** An event the platform sends (`webhooks.<name>`): its payload is what a consumer receives. */
export interface RawWebhook {
  summary: string;
  description?: string;
  deprecated?: boolean;
  payload: unknown;
}

/** `transport.auth` with named schemes and the alternatives required (no `type`). */
export interface RawAuthSchemes {
  type?: undefined;
  schemes: Record<string, RawAuthScheme>;
  /** Alternatives: the first whose schemes all have credentials is used; [] = none. */
  require: string[][];
}

export type RawAuthScheme =
  | { type: "bearer"; tokenEnv: string; description?: string }
  | { type: "basic"; usernameEnv: string; passwordEnv: string; description?: string }
  | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string; tokenEnv: string; description?: string };

export interface RawChangelogEntry {
  version: string;
  date: string;
  summary?: string;
  changes?: Array<{ kind: string; target: string; description: string }>;
}

/** `transport.http.errorFormat`: how the platform reports errors on the wire. */
export interface RawErrorFormat {
  style: "envelope" | "problem" | "body" | "status";
  code?: string;
  message?: string;
  field?: string;
}

export interface RawError {
  class: string;
  action: string;
  http: number;
  description?: string;
  since?: string;
  field?: string;
  details?: unknown;
  wire?: string;
}

/** OpenAPI parameter styles (`http.params`, `http.encoding`). */
export type ParamStyle = "form" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "simple" | "label" | "matrix";

/** Request body media types a contract can declare (`http.contentType`). */
export type RequestContentType = "application/json" | "application/x-www-form-urlencoded" | "multipart/form-data";

export type PaginationStyle = "cursor" | "next-link" | "page" | "offset";

export interface RawOperation {
  summary: string;
  description?: string;
  toolset?: string;
  scopes?: string[];
  /** Alternatives of scheme names overriding transport.auth.require; [] = public. */
  auth?: string[][];
  deprecated?: { since: string; sunset?: string; replacement?: string };
  stability?: StabilityLevel;
  http: {
    method: string;
    path: string;
    query?: string[];
    headers?: Record<string, string>;
    successStatus?: number | number[];
    body?: string;
    cookies?: Record<string, string>;
    params?: Record<string, { style?: ParamStyle; explode?: boolean; allowReserved?: boolean }>;
    contentType?: RequestContentType;
    encoding?: Record<string, { contentType?: string; style?: ParamStyle; explode?: boolean }>;
    bodyRequired?: boolean;
    accept?: string;
    alsoAccepts?: string[];
    alsoOffers?: string[];
  };
  effects: { kind: "read" | "mutating"; idempotent?: "natural" | "key" | "none"; destructive?: boolean; reversible?: boolean; openWorld?: boolean; undo?: string; inferred?: boolean };
  idempotency?: { key: string; retention: string; scope?: "caller" | "tenant" | "global"; mismatchError?: string; keyRequired?: boolean };
  preview?: { dryRun: string; default?: boolean; confirmToken: string; ttl: string; output?: unknown; invalidTokenError?: string; singleUse?: boolean; expiresAt?: string };
  target?: { type?: string; readWith?: string };
  preconditions?: Array<{ kind: "revision" | "value"; field: string; compares?: string; required?: boolean; error: string }>;
  outcomes?: { states?: Array<"completed" | "pending" | "rejected" | "unknown">; pollWith?: string; partial?: { field: string } };
  pagination?: {
    /** Omitted means cursor; the structure check then requires cursor, nextCursor, items and limit.max. */
    style?: PaginationStyle;
    cursor?: string;
    nextCursor?: string;
    nextLink?: string | { header: "Link" };
    page?: string;
    firstPage?: 0 | 1;
    offset?: string;
    items?: string;
    limit?: { field: string; default?: number; max?: number };
    total?: string;
    partial?: string;
    errors?: string;
  };
  /** A plain input field name, or the field with what it means (docs/contract-format.md, "filters"). */
  filters?: Array<string | RawFilter>;
  projection?: { field: string; selectable: string[]; identity?: string[] };
  task?: { recordsExamined: string; complete: string; continuation?: string; answer?: string };
  input: unknown;
  output: unknown;
  errors?: string[];
  mcp?: { name?: string; title?: string; expose?: boolean };
  cli?: { name?: string };
  [extension: `x-${string}`]: unknown;
}

/** How a filter narrows the list: what the listed record's property must be for the filter's value. */
export type FilterMatch = "equals" | "contains" | "prefix" | "range";

/** A filter that says what it means: the record property it tests and how. */
export interface RawFilter {
  field: string;
  property: string;
  match: FilterMatch;
  /** A range given one bound per field: which end this field is; omitted for a `{from, to}` window. */
  bound?: "from" | "to";
  /** Whether the range's ends include their value: one flag for both (default: from inclusive, to exclusive). */
  inclusive?: boolean;
}
