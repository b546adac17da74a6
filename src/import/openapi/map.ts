/**
 * A bundled OpenAPI 3.0/3.1 document → a contract (as the plain object the YAML is written from) and
 * the review items. Pure and deterministic: document order in, the same contract out.
 */
import { collisionKey, CLIENT_MEMBERS, camelCase, operationTypeIdentifiers, typeIdentifier, TYPES_ROOT, webhookTypeIdentifier, words } from "../../model/naming.js";
import { parseSemver } from "../../model/semver.js";
import { STABILITY_LEVELS } from "../../model/types.js";
import { MAX_OPERATIONS } from "../../contract/load.js";
import { joinPointer, splitPointer } from "../../contract/source.js";
import { checkContract } from "./contract-limits.js";
import { ImportRefusal } from "./refusal.js";
import type { ReviewItem, ReviewKind } from "./review.js";
import { componentRefsAsTypes } from "./contract-text.js";
import { Origins } from "./origins.js";
import { componentName, convertSchema, copyJson, sunsetDate, isObject, mergePatch, type Json, type JsonObject, own, pointerOf, put, resolvePointer, type SchemaContext, shapeOf, MAX_REF_CHAIN } from "./schema.js";

export interface MapOptions {
  /** The changelog date (YYYY-MM-DD); a fixed placeholder keeps re-imports identical. */
  readonly date?: string;
  /** Overrides the contract name derived from info.title. */
  readonly name?: string;
  /** Told as operations are mapped (`map operations`, done of total); never prints. */
  readonly onProgress?: (phase: string, done: number, total: number) => void;
  /** Import only the operations with one of these tags (and the types they reach). */
  readonly tags?: readonly string[];
}

export interface MapResult {
  readonly contract: JsonObject;
  readonly items: ReviewItem[];
  readonly operations: number;
  readonly types: number;
  /** Operations per tag in the whole document (an operation counts under each of its tags), by count. */
  readonly tagSizes: ReadonlyArray<readonly [tag: string, operations: number]>;
  /** Where each part of the contract came from in the document (to locate findings there). */
  readonly origins: Origins;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const DROPPED_METHODS = ["head", "options", "trace"];
const PLACEHOLDER_DATE = "1970-01-01";
const NAME_MAX = 64;

/** Error codes and classes by HTTP status; statuses not listed get HTTP_<status> and a guessed class. */
const STATUS: Record<number, { code: string; cls: string; action: string }> = {
  400: { code: "BAD_REQUEST", cls: "invalid_input", action: "fix_field" },
  401: { code: "UNAUTHENTICATED", cls: "unauthenticated", action: "reauthenticate" },
  403: { code: "FORBIDDEN", cls: "permission", action: "stop_and_surface" },
  404: { code: "NOT_FOUND", cls: "not_found", action: "verify_identifier" },
  408: { code: "REQUEST_TIMEOUT", cls: "transient", action: "retry_after" },
  409: { code: "CONFLICT", cls: "conflict", action: "reread_and_replan" },
  410: { code: "GONE", cls: "not_found", action: "stop_and_surface" },
  412: { code: "PRECONDITION_FAILED", cls: "conflict", action: "reread_and_replan" },
  413: { code: "PAYLOAD_TOO_LARGE", cls: "invalid_input", action: "stop_and_surface" },
  415: { code: "UNSUPPORTED_MEDIA_TYPE", cls: "invalid_input", action: "stop_and_surface" },
  422: { code: "UNPROCESSABLE_ENTITY", cls: "invalid_input", action: "fix_field" },
  423: { code: "LOCKED", cls: "conflict", action: "reread_and_replan" },
  428: { code: "PRECONDITION_REQUIRED", cls: "conflict", action: "reread_and_replan" },
  429: { code: "RATE_LIMITED", cls: "rate_limited", action: "retry_after" },
  500: { code: "INTERNAL_ERROR", cls: "internal", action: "stop_and_surface" },
  502: { code: "BAD_GATEWAY", cls: "transient", action: "retry_after" },
  503: { code: "SERVICE_UNAVAILABLE", cls: "transient", action: "retry_after" },
  504: { code: "GATEWAY_TIMEOUT", cls: "transient", action: "retry_after" },
};

function errorFor(status: number): { code: string; cls: string; action: string; guessed: boolean } {
  const known = STATUS[status];
  if (known) return { ...known, guessed: false };
  if (status >= 500) return { code: `HTTP_${status}`, cls: "internal", action: "stop_and_surface", guessed: true };
  return { code: `HTTP_${status}`, cls: "invalid_input", action: "stop_and_surface", guessed: true };
}

const CURSOR_IN = ["cursor", "after", "page_token", "pageToken", "next_token", "nextToken", "starting_after", "continuation_token", "continuationToken", "marker", "next_page_token", "nextPageToken"];
const CURSOR_OUT = ["next_cursor", "nextCursor", "next_page_token", "nextPageToken", "next_token", "nextToken", "cursor", "next_marker", "nextMarker", "continuation_token", "continuationToken"];
const NEXT_LINK_OUT = ["next", "next_url", "nextUrl", "next_link", "nextLink", "next_page_url", "nextPageUrl"];
const PAGE_IN = ["page", "page_number", "pageNumber", "page_num"];
const OFFSET_IN = ["offset", "skip", "start"];
const LIMIT_IN = ["limit", "per_page", "perPage", "page_size", "pageSize", "max_results", "maxResults", "size", "count", "top", "$top", "max"];
const ITEMS_OUT = ["items", "data", "results", "entries", "values", "records", "nodes", "elements"];
const TOTAL_OUT = ["total_count", "totalCount", "total", "total_results", "totalResults"];
/** Headers the generated transport sets itself; a parameter for them would fight it. */
const TRANSPORT_HEADERS = new Set(["authorization", "content-type", "accept", "content-length", "user-agent", "host"]);

interface Field {
  name: string;
  schema: Json;
  required: boolean;
  binding: "path" | "query" | "header" | "cookie" | "body-property" | "body";
  /** The HTTP name: path/query parameter, header or cookie name. */
  wire?: string;
  /** Serialization the contract must state (`http.params`): what the document declares beyond the defaults. */
  params?: JsonObject;
  /** A form or multipart body field's encoding (`http.encoding`). */
  encoding?: JsonObject;
  /** Pointer of the schema (or parameter) in the document the field was made from. */
  origin?: string;
}

interface Draft {
  pointer: string;
  method: string;
  path: string;
  rawName: string;
  derived: boolean;
  op: JsonObject;
  pathItem: JsonObject;
  name?: string;
}

export function mapOpenApi(doc: JsonObject, options: MapOptions = {}): MapResult {
  const items: ReviewItem[] = [];
  const origins = new Origins();
  const review = (kind: ReviewKind, pointer: string, message: string, operation?: string) => {
    items.push(operation === undefined ? { kind, pointer, message } : { kind, pointer, operation, message });
  };
  const version = String(own(doc, "openapi") ?? "");
  const dialect: "3.0" | "3.1" = version.startsWith("3.0") ? "3.0" : "3.1";
  const components = isObject(own(doc, "components")) ? (own(doc, "components") as JsonObject) : {};
  const schemas = isObject(own(components, "schemas")) ? (own(components, "schemas") as JsonObject) : {};
  const info = isObject(own(doc, "info")) ? (own(doc, "info") as JsonObject) : {};

  // --- operations first (their generated type names are reserved before types are named) ---
  const wanted = options.tags && options.tags.length > 0 ? new Set(options.tags) : undefined;
  const tagSizes = new Map<string, number>();
  let leftOut = 0;
  const drafts: Draft[] = [];
  const routes = new Map<string, string>();
  // Where the import read an `x-contract`, and operations it did not import (their x-contract is not "unread").
  const xContractRead = new Set<string>(["/x-contract"]);
  const notImported: string[] = [];
  const paths = isObject(own(doc, "paths")) ? (own(doc, "paths") as JsonObject) : {};
  for (const path of Object.keys(paths)) {
    const item = deref(doc, paths[path]);
    if (!isObject(item)) continue;
    for (const method of Object.keys(item)) {
      const pointer = pointerOf("paths", path, method);
      if (DROPPED_METHODS.includes(method)) {
        review("method-unsupported", pointer, `${method.toUpperCase()} ${path} dropped.`);
        notImported.push(pointer);
        continue;
      }
      if (!(METHODS as readonly string[]).includes(method)) continue;
      const op = item[method];
      if (!isObject(op)) continue;
      const opTags = tagsOf(op);
      for (const t of new Set(opTags)) tagSizes.set(t, (tagSizes.get(t) ?? 0) + 1);
      if (wanted && !opTags.some((t) => wanted.has(t))) {
        leftOut++;
        notImported.push(pointer);
        continue;
      }
      const route = routeOf(method, path);
      if (routes.has(route)) {
        review("route-duplicate", pointer, `${method.toUpperCase()} ${path} has the same shape as ${routes.get(route)}; dropped.`);
        notImported.push(pointer);
        continue;
      }
      routes.set(route, `${method.toUpperCase()} ${path}`);
      const opId = own(op, "operationId");
      const derived = typeof opId !== "string" || words(opId).length === 0;
      const rawName = derived ? nameFromRoute(method, path) : (opId as string);
      drafts.push({ pointer, method, path, rawName, derived, op, pathItem: item });
      if (isObject(own(op, "callbacks"))) review("callbacks-dropped", `${pointer}/callbacks`, "Callbacks dropped.");
      const responses = own(op, "responses");
      if (isObject(responses)) for (const s of Object.keys(responses)) {
        const r = deref(doc, responses[s]);
        if (isObject(r) && isObject(own(r, "links"))) review("callbacks-dropped", `${pointer}/responses/${s}/links`, "Response links dropped.");
      }
    }
  }
  if (drafts.length > MAX_OPERATIONS) throw new ImportRefusal("openapi-operation-limit", "/paths", operationLimitMessage(drafts.length, sortedTagSizes(tagSizes), wanted !== undefined));
  if (wanted) {
    for (const key of ["webhooks", "x-webhooks"]) {
      const hooks = own(doc, key);
      if (isObject(hooks) && Object.keys(hooks).length > 0) review("callbacks-dropped", pointerOf(key), `${Object.keys(hooks).length} webhooks dropped: --tag imports operations only.`);
    }
  }
  assignOperationNames(drafts, review);

  // --- types ---
  const opTypeNames = new Set<string>([TYPES_ROOT]);
  for (const d of drafts) {
    const ids = operationTypeIdentifiers(d.name!, false);
    opTypeNames.add(ids.input).add(ids.output).add(`${ids.input.slice(0, -5)}Preview`);
  }
  const typeNames = new Map<string, string>();
  const takenTypeIds = new Set(opTypeNames);
  /** A type name from `wanted` (made an identifier), unique among the types and operation types. */
  const claimTypeName = (...wanted: string[]): string => {
    const bases = wanted.map((w) => {
      const base = w.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
      return /^[A-Za-z]/.test(base) ? base : `T${base}`;
    });
    let candidate = bases.find((b) => !takenTypeIds.has(typeIdentifier(b))) ?? bases[bases.length - 1]!;
    for (let n = 2; takenTypeIds.has(typeIdentifier(candidate)); n++) candidate = `${bases[bases.length - 1]}${n}`;
    takenTypeIds.add(typeIdentifier(candidate));
    return candidate;
  };
  for (const name of Object.keys(schemas)) {
    const candidate = claimTypeName(name);
    typeNames.set(name, candidate);
    if (candidate !== name) review("type-renamed", pointerOf("components", "schemas", name), `Schema ${JSON.stringify(name)} is type ${candidate}.`);
  }
  // A reference into a schema rather than to a component (bundlers write an external schema once and
  // point at that place afterwards) is inlined where it is used once. Used again, or inside its own
  // target, it becomes a type: inlined, each use would copy every reference inside it, and nested
  // uses multiply (one Azure document: 118,000 review items and 140 s).
  const refUses = countRefs(doc);
  const refTypes = new Map<string, string>();
  const pendingRefTypes: string[] = [];
  const typeForRef = (ref: string, recursive: boolean): string | undefined => {
    const known = refTypes.get(ref);
    if (known !== undefined || (!recursive && (refUses.get(ref) ?? 0) < 2)) return known;
    const typeName = claimTypeName(...refTypeNames(ref));
    refTypes.set(ref, typeName);
    pendingRefTypes.push(ref);
    review("type-from-ref", ref.slice(1), `$ref ${JSON.stringify(ref)} points into a schema, not to a component, and is ${recursive ? "used inside itself" : `used ${refUses.get(ref)} times`}: it is type ${typeName}.`);
    return typeName;
  };
  const ctx: SchemaContext = { doc, dialect, typeNames, typeForRef, review: (kind, pointer, message) => review(kind, pointer, message), onContractExtension: (pointer) => void xContractRead.add(pointer),
    onSchemaPatch: (pointer, path) => origins.alias(joinPointer(pointer, ...path), joinPointer(pointer, "x-contract", ...path)) };
  const types: JsonObject = {};
  for (const [name, typeName] of typeNames) {
    put(types, typeName, convertSchema(ctx, schemas[name], pointerOf("components", "schemas", name)));
    origins.set(joinPointer("/types", typeName), pointerOf("components", "schemas", name));
  }

  // --- header, transport, auth ---
  const contractName = options.name ?? contractNameOf(info, review);
  const rawVersion = String(own(info, "version") ?? "");
  const semver = parseSemver(rawVersion) ? rawVersion : coerceVersion(rawVersion);
  if (semver !== rawVersion) review("header-derived", "/info/version", `info.version ${JSON.stringify(rawVersion)} is not semver; the contract version is ${semver}.`);
  const date = options.date ?? PLACEHOLDER_DATE;
  if (options.date === undefined) review("header-derived", "/info", `The changelog entry is dated ${PLACEHOLDER_DATE} (a placeholder, so that re-imports are identical); set the release date, or pass --date.`);
  const contract: JsonObject = {};
  origins.set("/contract", "/info/title");
  origins.set("/version", "/info/version");
  origins.set("/title", "/info/title");
  origins.set("/description", "/info/description");
  origins.set("/changelog", "/info");
  origins.set("/transport", isObject(own(doc, "servers")) || Array.isArray(own(doc, "servers")) ? "/servers" : "");
  origins.set("/transport/auth", isObject(own(components, "securitySchemes")) ? "/components/securitySchemes" : "");
  origins.set("/toolsets", Array.isArray(own(doc, "tags")) ? "/tags" : "");
  origins.set("/errors", "/paths");
  put(contract, "contract", contractName);
  put(contract, "version", semver);
  const title = own(info, "title");
  if (typeof title === "string" && title.trim() !== "") put(contract, "title", title.trim());
  const description = own(info, "description");
  if (typeof description === "string" && description.trim() !== "") put(contract, "description", description.trim());
  put(contract, "changelog", [{ version: semver, date, summary: "Imported from OpenAPI." }]);
  const transportHttp: JsonObject = { baseUrl: baseUrlOf(doc, review) };
  const transport: JsonObject = { http: transportHttp };
  const security = authOf(doc, contractName, review);
  if (security.auth) put(transport, "auth", security.auth);
  put(contract, "transport", transport);

  // --- operations ---
  const toolsets = new Map<string, string>();
  const tagDescriptions = new Map<string, string>();
  const tags = own(doc, "tags");
  if (Array.isArray(tags)) for (const t of tags) if (isObject(t) && typeof own(t, "name") === "string") {
    const d = own(t, "description");
    tagDescriptions.set(own(t, "name") as string, typeof d === "string" && d.trim() !== "" ? d.trim().split(/\r?\n/)[0]! : "");
  }
  // The taxonomy by code (a response's `x-contract.code` can name another code for a status), with the status it answers with.
  const errors = new Map<string, { status: number; entry: JsonObject }>();
  // Codes named after a status (no wire): the document naming one in its own spelling gives it that wire.
  const statusCodes = new Set<string>();
  /**
   * The taxonomy code for a code a response names, and the wire value a new entry takes: its own code,
   * or the code that has its wire value; a numbered one (keeping the API's value as its wire) when
   * another wire value took the name. Null when the value is the name of a code sent as another value
   * (a code's name is its wire value only without one: the value could not be told apart).
   */
  const claimCode = (c: DocumentCode, fromDocument: boolean): { code: string; wire: string | null } | null => {
    if (!fromDocument) return { code: c.code, wire: c.wire };
    const wire = c.wire ?? c.code;
    for (const [code, known] of errors) if (own(known.entry, "wire") === wire) return { code, wire };
    const named = errors.get(wire);
    if (named !== undefined) return own(named.entry, "wire") === undefined || statusCodes.has(wire) ? { code: wire, wire: null } : null;
    let code = c.code;
    for (let n = 2; ; n++) {
      const known = errors.get(code);
      if (known === undefined) return { code, wire: code === wire ? null : wire };
      const knownWire = own(known.entry, "wire");
      if (knownWire === undefined && code === wire) return { code, wire: null };
      if (knownWire === undefined && statusCodes.has(code)) {
        put(known.entry, "wire", wire);
        statusCodes.delete(code);
        return { code, wire };
      }
      code = `${c.code}_${n}`;
    }
  };
  const operations: JsonObject = {};
  // How the API writes its errors is decided first: a response's codes are read at the format's code pointer.
  const errorFormats = new ErrorFormatVotes();
  for (const d of drafts) {
    const responses = own(d.op, "responses");
    if (!isObject(responses)) continue;
    // A range or default still shows how the API writes its errors (a `default` taken as the success response does not).
    const defaultIsSuccess = !Object.keys(responses).some((k) => /^2(\d\d|xx)$/i.test(k));
    for (const key of Object.keys(responses)) {
      if (/^[45](\d\d|xx)$/i.test(key) || (key === "default" && !defaultIsSuccess)) errorFormats.add(doc, deref(doc, responses[key]), `${d.pointer}/responses/${escapeKey(key)}`);
    }
  }
  const errorFormat = errorFormats.decide();
  const documentCodes = new ErrorCodeReader(doc, errorFormat.format, drafts);
  // Operations whose error responses are a `default` alone (the API's error shape, any status), and the codes those name.
  const defaultErrors: Array<{ pointer: string; operation: string; codes: DocumentCode[] }> = [];
  for (const [done, d] of drafts.entries()) {
    options.onProgress?.("map operations", done, drafts.length);
    const name = d.name!;
    const o: JsonObject = {};
    const at = joinPointer("/operations", name);
    origins.set(at, d.pointer);
    for (const key of ["summary", "description", "deprecated", "tags", "security"]) if (own(d.op, key) !== undefined) origins.set(joinPointer(at, key === "tags" ? "toolset" : key === "security" ? "auth" : key), joinPointer(d.pointer, key));
    const opReview = (kind: ReviewKind, pointer: string, message: string) => review(kind, pointer, message, name);
    // summary, description, toolset, deprecated
    const summary = own(d.op, "summary");
    const opDesc = own(d.op, "description");
    let line = typeof summary === "string" ? summary.replace(/\s+/g, " ").trim() : "";
    if (line === "") {
      line = typeof opDesc === "string" ? opDesc.replace(/\s+/g, " ").trim().split(/(?<=\.)\s/)[0]! : "";
      if (line === "") line = `${d.method.toUpperCase()} ${d.path}`;
      opReview("summary-derived", d.pointer, `Summary: ${JSON.stringify(truncate(line, 200))}.`);
    }
    put(o, "summary", truncate(line, 200));
    if (typeof opDesc === "string" && opDesc.trim() !== "") put(o, "description", opDesc.trim());
    const opTags = own(d.op, "tags");
    if (Array.isArray(opTags) && typeof opTags[0] === "string" && opTags[0].trim() !== "") {
      const tag = opTags[0];
      let set = [...toolsets].find(([, t]) => t === tag)?.[0];
      if (set === undefined) {
        let base = tag.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^[^A-Za-z]+/, "").replace(/-+$/, "") || "toolset";
        base = base.slice(0, 64);
        set = base;
        for (let n = 2; toolsets.has(set); n++) set = `${base}-${n}`;
        toolsets.set(set, tag);
      }
      put(o, "toolset", set);
      if (opTags.length > 1) opReview("toolset-first-tag", `${d.pointer}/tags`, `Tags ${opTags.map((t) => JSON.stringify(t)).join(", ")}: toolset ${set}.`);
    }
    const scopes = security.scopesOf(d.op);
    if (scopes.length > 0) put(o, "scopes", scopes);
    const opAuth = security.authOf(d.op, d.pointer);
    if (opAuth !== undefined) put(o, "auth", opAuth);
    // Deprecation, with the sunset date `x-sunset` gives (a date, a date-time or an HTTP date): a sunset implies deprecation.
    const sunsetRaw = own(d.op, "x-sunset");
    const sunset = sunsetDate(sunsetRaw);
    if (sunsetRaw !== undefined && sunset === null) opReview("sunset-unreadable", `${d.pointer}/x-sunset`, `x-sunset ${JSON.stringify(sunsetRaw)} is not a date: deprecated without a sunset.`);
    if (own(d.op, "deprecated") === true || sunset !== null) put(o, "deprecated", { since: semver, ...(sunset !== null ? { sunset } : {}) });
    // How settled the operation is (`x-stability-level`, as OpenAPI diff tools read it).
    const stability = own(d.op, "x-stability-level");
    if (typeof stability === "string" && (STABILITY_LEVELS as readonly string[]).includes(stability)) put(o, "stability", stability);
    else if (stability !== undefined) opReview("stability-unreadable", `${d.pointer}/x-stability-level`, `x-stability-level ${JSON.stringify(stability)} is none of ${STABILITY_LEVELS.join(", ")}: the operation is read as stable.`);

    // input
    const input = buildInput(doc, ctx, d, name, opReview);
    const http: JsonObject = { method: d.method.toUpperCase(), path: input.path };
    const query = input.fields.filter((f) => f.binding === "query").map((f) => f.name);
    if (query.length > 0 && (d.method !== "get" && d.method !== "delete" || input.fields.some((f) => f.binding === "body"))) put(http, "query", query);
    const headers: JsonObject = {};
    for (const f of input.fields) if (f.binding === "header") put(headers, f.name, f.wire!);
    if (Object.keys(headers).length > 0) put(http, "headers", headers);
    const cookies: JsonObject = {};
    for (const f of input.fields) if (f.binding === "cookie") put(cookies, f.name, f.wire!);
    if (Object.keys(cookies).length > 0) put(http, "cookies", cookies);
    const params: JsonObject = {};
    for (const f of input.fields) if (f.params !== undefined) put(params, f.name, f.params);
    if (Object.keys(params).length > 0) put(http, "params", params);
    if (input.contentType !== undefined) put(http, "contentType", input.contentType);
    const encoding: JsonObject = {};
    for (const f of input.fields) if (f.encoding !== undefined) put(encoding, f.name, f.encoding);
    if (Object.keys(encoding).length > 0) put(http, "encoding", encoding);
    if (input.bodyRequired) put(http, "bodyRequired", true);
    const bodyField = input.fields.find((f) => f.binding === "body");

    // output
    const output = buildOutput(doc, ctx, d, opReview);
    if (output.status.length === 1 && output.status[0] !== 200) put(http, "successStatus", output.status[0]!);
    if (output.status.length > 1) put(http, "successStatus", output.status);
    if (bodyField) put(http, "body", bodyField.name);
    if (output.accept !== undefined) put(http, "accept", output.accept);
    if (input.alsoAccepts !== undefined) put(http, "alsoAccepts", input.alsoAccepts);
    if (output.alsoOffers.length > 0) put(http, "alsoOffers", output.alsoOffers);
    put(o, "http", http);

    // effects, idempotency
    const idemField = input.fields.find((f) => f.binding === "header" && f.wire!.toLowerCase() === "idempotency-key");
    const effects: JsonObject =
      d.method === "get" ? { kind: "read" }
      : d.method === "put" ? { kind: "mutating", idempotent: "natural", destructive: false }
      : d.method === "delete" ? { kind: "mutating", idempotent: "natural", destructive: true }
      : { kind: "mutating", idempotent: "none", destructive: false };
    if (idemField && d.method !== "get") {
      put(effects, "idempotent", "key");
      // An optional header stays optional on the wire (keyRequired: false: the platform takes a
      // key-less call as a separate intent); the generated callers still send a key on every call.
      put(o, "idempotency", idemField.required ? { key: idemField.name, retention: "24h" } : { key: idemField.name, retention: "24h", keyRequired: false });
      opReview("idempotency-retention-assumed", d.pointer, `Idempotency-Key header → idempotency key ${idemField.name} (${idemField.required ? "required" : "optional"}), retention assumed 24h.`);
      if (!idemField.required) {
        opReview("idempotency-key-optional", d.pointer, `Idempotency-Key header is optional in the document: declared as the operation key ${idemField.name} with keyRequired: false (a call without it is a separate intent). The generated SDK, CLI and MCP server send one on every call, minted when the caller gives none, so a retry after a lost answer reuses it. Drop keyRequired: false if the platform refuses calls without a key.`);
      }
    }
    put(effects, "inferred", true);
    put(o, "effects", effects);

    // pagination
    if (d.method === "get") {
      const pagination = detectPagination(doc, d, input.fields, output, opReview);
      if (pagination) put(o, "pagination", pagination);
    }

    const inputSchema: JsonObject = { type: "object" };
    const required = input.fields.filter((f) => f.required).map((f) => f.name);
    if (required.length > 0) put(inputSchema, "required", required);
    const props: JsonObject = {};
    for (const f of input.fields) put(props, f.name, f.schema);
    put(inputSchema, "properties", props);
    if (input.dependentRequired) {
      // One list per property: what the optional body's required properties and the body's own dependentRequired ask, together.
      const byProp = new Map<string, Set<string>>();
      for (const [prop, needed] of input.dependentRequired) for (const n of needed) (byProp.get(prop) ?? byProp.set(prop, new Set()).get(prop)!).add(n);
      const deps: JsonObject = {};
      for (const [prop, needed] of byProp) put(deps, prop, [...needed]);
      put(inputSchema, "dependentRequired", deps);
    }
    for (const [keyword, value] of input.rootKeywords ?? []) put(inputSchema, keyword, value);
    put(o, "input", inputSchema);
    put(o, "output", output.schema);
    for (const f of input.fields) if (f.origin !== undefined) origins.set(joinPointer(at, "input", "properties", f.name), f.origin);
    if (output.origin !== undefined) origins.set(joinPointer(at, "output"), output.origin);
    if (own(d.op, "responses") !== undefined) origins.set(joinPointer(at, "errors"), joinPointer(d.pointer, "responses"));

    // errors
    const codes: Array<[number, string]> = [];
    const responses = own(d.op, "responses");
    if (isObject(responses)) for (const key of Object.keys(responses)) {
      if (/^[45]\d\d$/.test(key)) {
        const status = Number(key);
        const e = errorFor(status);
        const r = deref(doc, responses[key]);
        const responsePointer = refTarget(doc, responses[key]) ?? joinPointer(d.pointer, "responses", key);
        // The response's own x-contract: the code used for this status, and the rest of its taxonomy entry.
        const rawPatch = isObject(r) ? own(r, "x-contract") : undefined;
        xContractRead.add(joinPointer(responsePointer, "x-contract")).add(joinPointer(d.pointer, "responses", key, "x-contract"));
        if (rawPatch !== undefined && !isObject(rawPatch)) review("x-contract-invalid", joinPointer(responsePointer, "x-contract"), `x-contract is ${describeJson(rawPatch)}, not a mapping of taxonomy entry fields; ignored.`);
        const patch = isObject(rawPatch) ? rawPatch : undefined;
        const named = patch !== undefined ? own(patch, "code") : undefined;
        // One code, or a list of the codes this status carries here (409: CONFIRMATION_REQUIRED or INSUFFICIENT_STOCK).
        const declaredCodes = typeof named === "string" && named !== "" ? [named]
          : Array.isArray(named) && named.length > 0 && named.every((n) => typeof n === "string" && n !== "") ? [...new Set(named as string[])]
          : undefined;
        const desc = isObject(r) && typeof own(r, "description") === "string" ? (own(r, "description") as string).replace(/\s+/g, " ").trim() : "";
        // The response's codes: the one its x-contract names, else those the document names (the code
        // member's values, the description's backticked codes), else the status's conventional one.
        const note = (message: string) => opReview("error-codes-read", joinPointer(d.pointer, "responses", key), message);
        const read: Array<DocumentCode & { claimed: { code: string; wire: string | null } }> = [];
        if (declaredCodes === undefined) for (const c of documentCodes.read(r, status, note)) {
          const claimed = claimCode(c, true);
          const twin = claimed === null ? undefined : read.find((x) => x.claimed.code === claimed.code);
          if (twin !== undefined) note(`The API's codes ${JSON.stringify(twin.wire ?? twin.code)} and ${JSON.stringify(c.wire ?? c.code)} both make code ${twin.claimed.code}: the first is read. Name this response's codes in its x-contract.`);
          else if (claimed !== null) read.push({ ...c, claimed });
          else note(`The API's code ${JSON.stringify(c.wire ?? c.code)} is the name of code ${c.code}, which the API sends as ${JSON.stringify(own(errors.get(c.code)!.entry, "wire"))}: the two could not be told apart, so it is not read. Name this response's code in its x-contract.`);
        }
        const found = read.length > 0 ? read : (declaredCodes ?? [e.code]).map((code) => ({ code, wire: null, description: desc === "" ? null : desc, claimed: { code, wire: null } }));
        if (named !== undefined && named !== null && declaredCodes === undefined) review("x-contract-invalid", joinPointer(responsePointer, "x-contract", "code"), `x-contract code ${describeJson(named)} is not an error code (or a list of them); HTTP ${status} is ${found.map((c) => c.code).join(", ")}.`);
        for (const c of found) {
          const { code, wire } = c.claimed;
          let known = errors.get(code);
          if (known === undefined) {
            const entry: JsonObject = { class: e.cls, action: e.action, http: status };
            if (c.description !== null) put(entry, "description", c.description);
            if (wire !== null) put(entry, "wire", wire);
            known = { status, entry };
            errors.set(code, known);
            if (read.length === 0 && declaredCodes === undefined) statusCodes.add(code);
            origins.set(joinPointer("/errors", code), joinPointer(d.pointer, "responses", key));
            const declared = patch !== undefined && own(patch, "class") !== undefined && own(patch, "action") !== undefined;
            if (e.guessed && !declared) review("error-class-guessed", `${d.pointer}/responses/${key}`, `HTTP ${status} → ${code}, class ${e.cls}, action ${e.action}.`);
          } else if (read.length > 0 && known.status !== status) {
            opReview("error-codes-read", joinPointer(d.pointer, "responses", key), `Code ${code} is answered with HTTP ${status} here and HTTP ${known.status} where first met; its taxonomy entry keeps ${known.status} (the SDK reads the code from the body either way).`);
          }
          if (patch !== undefined) {
            const rest: JsonObject = {};
            for (const k of Object.keys(patch)) if (k !== "code") put(rest, k, patch[k]);
            applyMergePatch(known.entry, rest, joinPointer("/errors", code), joinPointer(responsePointer, "x-contract"), origins);
          }
          codes.push([status, code]);
        }
      } else if (/^[45]xx$/i.test(key)) {
        opReview("error-range-dropped", `${d.pointer}/responses/${escapeKey(key)}`, `Response ${key} is not mapped to an error code.`);
      } else if (key === "default" && !Object.keys(responses).some((k) => /^2(\d\d|xx)$/i.test(k))) {
        // The success response (success-status-assumed).
      } else if (key === "default" && !Object.keys(responses).some((k) => /^[45]\d\d$/.test(k))) {
        // The operation's errors are this default alone: the API's error shape, whatever the status (read after every operation).
        defaultErrors.push({ pointer: `${d.pointer}/responses/default`, operation: name, codes: documentCodes.read(deref(doc, responses[key]), null, (message) => opReview("error-codes-read", `${d.pointer}/responses/default`, message)) });
      } else if (key === "default") {
        opReview("error-range-dropped", `${d.pointer}/responses/default`, "Response default is not mapped to an error code: the operation declares its error statuses.");
      }
    }
    codes.sort((a, b) => a[0] - b[0]);
    if (codes.length > 0) put(o, "errors", [...new Set(codes.map((c) => c[1]))]);

    // The operation's behaviour declared in the document: a merge patch of contract operation fields.
    const opPatch = own(d.op, "x-contract");
    xContractRead.add(joinPointer(d.pointer, "x-contract"));
    if (isObject(opPatch)) {
      // Effects the document declares are not inferred (unless the patch says so itself).
      const effectsPatch = own(opPatch, "effects");
      if (effectsPatch !== undefined && !(isObject(effectsPatch) && own(effectsPatch, "inferred") !== undefined)) {
        const current = own(o, "effects");
        if (isObject(current) && own(current, "inferred") !== undefined) delete current.inferred;
      }
      // An `input` or `output` that is a bare $ref names the schema: it replaces the imported one
      // (merged, it would keep the imported oneOf beside it, and the value would have to match both).
      for (const key of ["input", "output"]) {
        const stated = own(opPatch, key);
        if (isObject(stated) && Object.keys(stated).length === 1 && typeof own(stated, "$ref") === "string") delete o[key];
      }
      applyMergePatch(o, opPatch, at, joinPointer(d.pointer, "x-contract"), origins);
    } else if (opPatch !== undefined) opReview("x-contract-invalid", joinPointer(d.pointer, "x-contract"), `x-contract is ${describeJson(opPatch)}, not a mapping of contract operation fields; ignored.`);
    put(operations, name, o);
  }
  put(transportHttp, "errorFormat", errorFormat.format);
  review("error-format-derived", errorFormat.pointer, errorFormat.message);

  if (toolsets.size > 0) {
    const ts: JsonObject = {};
    for (const [set, tag] of toolsets) put(ts, set, { description: tagDescriptions.get(tag) || `Operations tagged ${tag}.` });
    put(contract, "toolsets", ts);
  }
  // Types made from references, in the order met (converting one may meet more).
  // Webhooks before the types they may reference are settled (a payload can name a ref type too).
  const webhooks = wanted ? {} : buildWebhooks(doc, ctx, review, origins, takenTypeIds);
  for (let i = 0; i < pendingRefTypes.length; i++) {
    const ref = pendingRefTypes[i]!;
    put(types, refTypes.get(ref)!, convertSchema(ctx, resolvePointer(doc, ref), ref.slice(1)));
    origins.set(joinPointer("/types", refTypes.get(ref)!), ref.slice(1));
  }
  let typeCount = typeNames.size + refTypes.size;
  if (wanted) {
    // x-contract may name a component schema: the type it became counts as reached (contract-text.ts).
    componentRefsAsTypes([operations, types], typeNames);
    // Only the types the chosen operations reach.
    const reached = typesReached(operations, types);
    for (const name of Object.keys(types)) if (!reached.has(name)) delete types[name];
    // Review items about the schemas left out are not for this contract's reviewer.
    const leftOutAt = new Set([
      ...[...typeNames].filter(([, typeName]) => !reached.has(typeName)).map(([name]) => pointerOf("components", "schemas", name)),
      ...[...refTypes].filter(([, typeName]) => !reached.has(typeName)).map(([ref]) => ref.slice(1)),
    ]);
    const concernsLeftOut = (pointer: string) => {
      for (let p = pointer; p !== ""; p = p.slice(0, Math.max(0, p.lastIndexOf("/")))) if (leftOutAt.has(p)) return true;
      return false;
    };
    // Filtered in place: a spread of a large list into one call can overflow the stack.
    let kept = 0;
    for (const item of items) if (!concernsLeftOut(item.pointer)) items[kept++] = item;
    items.length = kept;
    review("tags-selected", "/paths", `Imported the ${drafts.length} operations tagged ${[...wanted].map((t) => JSON.stringify(t)).join(", ")}; ${leftOut} other operations and ${typeCount - reached.size} types they alone use were left out.`);
    typeCount = reached.size;
  }
  if (Object.keys(types).length > 0) put(contract, "types", types);
  // Operations whose errors are a `default` alone: the codes it names, and the conventional code of each
  // common status, contract-wide (the SDK recognises them on every operation; a status selects its one).
  if (defaultErrors.length > 0) {
    const added: string[] = [];
    for (const { pointer, codes: named } of defaultErrors) for (const c of named) {
      const claimed = claimCode(c, true);
      if (claimed === null || errors.has(claimed.code)) continue;
      const { code, wire } = claimed;
      const status = statusForCodeName(code);
      const e = errorFor(status);
      const entry: JsonObject = { class: e.cls, action: e.action, http: status };
      if (c.description !== null) put(entry, "description", c.description);
      if (wire !== null) put(entry, "wire", wire);
      errors.set(code, { status, entry });
      origins.set(joinPointer("/errors", code), pointer);
      added.push(code);
      review("error-class-guessed", pointer, `Code ${code}, named by a default response (which has no status): HTTP ${status}, class ${e.cls}, action ${e.action}, guessed from its name.`);
    }
    const statuses = new Set([...errors.values()].map((e) => e.status));
    for (const status of DEFAULT_ERROR_STATUSES) {
      const e = errorFor(status);
      if (statuses.has(status) || errors.has(e.code)) continue;
      errors.set(e.code, { status, entry: { class: e.cls, action: e.action, http: status, description: `HTTP ${status}: the default error response, with no code the contract knows.` } });
      origins.set(joinPointer("/errors", e.code), defaultErrors[0]!.pointer);
      added.push(e.code);
    }
    const count = defaultErrors.length === 1 ? `Operation ${defaultErrors[0]!.operation} declares` : `${defaultErrors.length} operations (${defaultErrors.slice(0, 3).map((x) => x.operation).join(", ")}${defaultErrors.length > 3 ? ", …" : ""}) declare`;
    review("error-default-read", defaultErrors[0]!.pointer, `${count} errors only as a default response: read as the API's error shape. Contract-wide codes${added.length > 0 ? ` ${added.join(", ")}` : " (none new)"}: a code the body names selects its own, else the status selects its conventional code.`);
  }
  const taxonomy: JsonObject = {};
  if (errors.size === 0) {
    review("error-taxonomy-default", "/paths", "No 4xx/5xx response is declared; BAD_REQUEST (400) was added because a contract needs one error code.");
    errors.set(STATUS[400]!.code, { status: 400, entry: { class: STATUS[400]!.cls, action: STATUS[400]!.action, http: 400 } });
  }
  // By status; codes sharing a status (named by a response's x-contract) in the order met.
  for (const [code, e] of [...errors].sort((a, b) => a[1].status - b[1].status)) put(taxonomy, code, e.entry);
  put(contract, "errors", taxonomy);
  put(contract, "operations", operations);
  if (Object.keys(webhooks).length > 0) put(contract, "webhooks", webhooks);
  // The document's own x-contract: a merge patch over the whole contract, applied last.
  const docPatch = own(doc, "x-contract");
  if (isObject(docPatch)) {
    const envValues = (auth: unknown) => credentialEnvHolders(auth).flatMap((h) => CREDENTIAL_ENV_FIELDS.map((f) => own(h, f)).filter((v): v is string => typeof v === "string"));
    const derivedEnv = new Set(envValues(security.auth));
    const patchTransport = own(docPatch, "transport");
    for (const stated of envValues(isObject(patchTransport) ? own(patchTransport, "auth") : undefined)) derivedEnv.delete(stated);
    applyMergePatch(contract, docPatch, "", "/x-contract", origins);
    const renamed = own(contract, "contract");
    const transportNow = own(contract, "transport");
    if (typeof renamed === "string" && renamed !== contractName && isObject(transportNow)) renameCredentialEnv(own(transportNow, "auth"), derivedEnv, envPrefix(contractName), envPrefix(renamed));
  }
  else if (docPatch !== undefined) review("x-contract-invalid", "/x-contract", `x-contract is ${describeJson(docPatch)}, not a mapping of contract fields; ignored.`);
  const scan = scanExtensions(doc);
  const extensions = scan.count;
  if (extensions > 0) review("keyword-dropped", "", `${extensions} x- extensions dropped (vendor annotations carry no contract meaning).`);
  for (const at of scan.contractExtensions) {
    if (xContractRead.has(at) || notImported.some((p) => at.startsWith(`${p}/`))) continue;
    review("x-contract-invalid", at, "x-contract is read on operations, 4xx/5xx responses, schemas and the document root; here it is ignored.");
  }
  const typeOrigins = new Map<string, string>();
  for (const [name, typeName] of typeNames) typeOrigins.set(typeName, pointerOf("components", "schemas", name));
  for (const [ref, typeName] of refTypes) typeOrigins.set(typeName, ref.slice(1));
  checkContract(contract, { types: typeOrigins, operations: new Map(drafts.map((d) => [d.name!, d.pointer])) }, (kind, pointer, message) => review(kind, pointer, message));
  return { contract, items, operations: drafts.length, types: typeCount, tagSizes: sortedTagSizes(tagSizes), origins };
}

function sortedTagSizes(sizes: ReadonlyMap<string, number>): Array<[string, number]> {
  return [...sizes].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
}

function tagsOf(op: JsonObject): string[] {
  return (Array.isArray(own(op, "tags")) ? (own(op, "tags") as unknown[]) : []).filter((t): t is string => typeof t === "string");
}

/** Operations with the same method and path shape (parameter names aside) are one route: only the first is imported. */
function routeOf(method: string, path: string): string {
  return `${method} ${path.replace(/\{[^}]*\}/g, "{}")}`;
}

/**
 * How many operations a contract would get from `paths` (with `--tag`, only the tagged ones; one
 * per route), counted the way mapOpenApi takes them, and operations per tag: checked on the parsed
 * document before anything is bundled or built. `pathItem` follows a path item's `$ref`.
 */
export function countOperations(paths: unknown, pathItem: (raw: unknown) => unknown, tags?: readonly string[]): { operations: number; tagSizes: Array<[string, number]> } {
  const wanted = tags && tags.length > 0 ? new Set(tags) : undefined;
  const tagSizes = new Map<string, number>();
  const routes = new Set<string>();
  if (!isObject(paths)) return { operations: 0, tagSizes: [] };
  for (const path of Object.keys(paths)) {
    const item = pathItem(paths[path]);
    if (!isObject(item)) continue;
    for (const method of Object.keys(item)) {
      if (!(METHODS as readonly string[]).includes(method)) continue;
      const op = item[method];
      if (!isObject(op)) continue;
      const opTags = tagsOf(op);
      for (const t of new Set(opTags)) tagSizes.set(t, (tagSizes.get(t) ?? 0) + 1);
      if (!wanted || opTags.some((t) => wanted.has(t))) routes.add(routeOf(method, path));
    }
  }
  return { operations: routes.size, tagSizes: sortedTagSizes(tagSizes) };
}

/** Why an import with `operations` operations is refused, with the tags to import it by part. */
export function operationLimitMessage(operations: number, tagSizes: ReadonlyArray<readonly [string, number]>, byTag: boolean): string {
  const split = tagSizes.length > 0 ? `import part of it with --tag; its largest tags: ${largestTags(tagSizes)}` : "the document has no tags to import it by part";
  return `The contract would declare ${operations} operations${byTag ? " (those with the tags asked for)" : ""}; a contract declares at most ${MAX_OPERATIONS}: ${split}.`;
}

/** The ten tags with the most operations, with their counts. */
export function largestTags(sizes: ReadonlyArray<readonly [string, number]>): string {
  const shown = sizes.slice(0, 10).map(([tag, n]) => `${JSON.stringify(tag)} (${n})`).join(", ");
  return sizes.length > 10 ? `${shown} and ${sizes.length - 10} more` : shown;
}

/** Names of the types `operations` refer to, directly or through other types. */
function typesReached(operations: JsonObject, types: JsonObject): Set<string> {
  const reached = new Set<string>();
  walkRefs(operations, (ref) => {
    const name = ref.startsWith("#/types/") ? ref.slice("#/types/".length) : undefined;
    if (name === undefined || reached.has(name) || !Object.hasOwn(types, name)) return undefined;
    reached.add(name);
    return types[name];
  });
  return reached;
}

/** How often each `$ref` string occurs in the document. */
function countRefs(doc: unknown): Map<string, number> {
  const uses = new Map<string, number>();
  walkRefs(doc, (ref) => void uses.set(ref, (uses.get(ref) ?? 0) + 1));
  return uses;
}

/**
 * Every `$ref` string under `root`, told to `onRef`, which may hand back a node to walk as well
 * (the target it names). Iterative: documents can nest deeply.
 */
function walkRefs(root: unknown, onRef: (ref: string) => unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const v of node) if (typeof v === "object" && v !== null) stack.push(v);
    } else if (isObject(node)) {
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string") {
          const next = onRef(v);
          if (next !== undefined) stack.push(next);
        } else if (typeof v === "object" && v !== null) stack.push(v);
      }
    }
  }
}

/** Segments of a reference's pointer that say where, not what. */
const STRUCTURAL_SEGMENTS = new Set([
  "components", "schemas", "definitions", "$defs", "properties", "items", "prefixItems", "additionalProperties", "patternProperties",
  "allOf", "anyOf", "oneOf", "not", "paths", "parameters", "requestBody", "requestBodies", "responses", "content", "schema",
  "get", "put", "post", "delete", "patch", "head", "options", "trace",
]);

/**
 * Names for the type a reference becomes, best first: its last segment that names something
 * (`…/properties/subnet` → Subnet), then that prefixed by the first (the component it sits in).
 */
function refTypeNames(ref: string): string[] {
  let fragment = ref.slice(1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    // Kept as written: the name only needs to be readable.
  }
  const named = fragment.split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")).filter((s) => s !== "" && !STRUCTURAL_SEGMENTS.has(s) && !/^\d+$/.test(s) && !s.includes("/"));
  const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9]+)([a-z])/g, (_m, _sep, c: string) => c.toUpperCase());
  const last = pascal(named[named.length - 1] ?? "Schema");
  return named.length > 1 ? [last, `${pascal(named[0]!)}${last}`] : [last];
}

function escapeKey(k: string): string {
  return k.replace(/~/g, "~0").replace(/\//g, "~1");
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`;
}

/**
 * Apply an RFC 7396 JSON Merge Patch (`x-contract`) to `target` in place, recording where each key it
 * sets came from: contract pointer under `contractAt` → the patch's pointer under `sourceAt`.
 */
export function applyMergePatch(target: JsonObject, patch: JsonObject, contractAt: string, sourceAt: string, origins?: Origins): void {
  mergePatch(target, patch, origins === undefined ? undefined : (path) => origins.set(joinPointer(contractAt, ...path), joinPointer(sourceAt, ...path)));
}

/** A JSON value's kind, for messages. */
function describeJson(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v === "string" ? `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 39)}…` : v)}` : `${typeof v} ${JSON.stringify(v)}`;
}

/** The pointer a (chain of) local `$ref`(s) ends at, or undefined when `node` is no reference. */
function refTarget(doc: unknown, node: unknown): string | undefined {
  let n = node;
  let at: string | undefined;
  for (let i = 0; i < MAX_REF_CHAIN && isObject(n) && typeof own(n, "$ref") === "string"; i++) {
    const ref = own(n, "$ref") as string;
    if (!ref.startsWith("#/")) return undefined;
    at = ref.slice(1);
    n = resolvePointer(doc, ref);
  }
  return at;
}

/** Follow bare `$ref`s (bounded) to the node they name. */
export function deref(doc: unknown, node: unknown): unknown {
  let n = node;
  for (let i = 0; i < MAX_REF_CHAIN && isObject(n) && typeof own(n, "$ref") === "string"; i++) n = resolvePointer(doc, own(n, "$ref") as string);
  return n;
}

/** Keys whose entries are named by the document's author, so an `x-` name there is a name, not an extension. */
const NAMED_ENTRIES = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "headers", "schemas", "responses", "parameters", "examples", "requestBodies", "securitySchemes", "links", "callbacks", "pathItems", "paths", "webhooks", "content", "encoding", "variables", "mapping"]);
/** Keywords whose content is data (an `x-contract` key there is a value, not an extension). */
const DATA_KEYWORDS = new Set(["example", "examples", "default", "const", "enum"]);

interface ScanEntry {
  readonly node: unknown;
  readonly depth: number;
  readonly parent?: ScanEntry;
  readonly key?: string;
}

/**
 * The vendor extensions the import drops (every `x-` key but `x-contract` and `x-unit`, which it
 * reads), and the pointers of the `x-contract` extensions in the document (outside data), to find
 * those in places the import does not read. Pointers are built only for those: documents are large.
 */
function scanExtensions(doc: unknown): { count: number; contractExtensions: string[] } {
  let count = 0;
  const contractExtensions: string[] = [];
  const stack: ScanEntry[] = [{ node: doc, depth: 0 }];
  while (stack.length > 0) {
    const e = stack.pop()!;
    const n = e.node;
    if (e.depth > 256) continue;
    if (Array.isArray(n)) n.forEach((x, i) => stack.push({ node: x, depth: e.depth + 1, parent: e, key: String(i) }));
    else if (isObject(n)) for (const k of Object.keys(n)) {
      if (k === "x-contract") {
        const segments: string[] = [];
        for (let p: ScanEntry | undefined = e; p?.key !== undefined; p = p.parent) segments.unshift(p.key);
        const data = [...segments, k].some((seg, i, all) => !NAMED_ENTRIES.has(all[i - 1] ?? "") && DATA_KEYWORDS.has(seg));
        if (!data && !NAMED_ENTRIES.has(segments[segments.length - 1] ?? "")) contractExtensions.push(pointerOf(...segments, k));
        continue;
      }
      if (k === "x-unit" || k === "x-sunset" || k === "x-extensible-enum") continue;
      if (k.startsWith("x-")) count++;
      else stack.push({ node: n[k], depth: e.depth + 1, parent: e, key: k });
    }
  }
  return { count, contractExtensions };
}

/**
 * A name for an operation without operationId, from its method and path. A path parameter counts as
 * "item" whatever it is called: renaming `{bookId}` to `{id}` must not rename the operation (the diff
 * would report every caller broken).
 */
function nameFromRoute(method: string, path: string): string {
  const parts: string[] = [method];
  for (const seg of path.split("/")) {
    if (seg === "") continue;
    parts.push(/^\{.+\}$/.test(seg) ? "item" : seg);
  }
  return parts.join("_");
}

/** snake_case names, at most 64 characters, unique under the model's collision rules, never reserved. */
function assignOperationNames(drafts: Draft[], review: (kind: ReviewKind, pointer: string, message: string, operation?: string) => void): void {
  const taken = new Set<string>();
  const takenTypes = new Set<string>();
  for (const d of drafts) {
    let ws = words(d.rawName);
    if (ws.length === 0) ws = ["operation"];
    if (/^[0-9]/.test(ws[0]!)) ws = ["op", ...ws];
    let base = ws.join("_");
    if (CLIENT_MEMBERS.has(camelCase(base))) base = `${base}_operation`;
    if (base.length > NAME_MAX) {
      const short = shorten(base.split("_"), NAME_MAX);
      review("name-shortened", d.pointer, `${JSON.stringify(d.rawName)} shortened to ${short}.`, short);
      base = short;
    }
    let name = base;
    const clash = (n: string) => taken.has(collisionKey(n)) || takenTypes.has(operationTypeIdentifiers(n, false).input);
    for (let n = 2; clash(name); n++) name = `${base.length + `_${n}`.length > NAME_MAX ? shorten(base.split("_"), NAME_MAX - `_${n}`.length) : base}_${n}`;
    if (name !== base) review("name-collision", d.pointer, `${JSON.stringify(d.rawName)} collides with an earlier operation once converted; named ${name}.`, name);
    if (d.derived) review("name-derived", d.pointer, `No operationId: named ${name}.`, name);
    taken.add(collisionKey(name));
    takenTypes.add(operationTypeIdentifiers(name, false).input);
    d.name = name;
  }
}

/** Keep the first and last words, drop from the middle until it fits; still readable. */
function shorten(ws: string[], max: number): string {
  const keep = [...ws];
  while (keep.join("_").length > max && keep.length > 2) keep.splice(Math.floor(keep.length / 2), 1);
  const joined = keep.join("_");
  return joined.length > max ? joined.slice(0, max).replace(/_+$/, "") : joined;
}

/** The prefix of the environment variables the import names after the contract (`warehouse` → `WAREHOUSE`). */
function envPrefix(contract: string): string {
  return contract.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "") || "API";
}

const CREDENTIAL_ENV_FIELDS = ["tokenEnv", "usernameEnv", "passwordEnv"];

/** The credential variables in a contract's `transport.auth` (the single form, or each named scheme's). */
function credentialEnvHolders(auth: unknown): JsonObject[] {
  if (!isObject(auth)) return [];
  const schemes = own(auth, "schemes");
  return [auth, ...(isObject(schemes) ? Object.values(schemes).filter(isObject) : [])];
}

/**
 * After the document's x-contract renamed the contract, the credential variables the import named
 * after the old name follow the new one (as the base URL's does); those the patch states stay.
 */
function renameCredentialEnv(auth: unknown, derived: ReadonlySet<string>, from: string, to: string): void {
  if (from === to) return;
  for (const holder of credentialEnvHolders(auth)) for (const field of CREDENTIAL_ENV_FIELDS) {
    const value = own(holder, field);
    if (typeof value === "string" && derived.has(value) && value.startsWith(`${from}_`)) put(holder, field, `${to}${value.slice(from.length)}`);
  }
}

function contractNameOf(info: JsonObject, review: (kind: ReviewKind, pointer: string, message: string) => void): string {
  const title = typeof own(info, "title") === "string" ? (own(info, "title") as string) : "";
  let name = words(title).join("-").replace(/^[0-9-]+/, "").slice(0, 64).replace(/-+$/, "");
  if (name === "") name = "imported-api";
  review("header-derived", "/info/title", `Contract name ${name} derived from the title; pass --name to choose another.`);
  return name;
}

function coerceVersion(raw: string): string {
  // Digits as written, without leading zeros (semver forbids them; Number() would turn 21 digits into 1e+21).
  const nums = (raw.match(/\d+/g) ?? []).slice(0, 3).map((n) => n.replace(/^0+(?=\d)/, ""));
  while (nums.length < 3) nums.push("0");
  return nums.join(".");
}

function baseUrlOf(doc: JsonObject, review: (kind: ReviewKind, pointer: string, message: string) => void): string {
  const servers = own(doc, "servers");
  const first = Array.isArray(servers) ? servers[0] : undefined;
  if (!isObject(first) || typeof own(first, "url") !== "string") {
    review("base-url-placeholder", "/servers", "No server: base URL https://api.example.invalid is a placeholder.");
    return "https://api.example.invalid";
  }
  let url = own(first, "url") as string;
  const vars = own(first, "variables");
  if (url.includes("{")) {
    url = url.replace(/\{([^}]*)\}/g, (_m, v: string) => {
      const variable = isObject(vars) ? own(vars, v) : undefined;
      const dflt = isObject(variable) ? own(variable, "default") : undefined;
      return typeof dflt === "string" ? dflt : v;
    });
    review("base-url-placeholder", "/servers/0/url", `Server variables filled with their defaults: ${url}.`);
  }
  if (!/^https?:\/\//.test(url)) {
    const path = url.startsWith("/") ? url : "";
    url = `https://api.example.invalid${path}`;
    review("base-url-placeholder", "/servers/0/url", `The server URL is not absolute; base URL ${url} is a placeholder.`);
  }
  if (Array.isArray(servers) && servers.length > 1) review("base-url-placeholder", "/servers", `${servers.length} servers: the first is the base URL.`);
  return url.replace(/\/+$/, "") || url;
}

/** An OpenAPI security requirement list (`security:`) as alternatives of scheme names; undefined when absent. */
function requirementList(sec: unknown): Array<Array<{ name: string; scopes: string[] }>> | undefined {
  if (!Array.isArray(sec)) return undefined;
  return sec.filter(isObject).map((req) =>
    Object.keys(req).map((name) => {
      const list = own(req, name);
      return { name, scopes: Array.isArray(list) ? list.filter((x): x is string => typeof x === "string" && x !== "") : [] };
    }),
  );
}

/** An HTTP token (RFC 9110): what header and cookie names must be. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * `transport.auth` and each operation's `auth` from `components.securitySchemes` and `security`
 * (global and per operation): http bearer and basic, API keys in a header, the query or a cookie,
 * OAuth2 and OpenID Connect as bearer tokens. One scheme used the same way by every operation stays
 * a single form (`type: bearer` / `type: apiKey`, `<CONTRACT>_TOKEN`); otherwise the schemes are
 * named, each with its own environment variables (`<CONTRACT>_<SCHEME>`, basic `…_USERNAME` and
 * `…_PASSWORD`), and operations whose requirements differ from the global ones get their own `auth`.
 */
function authOf(
  doc: JsonObject,
  contract: string,
  review: (kind: ReviewKind, pointer: string, message: string) => void,
): { auth?: JsonObject; scopesOf: (op: JsonObject) => string[]; authOf: (op: JsonObject, pointer: string) => string[][] | undefined } {
  const schemes = isObject(own(doc, "components")) ? own(own(doc, "components") as JsonObject, "securitySchemes") : undefined;
  const schemeMap = isObject(schemes) ? schemes : {};
  const used: string[] = [];
  const collect = (sec: unknown) => {
    for (const req of requirementList(sec) ?? []) for (const { name } of req) if (!used.includes(name)) used.push(name);
  };
  collect(own(doc, "security"));
  const paths = own(doc, "paths");
  const operations: JsonObject[] = [];
  if (isObject(paths)) for (const p of Object.keys(paths)) {
    const item = deref(doc, paths[p]);
    if (isObject(item)) for (const m of METHODS) if (isObject(own(item, m))) {
      operations.push(own(item, m) as JsonObject);
      collect(own(own(item, m) as JsonObject, "security"));
    }
  }
  const prefix = envPrefix(contract);
  // Variables the generated package reads for other things: never a credential's.
  const taken = new Set([`${prefix}_BASE_URL`, `${prefix}_MCP_BEARER`, `${prefix}_JOURNAL`, `${prefix}_MCP_DATABASE`]);
  const envName = (stem: string): string => {
    let name = stem;
    for (let n = 2; taken.has(name); n++) name = `${stem}_${n}`;
    taken.add(name);
    return name;
  };

  // Each usable scheme: its contract name and what it sends; unusable ones are review items.
  interface Mapped {
    readonly source: string;
    readonly name: string;
    readonly scheme: { type: "bearer" } | { type: "basic" } | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string };
    readonly place: string;
  }
  const mapped = new Map<string, Mapped>();
  const names = new Set<string>();
  for (const source of used) {
    const s = deref(doc, own(schemeMap, source));
    const at = pointerOf("components", "securitySchemes", source);
    if (!isObject(s)) {
      review("auth-unsupported", at, `Scheme ${source} is not declared in components.securitySchemes; requests carry no credential for it.`);
      continue;
    }
    const type = own(s, "type");
    const httpScheme = String(own(s, "scheme")).toLowerCase();
    const keyIn = own(s, "in");
    const keyName = own(s, "name");
    const scheme: Mapped["scheme"] | undefined =
      type === "http" && httpScheme === "bearer" ? { type: "bearer" }
      : type === "http" && httpScheme === "basic" ? { type: "basic" }
      : type === "apiKey" && (keyIn === "header" || keyIn === "query" || keyIn === "cookie") && typeof keyName === "string" && keyName !== "" && (keyIn === "query" || HTTP_TOKEN.test(keyName)) ? { type: "apiKey", in: keyIn, name: keyName }
      : type === "oauth2" || type === "openIdConnect" ? { type: "bearer" }
      : undefined;
    if (!scheme) {
      review("auth-unsupported", at, `Scheme ${source} (${String(type)}${keyIn ? ` in ${String(keyIn)}` : ""}${own(s, "scheme") ? ` ${String(own(s, "scheme"))}` : ""}) cannot be expressed; requests carry no credentials for it.`);
      continue;
    }
    let name = source.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^[^A-Za-z_]+/, "").slice(0, 64) || "scheme";
    const stem = name;
    for (let n = 2; names.has(name); n++) name = `${stem.slice(0, 60)}_${n}`;
    names.add(name);
    if (type === "oauth2" || type === "openIdConnect") review("auth-assumed", at, `${String(type)} scheme ${source}: the access token is sent as a bearer token; obtaining it is left to the caller.`);
    const place = scheme.type === "apiKey" ? `${scheme.in} ${scheme.in === "header" ? scheme.name.toLowerCase() : scheme.name}` : "header authorization";
    mapped.set(source, { source, name, scheme, place });
  }

  // Requirements as alternatives of contract scheme names: an alternative with a scheme that could not
  // be mapped is dropped; `{}` (credentials optional) makes the operation public.
  // `pointer` null: the same mapping without review items (they are reported once, where the requirement is).
  const alternativesOf = (sec: unknown, pointer: string | null): string[][] | undefined => {
    const list = requirementList(sec);
    if (list === undefined) return undefined;
    if (list.some((req) => req.length === 0)) {
      if (list.length > 1 && pointer !== null) review("auth-assumed", pointer, "Credentials are optional here (an empty security requirement): the operation is imported as public and sends none.");
      return [];
    }
    const out: string[][] = [];
    for (const req of list) {
      if (req.some(({ name }) => !mapped.has(name))) continue;
      const places = new Map<string, string>();
      const alternative: string[] = [];
      for (const { name } of req) {
        const m = mapped.get(name)!;
        if (places.has(m.place)) {
          if (pointer !== null) review("auth-unsupported", pointer, `Schemes ${places.get(m.place)} and ${name} are required together but both use the ${m.place}; ${name} is not sent.`);
          continue;
        }
        places.set(m.place, name);
        if (!alternative.includes(m.name)) alternative.push(m.name);
      }
      if (alternative.length > 0 && !out.some((a) => a.join("\u0000") === alternative.join("\u0000"))) out.push(alternative);
    }
    return out;
  };
  const globalAlternatives = alternativesOf(own(doc, "security"), "/security") ?? [];
  const same = (a: string[][], b: string[][]) => JSON.stringify(a) === JSON.stringify(b);
  const operationAlternatives = (op: JsonObject): string[][] => alternativesOf(own(op, "security"), null) ?? globalAlternatives;

  const scopesOf = (op: JsonObject): string[] => {
    const out: string[] = [];
    for (const req of requirementList(own(op, "security") ?? own(doc, "security")) ?? []) {
      for (const { name, scopes } of req) if (mapped.has(name)) for (const s of scopes) if (!out.includes(s)) out.push(s);
    }
    return out;
  };

  const requiredNames = new Set([...globalAlternatives.flat(), ...operations.flatMap((op) => (own(op, "security") !== undefined ? (alternativesOf(own(op, "security"), null) ?? []).flat() : []))]);
  const kept = [...mapped.values()].filter((m) => requiredNames.has(m.name));
  if (kept.length === 0) return { scopesOf, authOf: () => undefined };

  // One bearer or header API key that every operation requires alone: the single form, as before.
  const only = kept.length === 1 ? kept[0]! : undefined;
  const uniform = only !== undefined && operations.every((op) => same(operationAlternatives(op), [[only.name]]));
  if (only && uniform && (only.scheme.type === "bearer" || (only.scheme.type === "apiKey" && only.scheme.in === "header" && /^[A-Za-z0-9-]+$/.test(only.scheme.name)))) {
    const tokenEnv = `${prefix}_TOKEN`;
    const auth: JsonObject = only.scheme.type === "bearer" ? { type: "bearer", tokenEnv } : { type: "apiKey", header: (only.scheme as { name: string }).name, tokenEnv };
    return { auth, scopesOf, authOf: () => undefined };
  }

  const declared: JsonObject = {};
  for (const m of kept) {
    const stem = kept.length === 1 ? prefix : `${prefix}_${m.name.toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "") || "SCHEME"}`;
    const entry: JsonObject =
      m.scheme.type === "basic" ? { type: "basic", usernameEnv: envName(`${stem}_USERNAME`), passwordEnv: envName(`${stem}_PASSWORD`) }
      : m.scheme.type === "bearer" ? { type: "bearer", tokenEnv: envName(kept.length === 1 ? `${stem}_TOKEN` : stem) }
      : { type: "apiKey", in: m.scheme.in, name: m.scheme.name, tokenEnv: envName(kept.length === 1 ? `${stem}_TOKEN` : stem) };
    put(declared, m.name, entry);
  }
  return {
    auth: { schemes: declared, require: globalAlternatives },
    scopesOf,
    authOf: (op, pointer) => {
      const own_ = alternativesOf(own(op, "security"), `${pointer}/security`);
      return own_ !== undefined && !same(own_, globalAlternatives) ? own_ : undefined;
    },
  };
}

/** Names of a string property that carries an API's error code, best first; `error.<name>` after the top level. */
const ERROR_CODE_NAMES = ["code", "error_code", "errorCode", "error_type", "errorType", "type", "reason", "error"];
const ERROR_MESSAGE_NAMES = ["message", "detail", "error_description", "errorMessage", "error_message", "description", "title", "msg", "error"];
const ERROR_FIELD_NAMES = ["field", "param", "parameter"];

/**
 * How the API writes its errors, from its error responses (4xx/5xx, ranges, default): RFC 9457
 * problem details when any is `application/problem+json`; else the API's own body when an error
 * schema has a string code property (the pointer most responses share); else the status alone.
 */
class ErrorFormatVotes {
  private problems = 0;
  private firstProblem: string | null = null;
  /** Problem responses by the member carrying their code (PROBLEM_CODE_MEMBERS), when one does. */
  private readonly problemCodes = new Map<string, number>();
  private readonly pointers = new Map<string, { count: number; at: string; message: string | null; field: string | null }>();
  private bodies = 0;
  private readonly messages = new Map<string, number>();

  add(doc: JsonObject, response: unknown, at: string): void {
    if (!isObject(response)) return;
    const content = own(response, "content");
    if (!isObject(content) || Object.keys(content).length === 0) return;
    this.bodies++;
    const problem = Object.keys(content).find((t) => t.split(";")[0]!.trim().toLowerCase() === "application/problem+json");
    if (problem !== undefined) {
      this.problems++;
      this.firstProblem ??= `${at}/content/${escapeKey(problem)}`;
      const media = content[problem];
      const member = problemCodePointer(doc, isObject(media) ? own(media, "schema") : undefined);
      if (member !== null) this.problemCodes.set(member, (this.problemCodes.get(member) ?? 0) + 1);
      return;
    }
    const media = jsonMedia(content);
    if (!media) return;
    const found = errorBodyPointers(doc, media.schema);
    if (found.code === null) {
      // No code to read, but a message still helps a status-style contract.
      if (found.message !== null) this.messages.set(found.message, (this.messages.get(found.message) ?? 0) + 1);
      return;
    }
    const vote = this.pointers.get(found.code);
    if (vote) vote.count++;
    else this.pointers.set(found.code, { count: 1, at: `${at}/content/${escapeKey(media.type)}/schema`, message: found.message, field: found.field });
  }

  decide(): { format: JsonObject; pointer: string; message: string } {
    if (this.problems > 0) {
      let member: [string, number] | undefined;
      for (const entry of this.problemCodes) if (member === undefined || entry[1] > member[1]) member = entry;
      return {
        format: member !== undefined ? { style: "problem", code: member[0] } : { style: "problem" },
        pointer: this.firstProblem!,
        message: member !== undefined
          ? `${this.problems} error responses are RFC 9457 problem details carrying the API's own code (${member[1]} at ${member[0]}): errorFormat style problem, code at ${member[0]}, message at /detail. The codes each response names there (enum, const, examples, or its description) are its codes; a status names the code when a response names none.`
          : `${this.problems} error responses are RFC 9457 problem details: errorFormat style problem (code at /type, message at /detail). The codes each response names (a code-like enum at /type, or its description) are its codes; a status names the code when a response names none.`,
      };
    }
    let best: [string, { count: number; at: string; message: string | null; field: string | null }] | undefined;
    for (const entry of this.pointers) if (best === undefined || entry[1].count > best[1].count) best = entry;
    if (best) {
      const [code, vote] = best;
      const format: JsonObject = { style: "body", code };
      if (vote.message !== null) put(format, "message", vote.message);
      if (vote.field !== null) put(format, "field", vote.field);
      return {
        format,
        pointer: vote.at,
        message: `Error bodies carry a code at ${code} (${vote.count} of ${this.bodies} error responses with a body): errorFormat style body. The codes each response names there (enum, const, examples, or its description) are its codes, bound by \`wire\` where the contract spells them otherwise; a status names the code when a response names none.`,
      };
    }
    let message: [string, number] | undefined;
    for (const entry of this.messages) if (message === undefined || entry[1] > message[1]) message = entry;
    return {
      format: message !== undefined ? { style: "status", message: message[0] } : { style: "status" },
      pointer: "/paths",
      message: `${this.bodies > 0 ? `${this.bodies} error responses declare a body without a recognisable code` : "No error response declares a body"}: errorFormat style status, one error code per declared status.`,
    };
  }
}

/** The properties of an object schema, through $ref and allOf (first definition of a name wins). */
function schemaProperties(doc: JsonObject, schema: unknown, depth = 0): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const s = deref(doc, schema);
  if (!isObject(s) || depth > 8) return out;
  const props = own(s, "properties");
  if (isObject(props)) for (const name of Object.keys(props)) if (!out.has(name)) out.set(name, deref(doc, props[name]));
  const allOf = own(s, "allOf");
  if (Array.isArray(allOf)) for (const part of allOf) for (const [name, p] of schemaProperties(doc, part, depth + 1)) if (!out.has(name)) out.set(name, p);
  return out;
}

function isStringSchema(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const type = own(schema, "type");
  if (type === "string" || (Array.isArray(type) && type.includes("string"))) return true;
  const values = own(schema, "enum");
  return type === undefined && Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === "string");
}

/** JSON pointers to an error body's code, message and field: top-level string properties, else those of an `error` object. */
function errorBodyPointers(doc: JsonObject, schema: unknown): { code: string | null; message: string | null; field: string | null } {
  const find = (props: Map<string, unknown>, names: readonly string[]) => names.find((n) => props.has(n) && isStringSchema(props.get(n)));
  const top = schemaProperties(doc, schema);
  const code = find(top, ERROR_CODE_NAMES);
  const topMessage = find(top, ERROR_MESSAGE_NAMES.filter((n) => n !== code));
  if (code !== undefined) {
    const field = find(top, ERROR_FIELD_NAMES);
    return { code: pointerOf(code), message: topMessage === undefined ? null : pointerOf(topMessage), field: field === undefined ? null : pointerOf(field) };
  }
  const nested = top.get("error");
  const noCode = { code: null, message: topMessage === undefined ? null : pointerOf(topMessage), field: null };
  if (!isObject(nested)) return noCode;
  const inner = schemaProperties(doc, nested);
  // Under an `error` object its name is a code too (YNAB's {"error": {"id", "name", "detail"}}).
  const innerCode = find(inner, [...ERROR_CODE_NAMES.filter((n) => n !== "error"), "name"]);
  if (innerCode === undefined) {
    const innerMessage = find(inner, ERROR_MESSAGE_NAMES.filter((n) => n !== "error"));
    return innerMessage === undefined ? noCode : { ...noCode, message: pointerOf("error", innerMessage) };
  }
  const message = find(inner, ERROR_MESSAGE_NAMES.filter((n) => n !== innerCode && n !== "error"));
  const field = find(inner, ERROR_FIELD_NAMES);
  return { code: pointerOf("error", innerCode), message: message === undefined ? null : pointerOf("error", message), field: field === undefined ? null : pointerOf("error", field) };
}

function jsonMedia(content: unknown): { schema: unknown; type: string } | undefined {
  if (!isObject(content)) return undefined;
  for (const type of Object.keys(content)) {
    const base = type.split(";")[0]!.trim().toLowerCase();
    if (base === "application/json" || /^application\/[^/]*\+json$/.test(base) || base === "*/*" || base === "application/*") {
      const media = content[type];
      return { schema: isObject(media) ? own(media, "schema") ?? {} : {}, type };
    }
  }
  return undefined;
}

/**
 * The members of a problem-details error body that carry the API's own code, best first: a `code`
 * member (or `error_code`, `errorCode`, `error.code`) says more than RFC 9457's `type`, which is read
 * only when its values are code-like (an enum or const of words, not URIs).
 */
const PROBLEM_CODE_MEMBERS: ReadonlyArray<readonly string[]> = [["code"], ["error_code"], ["errorCode"], ["error", "code"]];

/** Where a problem response carries its code: a code member, `/type` when that is a code-like enum, else null (the default `/type`). */
function problemCodePointer(doc: JsonObject, schema: unknown): string | null {
  for (const path of PROBLEM_CODE_MEMBERS) {
    const leaves = schemasAt(doc, schema, path);
    if (leaves.some(isStringSchema)) return pointerOf(...path);
  }
  return null;
}

/** Every schema (through $ref, allOf, anyOf, oneOf) that describes the member at `path` of `schema`. */
function schemasAt(doc: JsonObject, schema: unknown, path: readonly string[]): unknown[] {
  let nodes: unknown[] = [schema];
  for (const name of path) {
    const next: unknown[] = [];
    for (const n of nodes) for (const part of composedParts(doc, n)) {
      const props = own(part, "properties");
      if (isObject(props) && own(props, name) !== undefined) next.push(deref(doc, own(props, name)));
    }
    nodes = next;
  }
  return nodes.map((n) => deref(doc, n));
}

/** A schema and the schemas it is composed of (allOf, anyOf, oneOf), through $ref, bounded. */
function composedParts(doc: JsonObject, schema: unknown, depth = 0): JsonObject[] {
  const s = deref(doc, schema);
  if (!isObject(s) || depth > 8) return [];
  const out: JsonObject[] = [s];
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const list = own(s, keyword);
    if (Array.isArray(list)) for (const part of list) out.push(...composedParts(doc, part, depth + 1));
  }
  return out;
}

/** An API code value the import can name a contract code after: words joined by `_`, `-` or `.`; never a URI or a sentence. */
const CODE_VALUE = /^[A-Za-z][A-Za-z0-9]*(?:[._-][A-Za-z0-9]+)*$/;

/**
 * The code values an error body's code member takes, as the schema states them at `pointer`: its
 * `const`, `enum`, `examples` and `example` (through $ref and allOf/anyOf/oneOf), in document order.
 */
function codeValuesAt(doc: JsonObject, schema: unknown, pointer: string): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === "string" && v.length <= 100 && CODE_VALUE.test(v) && !out.includes(v)) out.push(v);
  };
  for (const leaf of schemasAt(doc, schema, splitPointer(pointer))) for (const part of composedParts(doc, leaf)) {
    add(own(part, "const"));
    for (const keyword of ["enum", "examples"]) {
      const list = own(part, keyword);
      if (Array.isArray(list)) list.forEach(add);
    }
    add(own(part, "example"));
  }
  return out;
}

/** A backticked token in a response description (`INSUFFICIENT_STOCK`), and what follows it. */
const NAMED_CODE = /`([A-Za-z][A-Za-z0-9]*(?:[._-][A-Za-z0-9]+)*)`/g;
const SCREAMING_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/**
 * The codes a response's description names, each with the text that defines it. A token counts when
 * the schema's code member allows it; with no values in the schema, when it is SCREAMING_SNAKE
 * (`INSUFFICIENT_STOCK`) or a defined snake_case token (`` `insufficient_stock`: not enough stock ``).
 * A definition is the text after `:` or a dash, to the end of its line.
 */
function codesNamedIn(description: string, values: readonly string[]): Array<{ value: string; text: string | null }> {
  const out: Array<{ value: string; text: string | null }> = [];
  for (const m of description.matchAll(NAMED_CODE)) {
    const value = m[1]!;
    const after = description.slice(m.index! + m[0].length);
    const definition = /^[ \t]*(?::|-|–|—)[ \t]*([^\n`]*)/.exec(after);
    const counts = values.length > 0 ? values.includes(value) : SCREAMING_SNAKE.test(value) || (definition !== null && SNAKE.test(value));
    if (!counts || out.some((c) => c.value === value)) continue;
    const text = definition?.[1]!.replace(/\s+/g, " ").trim().replace(/[\s,;]+$/, "") ?? "";
    out.push({ value, text: text === "" ? null : text });
  }
  return out;
}

/** The contract code for an API code value: itself when it is one (`INSUFFICIENT_STOCK`), else its words (`card_declined` → `CARD_DECLINED`). */
function codeForValue(value: string): string {
  if (/^[A-Z][A-Z0-9_]*$/.test(value)) return value;
  const name = words(value).join("_").toUpperCase();
  return /^[A-Z]/.test(name) ? name : `E_${name}`;
}

/** The status a code named only by a `default` response is taken to answer with, from words of its name; 400 otherwise. */
const CODE_WORD_STATUS: ReadonlyArray<readonly [RegExp, number]> = [
  [/(^|_)(NOT_FOUND|MISSING|NO_SUCH)(_|$)/, 404],
  [/(^|_)(UNAUTHENTICATED|UNAUTHORIZED|AUTHENTICATION|INVALID_TOKEN|TOKEN_EXPIRED|INVALID_API_KEY)(_|$)/, 401],
  [/(^|_)(FORBIDDEN|PERMISSION|PERMISSIONS|NOT_ALLOWED|ACCESS_DENIED)(_|$)/, 403],
  [/(^|_)(CONFLICT|ALREADY|EXISTS|DUPLICATE|IDEMPOTENCY)(_|$)/, 409],
  [/(^|_)(RATE_LIMIT|RATE_LIMITED|TOO_MANY_REQUESTS|QUOTA|THROTTLED)(_|$)/, 429],
  [/(^|_)(INTERNAL|SERVER_ERROR|API_ERROR)(_|$)/, 500],
  [/(^|_)(UNAVAILABLE|TIMEOUT|TIMED_OUT|TEMPORARILY|MAINTENANCE)(_|$)/, 503],
];
function statusForCodeName(code: string): number {
  return CODE_WORD_STATUS.find(([pattern]) => pattern.test(code))?.[1] ?? 400;
}

/** An error code a response names: the contract code, the API's spelling when it differs, and what it means. */
interface DocumentCode {
  readonly code: string;
  readonly wire: string | null;
  readonly description: string | null;
}

/**
 * The error codes an error response names, read where the SDK will read them: the values of the
 * error format's code member (`const`, `enum`, `examples`, `example`), narrowed to the codes its
 * description names in backticks when it names some; with no values, the codes the description names.
 * Values shared by responses of several statuses are the API's whole list, not a response's: they name
 * a response's codes only through its description.
 */
class ErrorCodeReader {
  private readonly pointer: string | null;
  private readonly valuesCache = new Map<unknown, string[]>();
  private readonly statusesByValues = new Map<string, Set<number>>();

  constructor(private readonly doc: JsonObject, format: JsonObject, drafts: readonly Draft[]) {
    const code = own(format, "code");
    this.pointer = typeof code === "string" ? code : own(format, "style") === "problem" ? "/type" : null;
    if (this.pointer === null) return;
    for (const d of drafts) {
      const responses = own(d.op, "responses");
      if (isObject(responses)) for (const key of Object.keys(responses)) if (/^[45]\d\d$/.test(key)) {
        const values = this.values(deref(doc, responses[key]));
        if (values.length === 0) continue;
        const k = values.join("\u0000");
        (this.statusesByValues.get(k) ?? this.statusesByValues.set(k, new Set()).get(k)!).add(Number(key));
      }
    }
  }

  private values(response: unknown): string[] {
    if (this.pointer === null || !isObject(response)) return [];
    let values = this.valuesCache.get(response);
    if (values === undefined) {
      const media = jsonMedia(own(response, "content"));
      values = media === undefined ? [] : codeValuesAt(this.doc, media.schema, this.pointer);
      this.valuesCache.set(response, values);
    }
    return values;
  }

  /** The codes `response` names (none: its status names its code); `status` null for a `default` response. */
  read(response: unknown, status: number | null, note: (message: string) => void): DocumentCode[] {
    if (!isObject(response)) return [];
    const raw = typeof own(response, "description") === "string" ? (own(response, "description") as string) : "";
    const description = raw.replace(/\s+/g, " ").trim();
    const values = this.values(response);
    let picked = codesNamedIn(raw, values);
    if (picked.length === 0 && values.length > 0) {
      const statuses = status === null ? undefined : this.statusesByValues.get(values.join("\u0000"));
      if (statuses !== undefined && statuses.size > 1) {
        const shown = values.length > 8 ? `${values.slice(0, 8).join(", ")} and ${values.length - 8} more` : values.join(", ");
        note(`The code values at ${this.pointer} (${shown}) are shared by error responses of HTTP ${[...statuses].sort((a, b) => a - b).join(", ")}, and this response's description names none of them: HTTP ${status} is named after its status. Name its codes in the description (\`CODE\`: meaning) or in its x-contract.`);
        return [];
      }
      picked = values.map((value) => ({ value, text: null }));
    }
    if (picked.length === 0) return [];
    if (this.pointer === null && (picked.length > 1 || status === null)) {
      note(`The description names ${picked.map((p) => p.value).join(", ")}, but the error bodies carry no code member to tell ${picked.length > 1 ? "them" : "it"} apart by (errorFormat style status): ${status === null ? "not read" : `HTTP ${status} is named after its status`}. State the code with x-contract.`);
      return [];
    }
    return picked.map(({ value, text }) => {
      const code = codeForValue(value);
      return { code, wire: code === value ? null : value, description: text ?? (description === "" ? null : description) };
    });
  }
}

/** Statuses a `default` error response stands for when it names no code: each gets its conventional code, contract-wide. */
const DEFAULT_ERROR_STATUSES = [400, 401, 403, 404, 409, 429, 500, 503];

const WEBHOOK_METHODS = ["post", "put", "patch", "get", "delete"] as const;

/**
 * OpenAPI 3.1 `webhooks` (and 3.0's `x-webhooks`) as contract webhooks: each event's payload is the
 * JSON request body the platform sends (of its first method with one). Names keep to what the
 * contract allows (letters, digits, `_`, `.`, `-`, starting with a letter), unique in document order.
 */
function buildWebhooks(
  doc: JsonObject,
  ctx: SchemaContext,
  review: (kind: ReviewKind, pointer: string, message: string) => void,
  origins: { set(pointer: string, origin: string): void },
  takenTypeIds: Set<string>,
): JsonObject {
  const out: JsonObject = {};
  const taken = new Set<string>();
  for (const key of ["webhooks", "x-webhooks"]) {
    const hooks = own(doc, key);
    if (!isObject(hooks)) continue;
    for (const [rawName, rawItem] of Object.entries(hooks)) {
      const at = pointerOf(key, rawName);
      const item = deref(doc, rawItem);
      const method = isObject(item) ? WEBHOOK_METHODS.find((m) => isObject(own(item, m))) : undefined;
      const op = method !== undefined ? (own(item as JsonObject, method) as JsonObject) : undefined;
      const body = op !== undefined ? deref(doc, own(op, "requestBody")) : undefined;
      const media = isObject(body) ? jsonMedia(own(body, "content")) : undefined;
      if (op === undefined || media === undefined) {
        review("callbacks-dropped", at, `Webhook ${JSON.stringify(rawName)} has no JSON request body: dropped.`);
        continue;
      }
      let base = rawName.replace(/[^A-Za-z0-9_.-]+/g, "_").slice(0, 120);
      if (!/^[A-Za-z]/.test(base)) base = `webhook_${base}`;
      // Unique as a name, and as the SDK type of its payload among the types and operation types.
      let name = base;
      for (let n = 2; taken.has(name.toLowerCase()) || takenTypeIds.has(webhookTypeIdentifier(name)); n++) name = `${base}_${n}`;
      taken.add(name.toLowerCase());
      takenTypeIds.add(webhookTypeIdentifier(name));
      if (name !== rawName) review("field-renamed", at, `Webhook ${JSON.stringify(rawName)} is ${name} in the contract.`);
      const opAt = `${at}/${method}`;
      const payloadAt = `${opAt}/requestBody/content/${escapeKey(media.type)}/schema`;
      const summary = [own(op, "summary"), own(item as JsonObject, "summary"), own(op, "description")].find((v): v is string => typeof v === "string" && v.trim() !== "");
      const hook: JsonObject = { summary: summary !== undefined ? summary.trim().split("\n")[0]! : `Event ${rawName}.` };
      const description = own(op, "description");
      if (typeof description === "string" && description.trim() !== "") put(hook, "description", description);
      if (own(op, "deprecated") === true) put(hook, "deprecated", true);
      put(hook, "payload", convertSchema(ctx, media.schema, payloadAt));
      put(out, name, hook);
      origins.set(joinPointer("/webhooks", name), opAt);
      origins.set(joinPointer("/webhooks", name, "payload"), payloadAt);
    }
  }
  return out;
}

/** A media type's `type/subtype`, lower case, without parameters. */
function mediaBase(type: string): string {
  return type.split(";")[0]!.trim().toLowerCase();
}

const CONCRETE_MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * The concrete media types of content objects other than `chosen` (the one the contract models),
 * sorted: what http.alsoAccepts and http.alsoOffers list so the diff can tell a second media type
 * beside the first from a change of type. Wildcards name no representation and are left out.
 */
function otherMediaTypes(contents: Iterable<unknown> | unknown, chosen: string): string[] {
  const list = Array.isArray(contents) ? contents : [contents];
  const types = new Set<string>();
  for (const content of list) {
    if (!isObject(content)) continue;
    for (const type of Object.keys(content)) {
      const base = mediaBase(type);
      if (base !== chosen && CONCRETE_MEDIA_TYPE.test(base) && !base.includes("*")) types.add(base);
    }
  }
  return [...types].sort();
}

/** A form-urlencoded or multipart media type of a request body (when it has no JSON one), with its encoding object. */
function formMedia(content: unknown): { schema: unknown; type: string; contentType: "application/x-www-form-urlencoded" | "multipart/form-data"; encoding: JsonObject } | undefined {
  if (!isObject(content)) return undefined;
  for (const wanted of ["application/x-www-form-urlencoded", "multipart/form-data"] as const) {
    for (const type of Object.keys(content)) {
      if (type.split(";")[0]!.trim().toLowerCase() !== wanted) continue;
      const media = content[type];
      const encoding = isObject(media) ? own(media, "encoding") : undefined;
      return { schema: isObject(media) ? own(media, "schema") ?? {} : {}, type, contentType: wanted, encoding: isObject(encoding) ? encoding : {} };
    }
  }
  return undefined;
}

/** The styles OpenAPI defines per parameter location; the first is the default. */
const PARAM_STYLES: ReadonlyMap<string, readonly string[]> = new Map([
  ["path", ["simple", "label", "matrix"]],
  ["query", ["form", "spaceDelimited", "pipeDelimited", "deepObject"]],
  ["header", ["simple"]],
  ["cookie", ["form"]],
]);

/**
 * What the contract must say of a parameter's serialization (`http.params`): a style, explode or
 * allowReserved the document declares beyond the location's defaults, and the style of an object
 * parameter always (without one the contract sends objects as JSON text). Null when nothing is.
 */
function paramSettings(doc: JsonObject, p: JsonObject, where: string, schema: unknown, pointer: string, review: (kind: ReviewKind, pointer: string, message: string) => void): JsonObject | undefined {
  const styles = PARAM_STYLES.get(where)!;
  let style = own(p, "style");
  if (style !== undefined && (typeof style !== "string" || !styles.includes(style))) {
    review("parameter-style-dropped", `${pointer}/style`, `Style ${JSON.stringify(style)} is not defined for ${where} parameters; ${styles[0]} is used.`);
    style = undefined;
  }
  const effective = (style as string | undefined) ?? styles[0]!;
  const explode = own(p, "explode");
  const defaultExplode = effective === "form";
  const out: JsonObject = {};
  const shape = shapeOf(doc, schema);
  const isObjectValue = shape.types.has("object") || (shape.types.size === 0 && shape.properties.size > 0);
  if (style !== undefined && style !== styles[0]) put(out, "style", effective);
  else if (isObjectValue) put(out, "style", effective);
  if (typeof explode === "boolean" && explode !== defaultExplode) put(out, "explode", explode);
  if (own(p, "allowReserved") === true && where === "query") put(out, "allowReserved", true);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Whether a (converted) property schema is bytes: `format: binary` or `contentEncoding: base64`. */
function isBinarySchema(schema: Json): boolean {
  return isObject(schema) && (own(schema, "format") === "binary" || own(schema, "contentEncoding") === "base64");
}

/** A multipart file field's schema as the contract takes it: base64 text (`format: binary` becomes `contentEncoding: base64`). */
function fileSchema(schema: Json): Json {
  if (!isObject(schema) || own(schema, "format") !== "binary") return schema;
  const out: JsonObject = {};
  for (const k of Object.keys(schema)) if (k !== "format") put(out, k, schema[k]);
  put(out, "contentEncoding", "base64");
  return out;
}

/** A form or multipart field's `http.encoding` entry from the document's Encoding Object, or undefined. */
function encodingSettings(entry: unknown, contentType: string, pointer: string, review: (kind: ReviewKind, pointer: string, message: string) => void): JsonObject | undefined {
  if (!isObject(entry)) return undefined;
  const out: JsonObject = {};
  const partType = own(entry, "contentType");
  if (contentType === "multipart/form-data" && typeof partType === "string") {
    const first = partType.split(",")[0]!.split(";")[0]!.trim();
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(first)) put(out, "contentType", first);
    if (first !== partType.trim()) review("encoding-narrowed", `${pointer}/contentType`, `Part media type ${JSON.stringify(partType)}: ${first} is sent.`);
  }
  if (contentType === "application/x-www-form-urlencoded") {
    const style = own(entry, "style");
    if (typeof style === "string" && PARAM_STYLES.get("query")!.includes(style) && style !== "form") put(out, "style", style);
    const explode = own(entry, "explode");
    const effective = typeof own(out, "style") === "string" ? (own(out, "style") as string) : "form";
    if (typeof explode === "boolean" && explode !== (effective === "form")) put(out, "explode", explode);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function buildInput(
  doc: JsonObject,
  ctx: SchemaContext,
  d: Draft,
  opName: string,
  review: (kind: ReviewKind, pointer: string, message: string) => void,
): { fields: Field[]; path: string; contentType?: string; bodyRequired?: boolean; dependentRequired?: Array<[string, string[]]>; alsoAccepts?: string[]; rootKeywords?: Array<[string, Json]> } {
  // Path-level parameters, overridden by operation-level ones of the same name and location.
  const params = new Map<string, { p: JsonObject; pointer: string }>();
  const add = (list: unknown, base: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const p = deref(doc, raw);
      if (isObject(p) && typeof own(p, "name") === "string" && typeof own(p, "in") === "string") {
        const ptr = isObject(raw) && typeof own(raw, "$ref") === "string" ? (own(raw, "$ref") as string).slice(1) : `${base}/${i}`;
        params.set(`${String(own(p, "in"))} ${String(own(p, "name"))}`, { p, pointer: ptr });
      }
    });
  };
  const itemPtr = d.pointer.slice(0, d.pointer.lastIndexOf("/"));
  add(own(d.pathItem, "parameters"), `${itemPtr}/parameters`);
  add(own(d.op, "parameters"), `${d.pointer}/parameters`);

  const fields: Field[] = [];
  const keys = new Map<string, Field>();
  let path = d.path;
  const order = ["query", "path", "header", "cookie"];
  const sorted = [...params.values()].sort((a, b) => order.indexOf(String(own(a.p, "in"))) - order.indexOf(String(own(b.p, "in"))));
  for (const { p, pointer } of sorted) {
    const where = own(p, "in") as string;
    const wire = own(p, "name") as string;
    if (where === "cookie" && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(wire)) {
      review("parameter-dropped", pointer, `Cookie parameter ${JSON.stringify(wire)} dropped: not a cookie name the contract accepts.`);
      continue;
    }
    if (where === "header" && TRANSPORT_HEADERS.has(wire.toLowerCase())) {
      review("parameter-dropped", pointer, `Header parameter ${wire} dropped: the generated transport sets it.`);
      continue;
    }
    if (where === "header" && !/^[A-Za-z0-9-]+$/.test(wire)) {
      review("parameter-dropped", pointer, `Header parameter ${JSON.stringify(wire)} dropped: not a header name the contract accepts.`);
      continue;
    }
    if (!["query", "path", "header", "cookie"].includes(where)) continue;
    let schema: Json;
    if (own(p, "schema") !== undefined) schema = convertSchema(ctx, own(p, "schema"), `${pointer}/schema`);
    else {
      const media = jsonMedia(own(p, "content"));
      schema = media ? convertSchema(ctx, media.schema, `${pointer}/content`) : { type: "string" };
    }
    const desc = own(p, "description");
    if (typeof desc === "string" && desc.trim() !== "" && isObject(schema) && own(schema, "description") === undefined && own(schema, "$ref") === undefined) {
      schema = { description: desc.trim(), ...schema };
    } else if (typeof desc === "string" && desc.trim() !== "" && isObject(schema) && own(schema, "$ref") !== undefined) {
      const wrapped: JsonObject = {};
      for (const k of Object.keys(schema)) put(wrapped, k, schema[k]);
      put(wrapped, "description", desc.trim());
      schema = wrapped;
    }
    // A parameter's deprecation and sunset (`x-sunset`, which implies deprecation) go on its field's schema.
    const paramSunsetRaw = own(p, "x-sunset");
    const paramSunset = sunsetDate(paramSunsetRaw);
    if (paramSunsetRaw !== undefined && paramSunset === null) review("sunset-unreadable", `${pointer}/x-sunset`, `x-sunset ${JSON.stringify(paramSunsetRaw)} is not a date: deprecated without a sunset.`);
    if ((own(p, "deprecated") === true || paramSunsetRaw !== undefined) && isObject(schema)) put(schema, "deprecated", true);
    if (paramSunset !== null && isObject(schema)) put(schema, "x-sunset", paramSunset);
    let name = where === "header" ? (wire.toLowerCase() === "idempotency-key" ? "idempotency_key" : words(wire).join("_") || "header") : wire;
    const key = collisionKey(name);
    if (keys.has(key) || key === "") {
      if (where === "query") {
        review("parameter-dropped", pointer, `Query parameter ${wire} dropped: it collides with ${keys.get(key)?.name ?? "an empty name"} once converted to an identifier.`);
        continue;
      }
      const base = `${name}_${where}`;
      name = base;
      for (let n = 2; keys.has(collisionKey(name)); n++) name = `${base}_${n}`;
      review("field-renamed", pointer, `${where} parameter ${wire} is input field ${name}.`);
    }
    if (where === "path") {
      if (!path.includes(`{${wire}}`)) {
        review("parameter-dropped", pointer, `Path parameter ${wire} is not in the path ${d.path}; dropped.`);
        continue;
      }
      if (name !== wire) path = path.split(`{${wire}}`).join(`{${name}}`);
    }
    const settings = paramSettings(doc, p, where, own(p, "schema"), pointer, review);
    const origin = own(p, "schema") !== undefined ? `${pointer}/schema` : pointer;
    const field: Field = { name, schema, required: where === "path" || own(p, "required") === true, binding: where as Field["binding"], wire, origin, ...(settings !== undefined ? { params: settings } : {}) };
    keys.set(collisionKey(name), field);
    fields.push(field);
  }
  // Path placeholders without a declared parameter still need a field.
  for (const m of path.matchAll(/\{([^}]+)\}/g)) {
    const n = m[1]!;
    if (!fields.some((f) => f.binding === "path" && f.name === n)) {
      if (keys.has(collisionKey(n))) {
        const renamed = `${words(n).join("_")}_path`;
        path = path.split(`{${n}}`).join(`{${renamed}}`);
        const f: Field = { name: renamed, schema: { type: "string" }, required: true, binding: "path", wire: n, origin: d.pointer };
        keys.set(collisionKey(renamed), f);
        fields.push(f);
        review("field-renamed", d.pointer, `Undeclared path parameter ${n} is input field ${renamed} (a string).`);
      } else {
        const f: Field = { name: n, schema: { type: "string" }, required: true, binding: "path", wire: n, origin: d.pointer };
        keys.set(collisionKey(n), f);
        fields.push(f);
        review("parameter-dropped", d.pointer, `Path parameter ${n} is not declared; added as a required string.`);
      }
    }
  }

  // Body: merged into the input when it is a plain object whose properties collide with nothing.
  let contentType: string | undefined;
  let alsoAccepts: string[] = [];
  const rootKeywords: Array<[string, Json]> = [];
  let bodyRequired = false;
  const dependentRequired: Array<[string, string[]]> = [];
  const bodyRaw = own(d.op, "requestBody");
  const body = deref(doc, bodyRaw);
  if (isObject(body)) {
    const bodyPtr = isObject(bodyRaw) && typeof own(bodyRaw, "$ref") === "string" ? (own(bodyRaw, "$ref") as string).slice(1) : `${d.pointer}/requestBody`;
    const form = jsonMedia(own(body, "content")) === undefined ? formMedia(own(body, "content")) : undefined;
    const media = jsonMedia(own(body, "content")) ?? form;
    const required = own(body, "required") === true;
    if (form !== undefined && d.method !== "get") contentType = form.contentType;
    if (!media) {
      const types = isObject(own(body, "content")) ? Object.keys(own(body, "content") as JsonObject).join(", ") : "none";
      review("body-not-json", bodyPtr, `Request body (${types}) dropped${required ? "; it is required, so calls will be refused until the contract is completed by hand" : ""}.`);
    } else if (d.method === "get") {
      review("body-not-json", bodyPtr, "A GET request body dropped: the contract sends GET fields as query parameters.");
    } else {
      const fullShape = shapeOf(doc, media.schema);
      // A body whose composition only adds constraints on its own properties (anyOf of `required`
      // lists, if/then on a field) is still an object of those properties: merged, with the
      // composition kept on the input, where the same names mean the same fields.
      const bodyRoot = deref(doc, media.schema);
      const constraints = constraintKeywords(bodyRoot, new Set(fullShape.properties.keys()));
      const shape = constraints.length > 0 ? shapeOf(doc, withoutKeys(bodyRoot as JsonObject, constraints)) : fullShape;
      const mediaPtr = `${bodyPtr}/content/${escapeKey(media.type)}/schema`;
      const collides = [...shape.properties.keys()].find((k) => keys.has(collisionKey(k)) || collisionKey(k) === "");
      const mergeable = d.method !== "delete" && shape.types.size === 1 && shape.types.has("object") && shape.properties.size > 0 && !shape.composed && collides === undefined && distinctKeys([...shape.properties.keys()]);
      if (mergeable) {
        for (const keyword of constraints) {
          const value = own(bodyRoot as JsonObject, keyword);
          rootKeywords.push([keyword, Array.isArray(value) ? value.map((sub, i) => convertSchema(ctx, sub, `${mediaPtr}/${keyword}/${i}`)) : convertSchema(ctx, value, `${mediaPtr}/${keyword}`)]);
        }
      }
      if (mergeable) {
        for (const [prop, sub] of shape.properties) {
          let converted = convertSchema(ctx, sub, `${mediaPtr}/properties/${escapeKey(prop)}`);
          if (form?.contentType === "multipart/form-data" && isBinarySchema(converted)) converted = fileSchema(converted);
          const encoded = form !== undefined ? encodingSettings(own(form.encoding, prop), form.contentType, `${bodyPtr}/content/${escapeKey(form.type)}/encoding/${escapeKey(prop)}`, review) : undefined;
          const f: Field = { name: prop, schema: converted, required: required && shape.required.has(prop), binding: "body-property", origin: `${mediaPtr}/properties/${escapeKey(prop)}`, ...(encoded !== undefined ? { encoding: encoded } : {}) };
          keys.set(collisionKey(prop), f);
          fields.push(f);
        }
        // A required body whose fields are all optional is still sent ({} or an empty form).
        if (required && ![...shape.properties.keys()].some((k) => shape.required.has(k)) && !requiresInEveryAlternative(bodyRoot, constraints)) bodyRequired = true;
        // An optional body with required properties: whenever the body is sent (any of its fields is),
        // those are required. Kept as dependentRequired rather than dropped.
        if (!required) {
          const needed = [...shape.properties.keys()].filter((k) => shape.required.has(k));
          if (needed.length > 0) {
            for (const prop of shape.properties.keys()) {
              const others = needed.filter((k) => k !== prop);
              if (others.length > 0) dependentRequired.push([prop, others]);
            }
          }
        }
        // Keywords of the body object that mean the same on the input (whose other fields are all
        // declared properties) go with the merged properties; the diff then sees their changes.
        const bodySchema = deref(doc, media.schema);
        const onlyBody = fields.every((f) => f.binding === "body-property");
        for (const keyword of BODY_ROOT_KEYWORDS) {
          const value = isObject(bodySchema) ? own(bodySchema, keyword) : undefined;
          if (value === undefined || value === true || (NAME_KEYWORDS.has(keyword) && !onlyBody)) continue;
          if (keyword === "dependentRequired") {
            if (!isObject(value)) continue;
            for (const [prop, needed] of Object.entries(value)) {
              if (Array.isArray(needed) && needed.every((n) => typeof n === "string")) dependentRequired.push([prop, needed as string[]]);
            }
          } else if (keyword === "dependentSchemas" || keyword === "patternProperties") {
            // A map of subschemas, each converted on its own.
            if (!isObject(value)) continue;
            const map: JsonObject = {};
            for (const [key, sub] of Object.entries(value)) put(map, key, convertSchema(ctx, sub, `${mediaPtr}/${keyword}/${escapeKey(key)}`));
            rootKeywords.push([keyword, map]);
          } else {
            rootKeywords.push([keyword, convertSchema(ctx, value, `${mediaPtr}/${keyword}`)]);
          }
        }
        const extra = otherObjectKeywords(doc, media.schema).filter((k) => !(NAME_KEYWORDS.has(k) && onlyBody));
        if (extra.length > 0) review("body-wrapped", mediaPtr, `Merged into the input; the body's ${extra.join(", ")} no longer applies (properties are merged, not the object's own constraints).`);
      } else {
        let name = "body";
        for (let n = 2; keys.has(collisionKey(name)); n++) name = n === 2 ? "request_body" : `request_body_${n}`;
        const f: Field = { name, schema: convertSchema(ctx, media.schema, mediaPtr), required, binding: "body", origin: mediaPtr };
        keys.set(collisionKey(name), f);
        fields.push(f);
        const why = collides !== undefined ? `its property ${collides} collides with a parameter` : d.method === "delete" ? "a DELETE sends its fields as query parameters otherwise" : shape.composed ? "it is composed (anyOf/oneOf)" : "it is not an object with properties";
        review("body-wrapped", mediaPtr, `Request body is input field ${name} (http.body): ${why}.`);
      }
      if (isObject(own(body, "content")) && Object.keys(own(body, "content") as JsonObject).length > 1) {
        review("body-not-json", `${bodyPtr}/content`, `Only ${media.type}'s schema is kept of ${Object.keys(own(body, "content") as JsonObject).join(", ")}; the others are listed as http.alsoAccepts.`);
        alsoAccepts = otherMediaTypes(own(body, "content"), mediaBase(media.type));
      }
    }
  }
  void opName;
  return {
    fields,
    path,
    ...(contentType !== undefined ? { contentType } : {}),
    ...(bodyRequired ? { bodyRequired } : {}),
    ...(dependentRequired.length > 0 ? { dependentRequired } : {}),
    ...(alsoAccepts.length > 0 ? { alsoAccepts } : {}),
    ...(rootKeywords.length > 0 ? { rootKeywords } : {}),
  };
}

function distinctKeys(names: string[]): boolean {
  return new Set(names.map(collisionKey)).size === names.length;
}

/**
 * Keywords of an object body kept on the input when its properties are merged into it. The input's
 * other fields (path, query, header, cookie) are declared properties, so what these say about the
 * body's properties and its undeclared ones holds of the input too; patternProperties and
 * propertyNames also constrain declared names, so they go only when every field is a body field.
 */
const BODY_ROOT_KEYWORDS = ["dependentRequired", "dependentSchemas", "additionalProperties", "unevaluatedProperties", "patternProperties", "propertyNames"] as const;

const COMPOSITION_KEYWORDS = ["anyOf", "oneOf", "not", "if", "then", "else"] as const;

/**
 * The composition keywords of a body's root that only constrain the body's own properties: each
 * subschema an inline object schema (no $ref, no type but object) whose `properties`, if any, are
 * properties the body declares. All or nothing: one that says more keeps the body whole.
 */
function constraintKeywords(root: unknown, declared: ReadonlySet<string>): string[] {
  if (!isObject(root)) return [];
  const present = COMPOSITION_KEYWORDS.filter((k) => own(root, k) !== undefined);
  const constraintOnly = (sub: unknown): boolean => {
    if (!isObject(sub) || own(sub, "$ref") !== undefined) return false;
    const type = own(sub, "type");
    if (type !== undefined && type !== "object") return false;
    const props = own(sub, "properties");
    if (props !== undefined && (!isObject(props) || Object.keys(props).some((k) => !declared.has(k)))) return false;
    return COMPOSITION_KEYWORDS.every((k) => own(sub, k) === undefined) && own(sub, "allOf") === undefined;
  };
  const ok = present.every((k) => {
    const value = own(root, k);
    return Array.isArray(value) ? value.length > 0 && value.every(constraintOnly) : constraintOnly(value);
  });
  return ok ? present : [];
}

/** Whether a kept anyOf/oneOf makes every valid body name at least one property (so a body is sent whenever the call is valid). */
function requiresInEveryAlternative(root: unknown, kept: readonly string[]): boolean {
  return (["anyOf", "oneOf"] as const).some((k) => {
    const list = kept.includes(k) && isObject(root) ? own(root, k) : undefined;
    return Array.isArray(list) && list.every((sub) => isObject(sub) && Array.isArray(own(sub, "required")) && (own(sub, "required") as unknown[]).length > 0);
  });
}

/** A shallow copy of a schema object without some keywords. */
function withoutKeys(node: JsonObject, drop: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) if (!drop.includes(k)) put(out, k, v);
  return out;
}
const NAME_KEYWORDS: ReadonlySet<string> = new Set(["patternProperties", "propertyNames"]);

/** Constraints of an object body beyond its properties that merging cannot carry (property counts would count the input's other fields). */
function otherObjectKeywords(doc: unknown, schema: unknown): string[] {
  const s = deref(doc, schema);
  if (!isObject(s)) return [];
  return ["minProperties", "maxProperties", "patternProperties", "propertyNames"].filter((k) => own(s, k) !== undefined);
}

interface Output {
  schema: Json;
  status: number[];
  /** The original OpenAPI schemas of the JSON success bodies, for pagination. */
  bodies: unknown[];
  linkHeader: boolean;
  /** The media type asked for when no success response is JSON (`http.accept`). */
  accept?: string;
  /** Pointer of the success response (or its schema, when there is one) the output was made from. */
  origin?: string;
  /** The other concrete media types the success responses are offered in (`http.alsoOffers`). */
  alsoOffers: string[];
}

function buildOutput(doc: JsonObject, ctx: SchemaContext, d: Draft, review: (kind: ReviewKind, pointer: string, message: string) => void): Output {
  const responses = own(d.op, "responses");
  const res = isObject(responses) ? responses : {};
  let keys = Object.keys(res).filter((k) => /^2\d\d$/.test(k)).sort();
  let assumed: string | undefined;
  if (keys.length === 0) {
    assumed = Object.keys(res).find((k) => /^2xx$/i.test(k)) ?? (own(res, "default") !== undefined ? "default" : undefined);
    if (assumed !== undefined) keys = [assumed];
  }
  const schemas: Json[] = [];
  const seen = new Set<string>();
  const status: number[] = [];
  const bodies: unknown[] = [];
  let linkHeader = false;
  let empty = false;
  // Success responses with content but no JSON media type: the first concrete type of the first one is asked for.
  let otherMedia: string | undefined;
  let jsonSeen = false;
  // A JSON answer only under a vendor type (`application/vnd.rev.transcript.v1.0+json`) must be asked
  // for by that type: a server that lists no `application/json` may refuse `Accept: application/json`.
  let plainJson = false;
  let vendorJson: string | undefined;
  let origin: string | undefined;
  for (const key of keys) {
    const r = deref(doc, res[key]);
    const content = isObject(r) ? own(r, "content") : undefined;
    if (!isObject(content) || Object.keys(content).length === 0 || key === "204" || key === "205") continue;
    const json = jsonMedia(content);
    if (json) {
      jsonSeen = true;
      const base = json.type.split(";")[0]!.trim().toLowerCase();
      if (Object.keys(content).some((t) => ["application/json", "*/*", "application/*"].includes(t.split(";")[0]!.trim().toLowerCase()))) plainJson = true;
      else if (/^application\/[!#$%&'*+.^_`|~0-9a-z-]+\+json$/.test(base)) vendorJson ??= base;
    } else otherMedia ??= Object.keys(content).map((t) => t.split(";")[0]!.trim().toLowerCase()).find((t) => /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(t) && !t.includes("*"));
  }
  const accept = jsonSeen ? (plainJson ? undefined : vendorJson) : otherMedia;
  for (const key of keys) {
    const r = deref(doc, res[key]);
    const ptr = `${d.pointer}/responses/${key}`;
    status.push(/^2\d\d$/.test(key) ? Number(key) : 200);
    if (!isObject(r)) continue;
    const headers = own(r, "headers");
    if (isObject(headers) && Object.keys(headers).some((h) => h.toLowerCase() === "link")) linkHeader = true;
    const content = own(r, "content");
    if ((key === "204" || key === "205") && isObject(content) && Object.keys(content).length > 0) {
      review("response-body-ignored", `${ptr}/content`, `Response ${key} declares a body, but HTTP ${key} carries none: output null.`);
      empty = true;
      continue;
    }
    if (!isObject(content) || Object.keys(content).length === 0) {
      empty = true;
      continue;
    }
    const media = jsonMedia(content);
    let schema: Json;
    if (!media && accept !== undefined && !accept.endsWith("+json")) {
      review("response-not-json", ptr, `Response ${key} (${Object.keys(content).join(", ")}) has no JSON media type; the operation asks for ${accept} and returns it as ${accept.startsWith("text/") ? "text" : "base64 text"}.`);
      schema = accept.startsWith("text/") ? textSchema(ctx, content, accept, ptr) : { type: "string", contentEncoding: "base64", contentMediaType: accept };
    } else if (!media) {
      review("response-not-json", ptr, `Response ${key} (${Object.keys(content).join(", ")}) has no JSON media type; output accepts any value.`);
      schema = {};
    } else {
      schema = convertSchema(ctx, media.schema, `${ptr}/content/${escapeKey(media.type)}/schema`);
      origin ??= `${ptr}/content/${escapeKey(media.type)}/schema`;
      bodies.push(media.schema);
    }
    const k = JSON.stringify(schema);
    if (!seen.has(k)) {
      seen.add(k);
      schemas.push(schema);
    }
  }
  const alsoOffers = otherMediaTypes(
    keys.map((key) => {
      const r = deref(doc, res[key]);
      return isObject(r) ? own(r, "content") : undefined;
    }),
    accept ?? "application/json",
  );
  if (assumed !== undefined) review("success-status-assumed", `${d.pointer}/responses/${escapeKey(assumed)}`, `No 2xx response: ${assumed} is the success response, status 200.`);
  if (keys.length === 0) {
    review("success-status-assumed", `${d.pointer}/responses`, "No success response declared: status 200, output accepts any value.");
    return { schema: {}, status: [200], bodies, linkHeader, alsoOffers };
  }
  const distinct = [...new Set(status)];
  let schema: Json;
  if (empty) schemas.push({ type: "null" });
  if (schemas.length === 0) schema = { type: "null" };
  else if (schemas.length === 1) schema = schemas[0]!;
  else schema = { anyOf: schemas };
  // One body schema: the output is located there; several (anyOf), at the responses.
  const at = schemas.length === 1 && origin !== undefined ? origin : `${d.pointer}/responses`;
  return { schema, status: distinct, bodies, linkHeader, origin: at, alsoOffers, ...(accept !== undefined ? { accept } : {}) };
}

/**
 * The output of a text answer: a string, with what the document's schema for that media type says
 * of the string (`const`, `enum`, `pattern`, lengths) when it describes one; anything else is text
 * the contract cannot describe further.
 */
function textSchema(ctx: SchemaContext, content: JsonObject, accept: string, ptr: string): Json {
  const type = Object.keys(content).find((t) => mediaBase(t) === accept);
  const media = type === undefined ? undefined : content[type];
  const raw = isObject(media) ? own(media, "schema") : undefined;
  if (type === undefined || raw === undefined) return { type: "string" };
  const converted = convertSchema(ctx, raw, `${ptr}/content/${escapeKey(type)}/schema`);
  if (!isObject(converted)) return { type: "string" };
  if (converted.type === "string") return converted;
  const strings = (v: unknown) => typeof v === "string" || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string"));
  // `{const: "pong"}` or `{enum: [...]}` of strings, written without a type, still describes the text.
  return converted.type === undefined && (strings(converted.const) || strings(converted.enum)) ? { type: "string", ...converted } : { type: "string" };
}

/** Integer fields of the input found by name. */
function findField(fields: readonly Field[], names: readonly string[], binding: Field["binding"] = "query"): Field | undefined {
  for (const n of names) {
    const f = fields.find((x) => x.binding === binding && x.name === n);
    if (f) return f;
  }
  return undefined;
}

function typeOfSchema(doc: unknown, schema: unknown): Set<string> {
  return new Set(shapeOf(doc, schema).types);
}

function detectPagination(doc: JsonObject, d: Draft, fields: readonly Field[], output: Output, review: (kind: ReviewKind, pointer: string, message: string) => void): JsonObject | undefined {
  if (output.bodies.length !== 1 || output.status.length !== 1) return undefined;
  const body = output.bodies[0];
  const shape = shapeOf(doc, body);
  const isArray = shape.types.has("array") && shape.types.size === 1;
  const cursorIn = findField(fields, CURSOR_IN);
  const pageIn = findField(fields, PAGE_IN);
  const offsetIn = findField(fields, OFFSET_IN);
  const limitIn = findField(fields, LIMIT_IN);
  if (!cursorIn && !pageIn && !offsetIn && !limitIn && !output.linkHeader) return undefined;
  // The page's items: the output itself, or its one array property (preferring conventional names).
  let items: string | undefined;
  if (!isArray) {
    const arrays = [...shape.properties].filter(([, s]) => typeOfSchema(doc, s).has("array")).map(([k]) => k);
    items = arrays.length === 1 ? arrays[0] : ITEMS_OUT.find((n) => arrays.includes(n));
    if (items === undefined) {
      review("pagination-undecided", d.pointer, `Paging parameters (${[cursorIn, pageIn, offsetIn, limitIn].filter(Boolean).map((f) => f!.name).join(", ") || "Link header"}) but ${arrays.length === 0 ? "no array in the output" : `several arrays in the output (${arrays.join(", ")})`}.`);
      return undefined;
    }
  }
  const outField = (names: readonly string[], type?: string) => names.find((n) => shape.properties.has(n) && (type === undefined || typeOfSchema(doc, shape.properties.get(n)).has(type)));
  const intField = (f: Field | undefined) => f !== undefined && typeOfSchema(doc, schemaOrigin(f)).has("integer");
  const p: JsonObject = {};
  const nextCursor = isArray ? undefined : outField(CURSOR_OUT, "string");
  const nextLink = isArray ? undefined : outField(NEXT_LINK_OUT, "string");
  if (cursorIn && nextCursor) {
    put(p, "cursor", cursorIn.name);
    put(p, "nextCursor", nextCursor);
  } else if (nextLink) {
    put(p, "style", "next-link");
    put(p, "nextLink", nextLink);
  } else if (output.linkHeader && (pageIn || cursorIn || limitIn)) {
    put(p, "style", "next-link");
    put(p, "nextLink", { header: "Link" });
  } else if (pageIn && intField(pageIn)) {
    put(p, "style", "page");
    put(p, "page", pageIn.name);
    const min = schemaNumber(pageIn.schema, "minimum");
    const dflt = schemaNumber(pageIn.schema, "default");
    if (min === 0 || dflt === 0) put(p, "firstPage", 0);
  } else if (offsetIn && intField(offsetIn)) {
    put(p, "style", "offset");
    put(p, "offset", offsetIn.name);
  } else {
    review("pagination-undecided", d.pointer, `Paging-like parameters (${[cursorIn, pageIn, offsetIn, limitIn].filter(Boolean).map((f) => f!.name).join(", ")}) without a matching next cursor, next link or integer page/offset.`);
    return undefined;
  }
  if (items !== undefined) put(p, "items", items);
  const cursorStyle = own(p, "style") === undefined;
  if (limitIn && intField(limitIn)) {
    let max = schemaNumber(limitIn.schema, "maximum");
    // Many documents state the bound only in words ("The number of results per page (max 100)."):
    // take it, and declare it on the field too, so the schema and the pagination agree.
    const stated = max === undefined && isObject(limitIn.schema) && typeof own(limitIn.schema, "description") === "string" ? /\bmax(?:imum)?\b[^0-9.]{0,12}(\d{1,6})\b/i.exec(own(limitIn.schema, "description") as string) : null;
    if (stated && isObject(limitIn.schema)) {
      max = Number(stated[1]);
      put(limitIn.schema, "maximum", max);
      review("pagination-max-unknown", d.pointer, `Page size ${limitIn.name}: maximum ${max} read from its description ("${stated[0]}"), and declared on the field.`);
    }
    const dflt = schemaNumber(limitIn.schema, "default");
    const limit: JsonObject = { field: limitIn.name };
    if (dflt !== undefined && dflt >= 1 && Number.isInteger(dflt) && (max === undefined || dflt <= max)) put(limit, "default", dflt);
    if (max !== undefined && max >= 1 && Number.isInteger(max)) put(limit, "max", max);
    else review("pagination-max-unknown", d.pointer, `Page size ${limitIn.name} declares no maximum${cursorStyle ? "" : "; validate warns pagination-unbounded"}.`);
    if (cursorStyle && own(limit, "max") === undefined) {
      review("pagination-undecided", d.pointer, `Cursor pagination needs a page-size maximum; ${limitIn.name} has none, so the operation is left unpaginated.`);
      return undefined;
    }
    put(p, "limit", limit);
  } else if (cursorStyle) {
    review("pagination-undecided", d.pointer, "Cursor pagination needs an integer page-size field; none found, so the operation is left unpaginated.");
    return undefined;
  }
  const total = isArray ? undefined : outField(TOTAL_OUT, "integer");
  if (total !== undefined) put(p, "total", total);
  review("pagination-detected", d.pointer, `${String(own(p, "style") ?? "cursor")} pagination: ${JSON.stringify(p)}.`);
  return p;
}

/** The converted schema is what the contract declares, so look there (through #/types refs is not needed for integers). */
function schemaOrigin(f: Field): unknown {
  return f.schema;
}

function schemaNumber(schema: Json, key: string): number | undefined {
  if (!isObject(schema)) return undefined;
  const v = own(schema, key);
  return typeof v === "number" ? v : undefined;
}

export { componentName, copyJson };
