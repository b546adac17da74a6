import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildRequest, type ClientOptions, ContractClient, type ContractInfo, type OperationSpec, type Validator } from "../../src/runtime/client.js";
import {
  CLIENT_CODES,
  ConflictError,
  ContractError,
  type ErrorClass,
  InternalError,
  InvalidInputError,
  NotFoundError,
  PermissionError,
  RateLimitedError,
  type Taxonomy,
  TransientError,
  UnauthenticatedError,
  UnknownOutcomeError,
} from "../../src/runtime/errors.js";
import { hashValue } from "../../src/runtime/hash.js";
import { MemoryJournal, type OperationJournal, SqliteJournal } from "../../src/runtime/journal.js";

// ---------------------------------------------------------------------------------------------
// A small contract: a read, a keyed mutation, a previewable destructive (keyed) mutation, a
// non-idempotent mutation and a paginated read.
// ---------------------------------------------------------------------------------------------

const ajv = new Ajv2020({ strict: false });
const compile = (schema: object): Validator => ajv.compile(schema);

const TOKEN_ENV = "CONTRACTGEN_RUNTIME_TEST_TOKEN";
const BASE_URL_ENV = "CONTRACTGEN_RUNTIME_TEST_BASE_URL";
const BASE = "https://api.billing.test/v1";
const TOKEN = "sk_test_5uP3r-s3cr3t-T0k3n";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const taxonomy: Taxonomy = {
  AMOUNT_INVALID: { class: "invalid_input", action: "fix_field", http: 422 },
  CUSTOMER_NOT_FOUND: { class: "not_found", action: "verify_identifier", http: 404 },
  KEY_REUSED: { class: "conflict", action: "stop_and_surface", http: 409 },
  STALE_REVISION: { class: "conflict", action: "reread_and_replan", http: 409 },
  FORBIDDEN: { class: "permission", action: "stop_and_surface", http: 403 },
  TOKEN_EXPIRED: { class: "unauthenticated", action: "reauthenticate", http: 401 },
  RATE_LIMITED: { class: "rate_limited", action: "retry_after", http: 429 },
  UNAVAILABLE: { class: "transient", action: "retry_same_key", http: 503 },
  INTERNAL: { class: "internal", action: "stop_and_surface", http: 500 },
};

const contract: ContractInfo = {
  name: "billing",
  version: "1.0.0",
  baseUrl: `${BASE}/`,
  baseUrlEnv: BASE_URL_ENV,
  timeoutMs: 5000,
  auth: { type: "bearer", tokenEnv: TOKEN_ENV },
  taxonomy,
};

const customerOutput = compile({
  type: "object",
  required: ["id", "name"],
  properties: { id: { type: "string" }, name: { type: "string" } },
});

const getCustomer: OperationSpec = {
  id: "get_customer",
  method: "GET",
  path: "/customers/{customer_id}",
  bindings: [
    { field: "customer_id", in: "path", name: "customer_id" },
    { field: "expand", in: "query", name: "expand" },
    { field: "include_deleted", in: "query", name: "include_deleted" },
    { field: "filter", in: "query", name: "filter" },
    { field: "tenant", in: "header", name: "X-Tenant" },
  ],
  mutating: false,
  idempotent: "natural",
  keyField: null,
  preview: null,
  pagination: null,
  errors: ["CUSTOMER_NOT_FOUND"],
  validateInput: compile({
    type: "object",
    required: ["customer_id"],
    additionalProperties: false,
    properties: {
      customer_id: { type: "string" },
      expand: { type: "array", items: { type: "string" } },
      include_deleted: { type: "boolean" },
      filter: { type: "object" },
      tenant: { type: "string" },
    },
  }),
  validateOutput: customerOutput,
  validatePreview: null,
};

const createCustomer: OperationSpec = {
  id: "create_customer",
  method: "POST",
  path: "/customers",
  bindings: [
    { field: "idempotency_key", in: "header", name: "Idempotency-Key" },
    { field: "name", in: "body", name: "name" },
    { field: "email", in: "body", name: "email" },
    { field: "metadata", in: "body", name: "metadata" },
  ],
  mutating: true,
  idempotent: "key",
  keyField: "idempotency_key",
  preview: null,
  pagination: null,
  errors: ["AMOUNT_INVALID", "KEY_REUSED"],
  validateInput: compile({
    type: "object",
    required: ["idempotency_key", "name"],
    additionalProperties: false,
    properties: {
      idempotency_key: { type: "string", minLength: 1 },
      name: { type: "string", minLength: 1 },
      email: { type: "string", pattern: "@" },
      metadata: { type: "object", properties: { tier: { enum: ["free", "pro"] } } },
    },
  }),
  validateOutput: customerOutput,
  validatePreview: null,
};

const refund: OperationSpec = {
  id: "refund_charge",
  method: "POST",
  path: "/charges/{charge_id}/refunds",
  bindings: [
    { field: "charge_id", in: "path", name: "charge_id" },
    { field: "idempotency_key", in: "header", name: "Idempotency-Key" },
    { field: "amount", in: "body", name: "amount" },
    { field: "dry_run", in: "body", name: "dry_run" },
    { field: "confirm_token", in: "body", name: "confirm_token" },
  ],
  mutating: true,
  idempotent: "key",
  keyField: "idempotency_key",
  preview: { dryRunField: "dry_run", confirmTokenField: "confirm_token", defaultDryRun: true },
  pagination: null,
  errors: ["AMOUNT_INVALID"],
  validateInput: compile({
    type: "object",
    // A previewable operation leaves its key out of input.required: it is required to execute only.
    required: ["charge_id", "amount"],
    additionalProperties: false,
    properties: {
      charge_id: { type: "string" },
      idempotency_key: { type: "string" },
      amount: { type: "integer", minimum: 1 },
      dry_run: { type: "boolean" },
      confirm_token: { type: "string" },
    },
  }),
  validateOutput: compile({
    type: "object",
    required: ["refund_id", "amount"],
    properties: { refund_id: { type: "string" }, amount: { type: "integer" } },
  }),
  validatePreview: compile({
    type: "object",
    required: ["expected", "confirm_token"],
    properties: { expected: { type: "object" }, confirm_token: { type: "string" } },
  }),
};

const addNote: OperationSpec = {
  id: "add_note",
  method: "POST",
  path: "/customers/{customer_id}/notes",
  bindings: [
    { field: "customer_id", in: "path", name: "customer_id" },
    { field: "text", in: "body", name: "text" },
  ],
  mutating: true,
  idempotent: "none",
  keyField: null,
  preview: null,
  pagination: null,
  errors: [],
  validateInput: compile({
    type: "object",
    required: ["customer_id", "text"],
    properties: { customer_id: { type: "string" }, text: { type: "string" } },
  }),
  validateOutput: compile({ type: "object", required: ["id"], properties: { id: { type: "string" } } }),
  validatePreview: null,
};

const listInvoices: OperationSpec = {
  id: "list_invoices",
  method: "GET",
  path: "/invoices",
  bindings: [
    { field: "status", in: "query", name: "status" },
    { field: "cursor", in: "query", name: "cursor" },
    { field: "limit", in: "query", name: "limit" },
  ],
  mutating: false,
  idempotent: "natural",
  keyField: null,
  preview: null,
  pagination: {
    cursorField: "cursor",
    nextCursorField: "next_cursor",
    itemsField: "items",
    totalField: "total",
    partialField: "partial",
    errorsField: "errors",
    limitField: "limit",
    limitMax: 100,
  },
  errors: [],
  validateInput: compile({
    type: "object",
    additionalProperties: false,
    properties: {
      status: { type: "array", items: { enum: ["open", "paid", "void"] } },
      cursor: { type: "string" },
      limit: { type: "integer", minimum: 1, maximum: 100 },
    },
  }),
  validateOutput: compile({
    type: "object",
    required: ["items", "next_cursor"],
    properties: {
      items: { type: "array", items: { type: "object", required: ["id"] } },
      next_cursor: { type: ["string", "null"] },
      total: { type: "integer" },
      partial: { type: "boolean" },
      errors: { type: "array" },
    },
  }),
  validatePreview: null,
};

// ---------------------------------------------------------------------------------------------
// A scripted fake fetch.
// ---------------------------------------------------------------------------------------------

interface Call {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly rawHeaders: unknown;
  readonly body: unknown;
  readonly rawBody: unknown;
  readonly signal: AbortSignal | undefined;
  readonly at: number;
}
type Reply = Response | Error | ((call: Call, index: number) => Response | Promise<Response>);

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

function envelope(code: string, extra: Record<string, unknown> = {}): { error: Record<string, unknown> } {
  return { error: { code, message: `failed: ${code}`, field: null, details: null, outcome: "rejected", ...extra } };
}

const errorFor = (code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  json(taxonomy[code]!.http, envelope(code, extra), headers);

/** Replies in order; the last one repeats. An Error rejects the fetch. */
function scripted(...replies: Reply[]) {
  const calls: Call[] = [];
  const fetchImpl = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const rawBody = init.body;
    const call: Call = {
      url: new URL(String(input)),
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      rawHeaders: init.headers,
      body: typeof rawBody === "string" ? JSON.parse(rawBody) : undefined,
      rawBody,
      signal: init.signal ?? undefined,
      at: Date.now(),
    };
    const index = calls.length;
    calls.push(call);
    const reply = replies[Math.min(index, replies.length - 1)];
    if (reply === undefined) throw new Error("no reply scripted");
    if (reply instanceof Error) throw reply;
    if (typeof reply === "function") return reply(call, index);
    return reply.clone();
  };
  return { fetch: fetchImpl as unknown as typeof fetch, calls };
}

/** A fetch that must not be called. */
function forbiddenFetch() {
  return scripted(() => {
    throw new Error("fetch must not be called");
  });
}

const fetchFailed = (code: string) => Object.assign(new TypeError("fetch failed"), { cause: { code } });
const timeoutError = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");

function client(fetchImpl: typeof fetch, options: ClientOptions = {}): ContractClient {
  return new ContractClient(contract, {
    token: TOKEN,
    journal: new MemoryJournal(),
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    random: () => 0.5,
    fetch: fetchImpl,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (e) {
    return e as ContractError;
  }
  throw new Error("expected the call to fail");
}

const customer = { id: "cus_1", name: "Ada" };

const tempDir = mkdtempSync(join(tmpdir(), "contractgen-client-"));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));
let dbCounter = 0;
const tempDb = () => join(tempDir, `journal-${++dbCounter}.sqlite`);

const savedEnv = { token: process.env[TOKEN_ENV], base: process.env[BASE_URL_ENV] };
beforeEach(() => {
  delete process.env[TOKEN_ENV];
  delete process.env[BASE_URL_ENV];
});
afterEach(() => {
  for (const [name, value] of [
    [TOKEN_ENV, savedEnv.token],
    [BASE_URL_ENV, savedEnv.base],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

// ---------------------------------------------------------------------------------------------

describe("request encoding", () => {
  it("encodes a read: path segment with encodeURIComponent, repeated query keys, headers, no body", async () => {
    const { fetch, calls } = scripted(json(200, customer));
    const result = await client(fetch).call(getCustomer, {
      customer_id: "a/b c?#%",
      expand: ["invoices", "charges"],
      include_deleted: true,
      filter: { country: "NL" },
      tenant: "acme",
    });
    expect(result).toEqual(customer);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.method).toBe("GET");
    expect(call!.url.origin + call!.url.pathname).toBe(`${BASE}/customers/${encodeURIComponent("a/b c?#%")}`);
    expect(call!.url.pathname).toBe("/v1/customers/a%2Fb%20c%3F%23%25");
    expect(call!.url.searchParams.getAll("expand")).toEqual(["invoices", "charges"]);
    expect(call!.url.searchParams.get("include_deleted")).toBe("true");
    expect(JSON.parse(call!.url.searchParams.get("filter")!)).toEqual({ country: "NL" });
    expect(call!.headers["x-tenant"]).toBe("acme");
    expect(call!.headers.accept).toBe("application/json");
    expect(call!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(call!.headers["x-request-id"]).toMatch(UUID);
    expect(call!.headers["content-type"]).toBeUndefined();
    expect(call!.rawBody).toBeUndefined();
  });

  it("omits fields the caller left out (no empty query keys)", async () => {
    const { fetch, calls } = scripted(json(200, customer));
    await client(fetch).call(getCustomer, { customer_id: "cus_1" });
    expect(calls[0]!.url.href).toBe(`${BASE}/customers/cus_1`);
    expect(calls[0]!.headers["x-tenant"]).toBeUndefined();
  });

  it("a keyed mutation sends a JSON body with only the body fields, the key as a header", async () => {
    const { fetch, calls } = scripted(json(201, customer));
    await client(fetch).call(createCustomer, { idempotency_key: "key-1", name: "Ada", email: "ada@example.test", metadata: { tier: "pro" } });
    const [call] = calls;
    expect(call!.method).toBe("POST");
    expect(call!.url.href).toBe(`${BASE}/customers`);
    expect(call!.headers["idempotency-key"]).toBe("key-1");
    expect(call!.headers["content-type"]).toBe("application/json");
    expect(call!.body).toEqual({ name: "Ada", email: "ada@example.test", metadata: { tier: "pro" } });
  });

  it("extra headers from the options are sent but cannot replace the credential", async () => {
    const { fetch, calls } = scripted(json(200, customer));
    await client(fetch, { headers: { "x-extra": "1", authorization: "Bearer forged" } }).call(getCustomer, { customer_id: "c" });
    expect(calls[0]!.headers["x-extra"]).toBe("1");
    expect(calls[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("takes the base URL from options, else the contract's env var, else the contract (trailing slashes dropped)", async () => {
    const { fetch, calls } = scripted(json(200, customer));
    await client(fetch).call(getCustomer, { customer_id: "c" });
    process.env[BASE_URL_ENV] = "http://localhost:9999/api//";
    await client(fetch).call(getCustomer, { customer_id: "c" });
    await client(fetch, { baseUrl: "http://override.test/" }).call(getCustomer, { customer_id: "c" });
    expect(calls.map((c) => c.url.href)).toEqual([`${BASE}/customers/c`, "http://localhost:9999/api/customers/c", "http://override.test/customers/c"]);
  });

  it("buildRequest: scalars as strings, arrays as repeated keys, objects as JSON, no body without body fields", () => {
    const r = buildRequest(getCustomer, { customer_id: "x", expand: [1, true, { a: 1 }], include_deleted: false, tenant: "t" }, "http://h");
    const url = new URL(r.url);
    expect(url.searchParams.getAll("expand")).toEqual(["1", "true", '{"a":1}']);
    expect(url.searchParams.get("include_deleted")).toBe("false");
    expect(r.headers).toEqual({ accept: "application/json", "x-tenant": "t" });
    expect(r.body).toBeUndefined();
    const post = buildRequest(addNote, { customer_id: "c", text: "hi" }, "http://h");
    expect(post).toEqual({
      method: "POST",
      url: "http://h/customers/c/notes",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify({ text: "hi" }),
    });
  });

  it("buildRequest: fields named like Object.prototype members are sent only when the caller set them", () => {
    const odd: OperationSpec = {
      ...addNote,
      bindings: [
        { field: "customer_id", in: "path", name: "customer_id" },
        { field: "constructor", in: "body", name: "constructor" },
        { field: "toString", in: "query", name: "toString" },
        { field: "__proto__", in: "body", name: "__proto__" },
      ],
    };
    const absent = buildRequest(odd, { customer_id: "c" }, "http://h");
    expect(absent.url).toBe("http://h/customers/c/notes");
    expect(absent.body).toBeUndefined();
    const input = JSON.parse('{"customer_id":"c","__proto__":{"polluted":true},"constructor":"k"}') as Record<string, unknown>;
    const present = buildRequest(odd, input, "http://h");
    expect(JSON.parse(present.body!)).toEqual(JSON.parse('{"constructor":"k","__proto__":{"polluted":true}}'));
    expect(present.body).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("credentials", () => {
  it("reads the bearer token from the env var the contract names", async () => {
    process.env[TOKEN_ENV] = "from-env";
    const { fetch, calls } = scripted(json(200, customer));
    await client(fetch, { token: undefined }).call(getCustomer, { customer_id: "c" });
    expect(calls[0]!.headers.authorization).toBe("Bearer from-env");
  });

  it("the token option wins over the env var", async () => {
    process.env[TOKEN_ENV] = "from-env";
    const { fetch, calls } = scripted(json(200, customer));
    await client(fetch, { token: "from-option" }).call(getCustomer, { customer_id: "c" });
    expect(calls[0]!.headers.authorization).toBe("Bearer from-option");
  });

  it("apiKey auth sends the token in the named header", async () => {
    const { fetch, calls } = scripted(json(200, customer));
    const c = new ContractClient({ ...contract, auth: { type: "apiKey", header: "X-Api-Key", tokenEnv: TOKEN_ENV } }, { token: "k123-api-key", fetch, journal: false });
    await c.call(getCustomer, { customer_id: "c" });
    expect(calls[0]!.headers["x-api-key"]).toBe("k123-api-key");
    expect(calls[0]!.headers.authorization).toBeUndefined();
  });

  it("auth none sends no credential", async () => {
    const { fetch, calls } = scripted(json(200, customer));
    await new ContractClient({ ...contract, auth: { type: "none" } }, { fetch, journal: false }).call(getCustomer, { customer_id: "c" });
    expect(calls[0]!.headers.authorization).toBeUndefined();
  });

  it.each([
    ["read", getCustomer, { customer_id: "c" }],
    ["keyed mutation", createCustomer, { idempotency_key: "k", name: "Ada" }],
  ] as const)("a missing credential is an UnauthenticatedError naming the env var, before any request (%s)", async (_, op, input) => {
    const { fetch, calls } = forbiddenFetch();
    const journal = new MemoryJournal();
    const error = await failure(client(fetch, { token: undefined, journal }).call(op, input));
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(error).toMatchObject({ code: CLIENT_CODES.missingCredential, errorClass: "unauthenticated", action: "reauthenticate", outcome: "rejected" });
    expect(error.message).toContain(TOKEN_ENV);
    expect(calls).toHaveLength(0);
    // Nothing was sent: a journaled intent is free again.
    if (op.keyField) expect(journal.get({ operation: op.id, target: BASE, key: "k" })?.status).toBe("rejected");
  });

  it("an empty env var counts as missing", async () => {
    process.env[TOKEN_ENV] = "";
    const { fetch, calls } = forbiddenFetch();
    await expect(client(fetch, { token: undefined }).call(getCustomer, { customer_id: "c" })).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(calls).toHaveLength(0);
  });
});

describe("local input validation", () => {
  it("a missing required field is an InvalidInputError naming the field; nothing is sent", async () => {
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch).call(createCustomer, { idempotency_key: "k" }));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ code: CLIENT_CODES.invalidInput, errorClass: "invalid_input", action: "fix_field", field: "name", outcome: "rejected", operation: "create_customer" });
    expect(error.message).toContain("name");
    expect(calls).toHaveLength(0);
  });

  it("a nested field is named with a dotted path", async () => {
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch).call(createCustomer, { idempotency_key: "k", name: "Ada", metadata: { tier: "gold" } }));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.field).toBe("metadata.tier");
    expect(error.details).toEqual([expect.objectContaining({ keyword: "enum", instancePath: "/metadata/tier" })]);
    expect(calls).toHaveLength(0);
  });

  it("a wrong type on a read is refused locally too", async () => {
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch).call(getCustomer, { customer_id: "c", include_deleted: "yes" }));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.field).toBe("include_deleted");
    expect(calls).toHaveLength(0);
  });

  it("an invalid keyed mutation writes no journal entry", async () => {
    const journal = new MemoryJournal();
    const { fetch } = forbiddenFetch();
    await failure(client(fetch, { journal }).call(createCustomer, { idempotency_key: "k", name: "" }));
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k" })).toBeUndefined();
  });

  it("a caller key of the wrong type is refused, never silently replaced by a generated key", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch, { journal }).call(createCustomer, { idempotency_key: 12345, name: "Ada" }));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.field).toBe("idempotency_key");
    expect(calls).toHaveLength(0);
  });

  it.each(["", ".", ".."])("path parameter %j is refused before any fetch", async (value) => {
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch).call(getCustomer, { customer_id: value }));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ code: CLIENT_CODES.invalidPathParameter, field: "customer_id", action: "fix_field", outcome: "rejected" });
    expect(calls).toHaveLength(0);
  });

  it("a '..' path parameter of a keyed mutation is refused before the journal or fetch", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch, { journal }).call(refund, { charge_id: "..", idempotency_key: "k", amount: 5, confirm_token: "t" }));
    expect(error).toMatchObject({ code: CLIENT_CODES.invalidPathParameter, field: "charge_id", operationId: "k" });
    expect(calls).toHaveLength(0);
    expect(journal.get({ operation: "refund_charge", target: BASE, key: "k" })).toBeUndefined();
  });

  it("path parameters that merely contain dots are encoded, not refused", async () => {
    const { fetch, calls } = scripted(json(200, customer));
    await client(fetch).call(getCustomer, { customer_id: "../admin" });
    expect(calls[0]!.url.pathname).toBe("/v1/customers/..%2Fadmin");
  });
});

describe("error envelope mapping", () => {
  const cases: Array<[string, ErrorClass, new (...a: never[]) => ContractError]> = [
    ["AMOUNT_INVALID", "invalid_input", InvalidInputError],
    ["CUSTOMER_NOT_FOUND", "not_found", NotFoundError],
    ["STALE_REVISION", "conflict", ConflictError],
    ["FORBIDDEN", "permission", PermissionError],
    ["TOKEN_EXPIRED", "unauthenticated", UnauthenticatedError],
    ["RATE_LIMITED", "rate_limited", RateLimitedError],
    ["UNAVAILABLE", "transient", TransientError],
    ["INTERNAL", "internal", InternalError],
  ];

  it.each(cases)("%s maps to the %s class and its subclass, with every envelope field", async (code, errorClass, Subclass) => {
    const { fetch, calls } = scripted(
      errorFor(code, { message: "Platform says no.", field: "amount", operationId: "op-77", outcome: "rejected", details: { limit: 5 } }),
    );
    const error = await failure(client(fetch, { retry: { maxAttempts: 1 } }).call(getCustomer, { customer_id: "c" }));
    expect(calls).toHaveLength(1);
    expect(error).toBeInstanceOf(Subclass);
    expect(error).toBeInstanceOf(ContractError);
    expect(error.name).toBe(Subclass.name);
    expect(error).toMatchObject({
      code,
      errorClass,
      action: taxonomy[code]!.action,
      message: "Platform says no.",
      field: "amount",
      operation: "get_customer",
      operationId: "op-77",
      outcome: "rejected",
      status: taxonomy[code]!.http,
      details: { limit: 5 },
    });
    expect(error.toJSON()).toMatchObject({ name: Subclass.name, code, class: errorClass, action: taxonomy[code]!.action, field: "amount", status: taxonomy[code]!.http });
  });

  it("keeps a declared outcome from the envelope and defaults an unknown one to rejected", async () => {
    const a = await failure(client(scripted(errorFor("INTERNAL", { outcome: "unknown" })).fetch).call(getCustomer, { customer_id: "c" }));
    expect(a.outcome).toBe("unknown");
    const b = await failure(client(scripted(errorFor("INTERNAL", { outcome: "maybe" })).fetch).call(getCustomer, { customer_id: "c" }));
    expect(b.outcome).toBe("rejected");
  });

  it("without an operationId in the envelope, a read's error carries the request id", async () => {
    const { fetch, calls } = scripted(json(404, { error: { code: "CUSTOMER_NOT_FOUND" } }));
    const error = await failure(client(fetch).call(getCustomer, { customer_id: "c" }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.operationId).toBe(calls[0]!.headers["x-request-id"]);
    expect(error.field).toBeNull();
    expect(error.message).toContain("CUSTOMER_NOT_FOUND");
  });

  it("without an operationId in the envelope, a keyed mutation's error carries the operation key", async () => {
    const { fetch } = scripted(json(422, { error: { code: "AMOUNT_INVALID", field: "name" } }));
    const error = await failure(client(fetch).call(createCustomer, { idempotency_key: "key-9", name: "Ada" }));
    expect(error).toMatchObject({ operationId: "key-9", field: "name", errorClass: "invalid_input" });
  });

  it("an undeclared code is an InternalError carrying the status and the body", async () => {
    const body = { error: { code: "SOMETHING_NEW", message: "new" } };
    const error = await failure(client(scripted(json(418, body)).fetch).call(getCustomer, { customer_id: "c" }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ code: CLIENT_CODES.undeclaredCode, errorClass: "internal", action: "stop_and_surface", status: 418, details: body, outcome: "rejected" });
    expect(error.message).toContain("SOMETHING_NEW");
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])("a code named like an Object.prototype member (%s) is undeclared, not a crash", async (code) => {
    const error = await failure(client(scripted(json(400, { error: { code } })).fetch).call(getCustomer, { customer_id: "c" }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error.code).toBe(CLIENT_CODES.undeclaredCode);
  });

  it("a non-JSON error body is an InternalError with the status", async () => {
    const { fetch } = scripted(new Response("<html>teapot</html>", { status: 418 }));
    const error = await failure(client(fetch).call(getCustomer, { customer_id: "c" }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ code: CLIENT_CODES.undeclaredCode, status: 418, outcome: "rejected" });
  });

  it("an undeclared 500 on a mutation has an unknown outcome", async () => {
    const { fetch } = scripted(new Response("oops", { status: 500 }));
    const error = await failure(client(fetch).call(addNote, { customer_id: "c", text: "x" }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error.outcome).toBe("unknown");
  });
});

describe("response validation", () => {
  it("a read whose response fails the output schema is an InternalError CLIENT_RESPONSE_INVALID", async () => {
    const { fetch, calls } = scripted(json(200, { id: 42 }));
    const error = await failure(client(fetch).call(getCustomer, { customer_id: "c" }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ code: CLIENT_CODES.badResponse, errorClass: "internal", action: "stop_and_surface", status: 200, outcome: "rejected" });
    expect(calls).toHaveLength(1); // not retried
  });

  it("a mutation whose 2xx response fails the output schema took effect: outcome completed", async () => {
    const journal = new MemoryJournal();
    const { fetch } = scripted(json(201, { nope: true }));
    const error = await failure(client(fetch, { journal }).call(createCustomer, { idempotency_key: "k", name: "Ada" }));
    expect(error).toMatchObject({ code: CLIENT_CODES.badResponse, outcome: "completed", status: 201 });
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k" })?.status).toBe("completed");
  });

  it("a mutation whose 2xx body is not JSON also took effect: never recorded as rejected", async () => {
    const journal = new MemoryJournal();
    const { fetch } = scripted(new Response("created!", { status: 201 }));
    const error = await failure(client(fetch, { journal }).call(createCustomer, { idempotency_key: "k", name: "Ada" }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ code: CLIENT_CODES.badResponse, outcome: "completed", status: 201 });
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k" })?.status).not.toBe("rejected");
  });
});

describe("retries", () => {
  it("retries a transient error of a keyed mutation with the same Idempotency-Key and x-request-id", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(errorFor("UNAVAILABLE"), json(503, {}), json(201, customer));
    const result = await client(fetch, { journal }).call(createCustomer, { name: "Ada" });
    expect(result).toEqual(customer);
    expect(calls).toHaveLength(3);
    const key = calls[0]!.headers["idempotency-key"];
    expect(key).toMatch(UUID);
    expect(new Set(calls.map((c) => c.headers["idempotency-key"]))).toEqual(new Set([key]));
    expect(new Set(calls.map((c) => c.headers["x-request-id"])).size).toBe(1);
    expect(calls.map((c) => c.body)).toEqual([{ name: "Ada" }, { name: "Ada" }, { name: "Ada" }]);
    expect(journal.get({ operation: "create_customer", target: BASE, key: key! })).toMatchObject({ status: "completed", result: customer });
  });

  it("separate calls get separate request ids", async () => {
    const { fetch, calls } = scripted(json(200, customer));
    const c = client(fetch);
    await c.call(getCustomer, { customer_id: "a" });
    await c.call(getCustomer, { customer_id: "a" });
    expect(calls[0]!.headers["x-request-id"]).not.toBe(calls[1]!.headers["x-request-id"]);
  });

  it("stops after maxAttempts and throws the last error; the journal says unknown", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(errorFor("UNAVAILABLE"));
    const error = await failure(client(fetch, { journal, retry: { initialDelayMs: 1, maxAttempts: 4 } }).call(createCustomer, { idempotency_key: "k", name: "Ada" }));
    expect(error).toBeInstanceOf(TransientError);
    expect(calls).toHaveLength(4);
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k" })?.status).toBe("unknown");
  });

  it("defaults to 3 attempts in all", async () => {
    const { fetch, calls } = scripted(errorFor("UNAVAILABLE"));
    await failure(client(fetch).call(getCustomer, { customer_id: "c" }));
    expect(calls).toHaveLength(3);
  });

  it("maxAttempts 1 disables retries", async () => {
    const { fetch, calls } = scripted(errorFor("UNAVAILABLE"));
    await failure(client(fetch, { retry: { maxAttempts: 1 } }).call(getCustomer, { customer_id: "c" }));
    expect(calls).toHaveLength(1);
  });

  it("waits the exponential backoff between attempts", async () => {
    const { fetch, calls } = scripted(errorFor("UNAVAILABLE"), errorFor("UNAVAILABLE"), json(200, customer));
    await client(fetch, { retry: { initialDelayMs: 40, maxDelayMs: 1000, jitter: 0 } }).call(getCustomer, { customer_id: "c" });
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(38);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(78);
  });

  it("honours Retry-After as the minimum wait", async () => {
    const { fetch, calls } = scripted(errorFor("RATE_LIMITED", {}, { "retry-after": "0.2" }), json(200, customer));
    const result = await client(fetch).call(getCustomer, { customer_id: "c" });
    expect(result).toEqual(customer);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(195);
  });

  it("reports Retry-After on the error when attempts run out", async () => {
    const { fetch, calls } = scripted(errorFor("RATE_LIMITED", {}, { "retry-after": "7" }));
    const error = await failure(client(fetch, { retry: { maxAttempts: 1 } }).call(getCustomer, { customer_id: "c" }));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.retryable).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("retries a gateway 502/503/504 without a contract body on a read", async () => {
    const { fetch, calls } = scripted(new Response("bad gateway", { status: 502 }), new Response("", { status: 504 }), json(200, customer));
    expect(await client(fetch).call(getCustomer, { customer_id: "c" })).toEqual(customer);
    expect(calls).toHaveLength(3);
  });

  it.each(["AMOUNT_INVALID", "CUSTOMER_NOT_FOUND", "STALE_REVISION", "FORBIDDEN", "TOKEN_EXPIRED", "INTERNAL"])("does not retry %s", async (code) => {
    const { fetch, calls } = scripted(errorFor(code), json(200, customer));
    const error = await failure(client(fetch).call(getCustomer, { customer_id: "c" }));
    expect(error.code).toBe(code);
    expect(error.retryable).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it("never retries a mutation with idempotent 'none', even on a transient error", async () => {
    const { fetch, calls } = scripted(errorFor("UNAVAILABLE"), json(201, { id: "n1" }));
    const error = await failure(client(fetch).call(addNote, { customer_id: "c", text: "hi" }));
    expect(error).toBeInstanceOf(TransientError);
    expect(calls).toHaveLength(1);
  });

  it("a gateway 503 on a mutation with idempotent 'none' is an unknown outcome, not retried", async () => {
    const { fetch, calls } = scripted(new Response("", { status: 503 }), json(201, { id: "n1" }));
    const error = await failure(client(fetch).call(addNote, { customer_id: "c", text: "hi" }));
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error).toMatchObject({ outcome: "unknown", operationKey: null, nextAction: "reconcile", status: 503 });
    expect(calls).toHaveLength(1);
  });

  it("connection refused is resent even for a mutation with idempotent 'none': nothing had left", async () => {
    const { fetch, calls } = scripted(fetchFailed("ECONNREFUSED"), json(201, { id: "n1" }));
    const result = await client(fetch).call(addNote, { customer_id: "c", text: "hi" });
    expect(result).toEqual({ id: "n1" });
    expect(calls).toHaveLength(2);
  });

  it("connection refused is a TransientError (nothing sent) and is retried, with the same key", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(fetchFailed("ECONNREFUSED"), fetchFailed("ECONNREFUSED"), json(201, customer));
    const result = await client(fetch, { journal }).call(createCustomer, { idempotency_key: "k", name: "Ada" });
    expect(result).toEqual(customer);
    expect(calls).toHaveLength(3);
    expect(calls.map((c) => c.headers["idempotency-key"])).toEqual(["k", "k", "k"]);
  });

  it("connection refused on every attempt ends with CLIENT_UNREACHABLE saying what helps: start the server or point the client at it", async () => {
    const { fetch, calls } = scripted(fetchFailed("ECONNREFUSED"));
    const error = await failure(client(fetch).call(getCustomer, { customer_id: "c" }));
    // Already resent within the retry policy: a retry under the same key cannot start a server, a person can.
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ code: CLIENT_CODES.unreachable, errorClass: "internal", action: "stop_and_surface", outcome: "rejected", retryable: false });
    expect(error.message).toBe(
      `get_customer: nothing is listening at ${BASE}: connection refused (ECONNREFUSED); nothing was sent. Start the server, or point the client at it with ${BASE_URL_ENV} or the baseUrl option.`,
    );
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(3);
  });

  it("an unreachable platform's error names the base URL setting of the adapter using the client (the CLI's flag)", async () => {
    const { fetch } = scripted(fetchFailed("ECONNREFUSED"));
    const error = await failure(client(fetch, { baseUrlSetting: "--base-url or BILLING_BASE_URL", retry: { maxAttempts: 1 } }).call(getCustomer, { customer_id: "c" }));
    expect(error.message).toMatch(/Start the server, or point the client at it with --base-url or BILLING_BASE_URL\.$/);
    const dns = await failure(client(scripted(fetchFailed("ENOTFOUND")).fetch, { retry: { maxAttempts: 1 } }).call(getCustomer, { customer_id: "c" }));
    expect(dns).toMatchObject({ code: CLIENT_CODES.unreachable, action: "stop_and_surface" });
    expect(dns.message).toContain(`the platform at ${BASE} could not be reached: host name not found (ENOTFOUND); nothing was sent.`);
  });

  it("a keyed mutation nothing listened for is rejected in the journal, which leaves its key free: once the platform runs, the same key executes", async () => {
    const journal = new MemoryJournal();
    const refused = scripted(fetchFailed("ECONNREFUSED"));
    const error = await failure(client(refused.fetch, { journal, retry: { maxAttempts: 1 } }).call(createCustomer, { idempotency_key: "k-later", name: "Ada" }));
    expect(error.code).toBe(CLIENT_CODES.unreachable);
    const started = scripted(json(201, customer));
    expect(await client(started.fetch, { journal }).call(createCustomer, { idempotency_key: "k-later", name: "Ada" })).toEqual(customer);
    expect(started.calls).toHaveLength(1);
  });

  it("a skeleton's stub answer (501 NOT_IMPLEMENTED) is CLIENT_NOT_IMPLEMENTED naming the handler file, not an undeclared error", async () => {
    const stub = envelope("NOT_IMPLEMENTED", { message: "get_customer is not implemented yet: its handler is a generated stub; nothing was executed." });
    const op = { ...getCustomer, handlerFile: "mcp/handlers/get-customer.ts" };
    const error = await failure(client(scripted(json(501, stub)).fetch).call(op, { customer_id: "c" }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ code: CLIENT_CODES.notImplemented, errorClass: "internal", action: "stop_and_surface", outcome: "rejected", status: 501 });
    expect(error.message).toBe("get_customer: the server does not implement get_customer yet (its handler is a generated stub: fill it in mcp/handlers/get-customer.ts); nothing was executed.");
    // Another 501, or a contract that declares NOT_IMPLEMENTED itself, is read as before.
    expect((await failure(client(scripted(json(501, envelope("NOPE"))).fetch).call(op, { customer_id: "c" }))).code).toBe(CLIENT_CODES.undeclaredCode);
    // Nothing was executed: the key stays free for the same call once the handler is written.
    const journal = new MemoryJournal();
    expect((await failure(client(scripted(json(501, stub)).fetch, { journal }).call(createCustomer, { idempotency_key: "k-stub", name: "Ada" }))).code).toBe(CLIENT_CODES.notImplemented);
    const implemented = scripted(json(201, customer));
    expect(await client(implemented.fetch, { journal }).call(createCustomer, { idempotency_key: "k-stub", name: "Ada" })).toEqual(customer);
    expect(implemented.calls).toHaveLength(1);
    const declaring = new ContractClient({ ...contract, taxonomy: { ...taxonomy, NOT_IMPLEMENTED: { class: "internal", action: "stop_and_surface", http: 501 } } }, { token: TOKEN, journal: false, fetch: scripted(json(501, stub)).fetch });
    expect((await failure(declaring.call(op, { customer_id: "c" }))).code).toBe("NOT_IMPLEMENTED");
  });

  it("a read that times out is a TransientError and is retried", async () => {
    const { fetch, calls } = scripted(timeoutError(), json(200, customer));
    expect(await client(fetch).call(getCustomer, { customer_id: "c" })).toEqual(customer);
    expect(calls).toHaveLength(2);
  });

  it("a read aborted by the caller rejects with the signal's reason and is not retried", async () => {
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const { fetch, calls } = scripted((call) => {
      controller.abort(reason);
      return Promise.reject(call.signal?.reason);
    });
    await expect(client(fetch).call(getCustomer, { customer_id: "c" }, { signal: controller.signal })).rejects.toBe(reason);
    expect(calls).toHaveLength(1);
  });
});

/**
 * A platform that honours operation keys (the first request under a key executes, later ones get its
 * answer), answers after a random delay, and loses the answer to the first request after executing it.
 */
function keyedPlatform() {
  const answers = new Map<string, { id: string; name: string }>();
  let effects = 0;
  let lost = false;
  const sent: string[] = [];
  const fetchImpl = async (_input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const key = new Headers(init.headers).get("idempotency-key")!;
    sent.push(key);
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 4));
    if (!answers.has(key)) answers.set(key, { id: `cus_${++effects}`, name: JSON.parse(String(init.body)).name });
    if (!lost) {
      lost = true;
      throw fetchFailed("ECONNRESET");
    }
    return json(201, answers.get(key));
  };
  return { fetch: fetchImpl as unknown as typeof fetch, effects: () => effects, sent };
}

describe("concurrent recovery of a lost call (one atomic claim)", () => {
  const input = { name: "Ada" };
  const journals: Array<[string, () => () => OperationJournal]> = [
    ["one MemoryJournal", () => {
      const shared = new MemoryJournal();
      return () => shared;
    }],
    // Each call its own connection to the file, as separate processes have.
    ["one SQLite file, a connection per call", () => {
      const path = tempDb();
      return () => new SqliteJournal(path);
    }],
  ];

  it.each(journals)("%s: a lost answer, then 20 identical calls started within 30 ms, 10 repetitions: one effect, each call gets it", async (_, store) => {
    for (let rep = 0; rep < 10; rep++) {
      const platform = keyedPlatform();
      const journal = store();
      const lost = await failure(client(platform.fetch, { journal: journal(), retry: { maxAttempts: 1 } }).call(createCustomer, input));
      expect(lost).toBeInstanceOf(UnknownOutcomeError);
      const results = await Promise.all(
        Array.from({ length: 20 }, async () => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 30));
          return client(platform.fetch, { journal: journal() }).call<{ id: string }>(createCustomer, input);
        }),
      );
      expect(platform.effects()).toBe(1);
      expect(new Set(results.map((r) => r.id))).toEqual(new Set(["cus_1"]));
      expect(new Set(platform.sent)).toEqual(new Set([(lost as UnknownOutcomeError).operationKey]));
    }
  });

  it("a call waiting for a sender gets the sender's recorded rejection, and sends nothing", async () => {
    const journal = new MemoryJournal();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { fetch, calls } = scripted(async () => {
      await gate;
      return errorFor("AMOUNT_INVALID", { field: "name" });
    });
    const first = failure(client(fetch, { journal }).call(createCustomer, input));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = failure(client(fetch, { journal }).call(createCustomer, input));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(calls).toHaveLength(1);
    expect(a).toMatchObject({ code: "AMOUNT_INVALID", outcome: "rejected" });
    expect(b).toBeInstanceOf(InvalidInputError);
    expect(b).toMatchObject({ code: "AMOUNT_INVALID", errorClass: "invalid_input", action: "fix_field", field: "name", outcome: "rejected", operationId: calls[0]!.headers["idempotency-key"] });
  });

  it("an intent whose sender is gone (its claim lapsed) is taken over under its key", async () => {
    const journal = new MemoryJournal();
    const paramsHash = hashValue(input);
    journal.claim({ operation: "create_customer", target: BASE, paramsHash, confirmHash: null, key: "dead-key", newKey: "dead-key", claimant: "crashed", leaseMs: 10, replaySince: null, recoveredSince: null }, Date.now() - 1000);
    const { fetch, calls } = scripted(json(201, customer));
    expect(await client(fetch, { journal }).call(createCustomer, input)).toEqual(customer);
    expect(calls.map((c) => c.headers["idempotency-key"])).toEqual(["dead-key"]);
    expect(journal.get({ operation: "create_customer", target: BASE, key: "dead-key" })).toMatchObject({ status: "completed", recovered: true, claimant: null });
  });

  it("a sender renews its claim while it awaits a slow answer: a call 40 s later still waits for it instead of taking it over", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    try {
      const journal = new MemoryJournal();
      let answer: (r: Response) => void = () => undefined;
      const { fetch } = scripted(() => new Promise<Response>((resolve) => (answer = resolve)));
      const slow = client(fetch, { journal, timeoutMs: 120_000 }).call(createCustomer, input);
      await vi.waitFor(() => expect(journal.claim({ operation: "create_customer", target: BASE, paramsHash: hashValue(input), confirmHash: null, key: null, newKey: "x", claimant: "probe", leaseMs: 1, replaySince: null, recoveredSince: null }).kind).toBe("wait"));
      await vi.advanceTimersByTimeAsync(40_000);
      const probe = journal.claim({ operation: "create_customer", target: BASE, paramsHash: hashValue(input), confirmHash: null, key: null, newKey: "x", claimant: "probe", leaseMs: 1, replaySince: null, recoveredSince: null });
      expect(probe.kind).toBe("wait");
      expect(probe.entry.leaseUntil).toBeGreaterThan(Date.now());
      answer(json(201, customer));
      expect(await slow).toEqual(customer);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a wait longer than a call may take ends with CLIENT_INTENT_IN_PROGRESS under the sender's key, nothing sent", async () => {
    const journal = new MemoryJournal();
    journal.claim({ operation: "create_customer", target: BASE, paramsHash: hashValue(input), confirmHash: null, key: "busy-key", newKey: "busy-key", claimant: "stuck", leaseMs: 60_000, replaySince: null, recoveredSince: null });
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch, { journal, timeoutMs: 20 }).call(createCustomer, input));
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error).toMatchObject({ code: CLIENT_CODES.intentInProgress, outcome: "unknown", operationKey: "busy-key", action: "retry_same_key" });
    expect(calls).toHaveLength(0);
  });

  it("a rate-limited refusal leaves the intent unfinished: the next identical call sends the same key", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(errorFor("RATE_LIMITED"), json(201, customer));
    await failure(client(fetch, { journal, retry: { maxAttempts: 1 } }).call(createCustomer, input));
    expect(await client(fetch, { journal }).call(createCustomer, input)).toEqual(customer);
    expect(calls[1]!.headers["idempotency-key"]).toBe(calls[0]!.headers["idempotency-key"]);
  });

  it("within the recovery window an identical keyless call gets the recovered outcome; with recoveryWindowMs 0 or a key of its own it is a new intent", async () => {
    const platform = keyedPlatform();
    const journal = new MemoryJournal();
    await failure(client(platform.fetch, { journal, retry: { maxAttempts: 1 } }).call(createCustomer, input));
    expect(await client(platform.fetch, { journal }).call(createCustomer, input)).toMatchObject({ id: "cus_1" });
    expect(await client(platform.fetch, { journal }).call(createCustomer, input)).toMatchObject({ id: "cus_1" });
    expect(platform.sent).toHaveLength(2);
    expect(await client(platform.fetch, { journal }).call(createCustomer, { ...input, idempotency_key: "deliberate" })).toMatchObject({ id: "cus_2" });
    expect(await client(platform.fetch, { journal, recoveryWindowMs: 0 }).call(createCustomer, input)).toMatchObject({ id: "cus_3" });
    expect(platform.effects()).toBe(3);
  });

  it.each([-1, 1.5, Number.NaN, 86_400_001])("recoveryWindowMs %s is refused before anything is recorded or sent", async (recoveryWindowMs) => {
    const journal = new MemoryJournal();
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch, { journal, recoveryWindowMs }).call(createCustomer, { ...input, idempotency_key: "k" }));
    expect(error).toMatchObject({ code: CLIENT_CODES.invalidOption, outcome: "rejected" });
    expect(calls).toHaveLength(0);
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k" })).toBeUndefined();
  });
});

describe("unknown outcomes", () => {
  it.each([
    ["a timeout", timeoutError()],
    ["a connection reset after send", fetchFailed("ECONNRESET")],
    ["a socket closed by the other side", fetchFailed("UND_ERR_SOCKET")],
  ])("%s on a keyed mutation is an UnknownOutcomeError with the key; not retried; journal unknown", async (_, failureReason) => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(failureReason, json(201, customer));
    const error = await failure(client(fetch, { journal }).call(createCustomer, { idempotency_key: "key-u", name: "Ada" }));
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    const unknown = error as UnknownOutcomeError;
    expect(unknown).toMatchObject({
      code: CLIENT_CODES.noResponse,
      errorClass: "transient",
      outcome: "unknown",
      operationKey: "key-u",
      nextAction: "retry_same_key",
      action: "retry_same_key",
      operationId: "key-u",
    });
    expect(unknown.message).toContain("key-u");
    expect(unknown.toJSON()).toMatchObject({ operationKey: "key-u", nextAction: "retry_same_key", outcome: "unknown" });
    expect(calls).toHaveLength(1);
    const entry = journal.get({ operation: "create_customer", target: BASE, key: "key-u" });
    expect(entry?.status).toBe("unknown");
    expect(entry?.result).toMatchObject({ code: CLIENT_CODES.noResponse, operationKey: "key-u" });
  });

  it("a real per-request timeout aborts fetch and yields an UnknownOutcomeError for a mutation", async () => {
    const { fetch, calls } = scripted(
      (call) =>
        new Promise<Response>((_, reject) => {
          call.signal!.addEventListener("abort", () => reject(call.signal!.reason));
        }),
    );
    const error = await failure(client(fetch, { timeoutMs: 20 }).call(createCustomer, { idempotency_key: "k-t", name: "Ada" }));
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect((error as UnknownOutcomeError).operationKey).toBe("k-t");
    expect(error.message).toMatch(/timed out/);
    expect(calls).toHaveLength(1);
  });

  it("a connection reset on an unkeyed mutation: UnknownOutcomeError with nextAction reconcile", async () => {
    const { fetch, calls } = scripted(fetchFailed("ECONNRESET"));
    const error = await failure(client(fetch).call(addNote, { customer_id: "c", text: "hi" }));
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect(error).toMatchObject({ operationKey: null, nextAction: "reconcile", action: "reconcile", outcome: "unknown" });
    expect(calls).toHaveLength(1);
  });

  it("a retry after an unknown outcome reuses the key and is answered by the platform", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(fetchFailed("ECONNRESET"), json(201, customer));
    const c = client(fetch, { journal });
    const error = (await failure(c.call(createCustomer, { name: "Ada" }))) as UnknownOutcomeError;
    const result = await c.call(createCustomer, { name: "Ada", idempotency_key: error.operationKey });
    expect(result).toEqual(customer);
    expect(calls[1]!.headers["idempotency-key"]).toBe(calls[0]!.headers["idempotency-key"]);
    expect(journal.get({ operation: "create_customer", target: BASE, key: error.operationKey! })?.status).toBe("completed");
  });

  it("aborting during the backoff after a possibly-executed attempt keeps the intent unfinished", async () => {
    const journal = new MemoryJournal();
    const controller = new AbortController();
    // A gateway 503: the platform may or may not have executed the request.
    const { fetch, calls } = scripted((_call) => {
      setTimeout(() => controller.abort(new Error("caller gave up")), 20);
      return new Response("", { status: 503 });
    });
    const c = client(fetch, { journal, retry: { initialDelayMs: 10_000, maxDelayMs: 10_000 } });
    await expect(c.call(createCustomer, { name: "Ada" }, { signal: controller.signal })).rejects.toBeDefined();
    expect(calls).toHaveLength(1);
    const key = calls[0]!.headers["idempotency-key"]!;
    expect(journal.get({ operation: "create_customer", target: BASE, key })?.status).toBe("unknown");
    // A re-run without a key is the same intent: it must reuse the key (no second effect).
    const again = scripted(json(201, customer));
    await client(again.fetch, { journal }).call(createCustomer, { name: "Ada" });
    expect(again.calls[0]!.headers["idempotency-key"]).toBe(key);
  });
});

describe("operation journal", () => {
  it("the intent is recorded as 'sending' before fetch is called (MemoryJournal)", async () => {
    const journal = new MemoryJournal();
    const seen: unknown[] = [];
    const { fetch } = scripted((call) => {
      seen.push(journal.get({ operation: "create_customer", target: BASE, key: call.headers["idempotency-key"]! }));
      return json(201, customer);
    });
    await client(fetch, { journal }).call(createCustomer, { idempotency_key: "k1", name: "Ada", email: "a@b" });
    expect(seen).toEqual([
      expect.objectContaining({ status: "sending", key: "k1", operation: "create_customer", target: BASE, paramsHash: hashValue({ name: "Ada", email: "a@b" }) }),
    ]);
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k1" })).toMatchObject({ status: "completed", result: customer });
  });

  it("the intent row is committed before fetch is called (seen by another SQLite connection)", async () => {
    const path = tempDb();
    const journal = new SqliteJournal(path);
    const observer = new SqliteJournal(path);
    const seen: unknown[] = [];
    try {
      const { fetch } = scripted((call) => {
        seen.push(observer.get({ operation: "create_customer", target: BASE, key: call.headers["idempotency-key"]! }));
        return json(201, customer);
      });
      await client(fetch, { journal }).call(createCustomer, { idempotency_key: "k-sql", name: "Ada" });
      expect(seen).toEqual([expect.objectContaining({ status: "sending", key: "k-sql", paramsHash: hashValue({ name: "Ada" }) })]);
      expect(observer.get({ operation: "create_customer", target: BASE, key: "k-sql" })).toMatchObject({ status: "completed", result: customer });
    } finally {
      journal.close();
      observer.close();
    }
  });

  it("a journal given as a file path is opened there and shared with other clients", async () => {
    const path = tempDb();
    const a = client(scripted(json(201, customer)).fetch, { journal: path });
    await a.call(createCustomer, { idempotency_key: "kp", name: "Ada" });
    a.close();
    const { fetch, calls } = forbiddenFetch();
    const b = client(fetch, { journal: path });
    expect(await b.call(createCustomer, { idempotency_key: "kp", name: "Ada" })).toEqual(customer);
    expect(calls).toHaveLength(0);
    b.close();
  });

  it("a completed result is recovered by a second client sharing the journal, without calling fetch", async () => {
    const journal = new MemoryJournal();
    await client(scripted(json(201, customer)).fetch, { journal }).call(createCustomer, { idempotency_key: "k2", name: "Ada" });
    const { fetch, calls } = forbiddenFetch();
    const result = await client(fetch, { journal }).call(createCustomer, { idempotency_key: "k2", name: "Ada" });
    expect(result).toEqual(customer);
    expect(calls).toHaveLength(0);
  });

  it("recovery works across separate SQLite connections (another process's journal)", async () => {
    const path = tempDb();
    const j1 = new SqliteJournal(path);
    const j2 = new SqliteJournal(path);
    try {
      await client(scripted(json(201, customer)).fetch, { journal: j1 }).call(createCustomer, { idempotency_key: "k3", name: "Ada" });
      const { fetch, calls } = forbiddenFetch();
      expect(await client(fetch, { journal: j2 }).call(createCustomer, { idempotency_key: "k3", name: "Ada" })).toEqual(customer);
      expect(calls).toHaveLength(0);
    } finally {
      j1.close();
      j2.close();
    }
  });

  it("the same key with different parameters is a local ConflictError CLIENT_OPERATION_KEY_REUSED; nothing sent", async () => {
    const journal = new MemoryJournal();
    await client(scripted(json(201, customer)).fetch, { journal }).call(createCustomer, { idempotency_key: "k4", name: "Ada" });
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch, { journal }).call(createCustomer, { idempotency_key: "k4", name: "Grace" }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: CLIENT_CODES.keyReused, errorClass: "conflict", field: "idempotency_key", operationId: "k4", outcome: "rejected" });
    expect(calls).toHaveLength(0);
    // The recorded intent is untouched.
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k4" })).toMatchObject({ status: "completed", result: customer });
  });

  it("the same key with different parameters is refused while the first is still unfinished too", async () => {
    const journal = new MemoryJournal();
    await failure(client(scripted(fetchFailed("ECONNRESET")).fetch, { journal }).call(createCustomer, { idempotency_key: "k5", name: "Ada" }));
    const { fetch, calls } = forbiddenFetch();
    const error = await failure(client(fetch, { journal }).call(createCustomer, { idempotency_key: "k5", name: "Ada", email: "x@y" }));
    expect(error.code).toBe(CLIENT_CODES.keyReused);
    expect(calls).toHaveLength(0);
  });

  it("the same key and parameters after an unknown outcome are sent again under that key", async () => {
    const journal = new MemoryJournal();
    await failure(client(scripted(timeoutError()).fetch, { journal }).call(createCustomer, { idempotency_key: "k6", name: "Ada" }));
    const { fetch, calls } = scripted(json(200, customer, { "idempotent-replayed": "true" }));
    expect(await client(fetch, { journal }).call(createCustomer, { idempotency_key: "k6", name: "Ada" })).toEqual(customer);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers["idempotency-key"]).toBe("k6");
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k6" })?.status).toBe("completed");
  });

  it("a key rejected by the platform is free again, even for different parameters", async () => {
    const journal = new MemoryJournal();
    await failure(client(scripted(errorFor("AMOUNT_INVALID")).fetch, { journal }).call(createCustomer, { idempotency_key: "k7", name: "A" }));
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k7" })?.status).toBe("rejected");
    const { fetch, calls } = scripted(json(201, customer));
    expect(await client(fetch, { journal }).call(createCustomer, { idempotency_key: "k7", name: "Ada" })).toEqual(customer);
    expect(calls).toHaveLength(1);
    expect(journal.get({ operation: "create_customer", target: BASE, key: "k7" })).toMatchObject({ status: "completed", paramsHash: hashValue({ name: "Ada" }) });
  });

  it("an omitted key reuses the key of an unfinished intent with equal params, and a new key after completion", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(fetchFailed("ECONNRESET"), json(201, customer), json(201, customer), json(201, { id: "cus_2", name: "Grace" }));
    const c = client(fetch, { journal });
    await failure(c.call(createCustomer, { name: "Ada" })); // unknown outcome
    await c.call(createCustomer, { name: "Ada" }); // same intent: same key
    await c.call(createCustomer, { name: "Ada" }); // the first intent completed: a new intent
    await c.call(createCustomer, { name: "Grace" }); // different params: a new intent
    const keys = calls.map((call) => call.headers["idempotency-key"]!);
    expect(keys.every((k) => UUID.test(k))).toBe(true);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[0]);
    expect(keys[3]).not.toBe(keys[2]);
  });

  it("an omitted key does not reuse an unfinished intent with different parameters", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(fetchFailed("ECONNRESET"), json(201, customer));
    const c = client(fetch, { journal });
    await failure(c.call(createCustomer, { name: "Ada" }));
    await c.call(createCustomer, { name: "Ada", email: "ada@x" });
    expect(calls[1]!.headers["idempotency-key"]).not.toBe(calls[0]!.headers["idempotency-key"]);
  });

  it("without a journal, every call without a key gets a fresh key", async () => {
    const { fetch, calls } = scripted(json(201, customer));
    const c = client(fetch, { journal: false });
    expect(c.journal).toBeNull();
    await c.call(createCustomer, { name: "Ada" });
    await c.call(createCustomer, { name: "Ada" });
    expect(calls[0]!.headers["idempotency-key"]).toMatch(UUID);
    expect(calls[1]!.headers["idempotency-key"]).not.toBe(calls[0]!.headers["idempotency-key"]);
  });

  it("keys are journaled per target (base URL)", async () => {
    const journal = new MemoryJournal();
    await client(scripted(json(201, customer)).fetch, { journal }).call(createCustomer, { idempotency_key: "k8", name: "Ada" });
    const { fetch, calls } = scripted(json(201, customer));
    await client(fetch, { journal, baseUrl: "http://staging.test" }).call(createCustomer, { idempotency_key: "k8", name: "Grace" });
    expect(calls).toHaveLength(1);
  });

  it("reads never touch the journal", async () => {
    const calls: string[] = [];
    const spy: OperationJournal = {
      claim: () => (calls.push("claim"), { kind: "send", entry: undefined as never }),
      renew: () => (calls.push("renew"), false),
      settle: () => void calls.push("settle"),
      get: () => (calls.push("get"), undefined),
      close: () => void calls.push("close"),
    };
    await client(scripted(json(200, customer)).fetch, { journal: spy }).call(getCustomer, { customer_id: "c" });
    expect(calls).toEqual([]);
  });
});

describe("preview and confirm", () => {
  const preview = { expected: { refund: 500 }, confirm_token: "ct_1" };

  it("preview sends dry_run true and no key, validates the preview output, journals nothing", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(json(200, preview));
    const c = client(fetch, { journal });
    const result = await c.preview(refund, { charge_id: "ch_1", amount: 500 });
    expect(result).toEqual(preview);
    expect(calls[0]!.url.pathname).toBe("/v1/charges/ch_1/refunds");
    expect(calls[0]!.body).toEqual({ amount: 500, dry_run: true });
    expect(calls[0]!.headers["idempotency-key"]).toBeUndefined();
    // Nothing recorded: a claim of those parameters finds no intent and would begin a new one.
    const claim = journal.claim({ operation: "refund_charge", target: BASE, paramsHash: hashValue({ charge_id: "ch_1", amount: 500 }), confirmHash: null, key: null, newKey: "fresh", claimant: "probe", leaseMs: 1, replaySince: 0, recoveredSince: 0 });
    expect(claim).toMatchObject({ kind: "send", entry: { key: "fresh" } });
  });

  it("preview overrides a caller's dry_run false to true and never sends a key, even one it was given", async () => {
    const { fetch, calls } = scripted(json(200, preview));
    await client(fetch).preview(refund, { charge_id: "ch_1", amount: 500, dry_run: false, idempotency_key: "kp" });
    expect(calls[0]!.body).toEqual({ amount: 500, dry_run: true });
    expect(calls[0]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("call sends dry_run false with the confirm token, keyed and journaled on the intent parameters", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(json(201, { refund_id: "re_1", amount: 500 }));
    const result = await client(fetch, { journal }).call(refund, { charge_id: "ch_1", amount: 500, dry_run: true, confirm_token: "ct_1", idempotency_key: "kr" });
    expect(result).toEqual({ refund_id: "re_1", amount: 500 });
    expect(calls[0]!.body).toEqual({ amount: 500, dry_run: false, confirm_token: "ct_1" });
    expect(calls[0]!.headers["idempotency-key"]).toBe("kr");
    // The hash leaves out the key, the dry-run flag and the token.
    expect(journal.get({ operation: "refund_charge", target: BASE, key: "kr" })).toMatchObject({
      status: "completed",
      paramsHash: hashValue({ charge_id: "ch_1", amount: 500 }),
    });
  });

  it("a re-run with a new confirm token but the same parameters is the same intent", async () => {
    const journal = new MemoryJournal();
    const { fetch, calls } = scripted(timeoutError(), json(201, { refund_id: "re_1", amount: 500 }));
    const c = client(fetch, { journal });
    await failure(c.call(refund, { charge_id: "ch_1", amount: 500, confirm_token: "ct_1" }));
    await c.call(refund, { charge_id: "ch_1", amount: 500, confirm_token: "ct_2" });
    expect(calls[1]!.headers["idempotency-key"]).toBe(calls[0]!.headers["idempotency-key"]);
  });

  it("a preview answer failing the preview schema is an InternalError CLIENT_RESPONSE_INVALID", async () => {
    const { fetch } = scripted(json(200, { expected: {} }));
    const error = await failure(client(fetch).preview(refund, { charge_id: "ch_1", amount: 500 }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error.code).toBe(CLIENT_CODES.badResponse);
  });

  it("a preview whose output the contract leaves undescribed is answered as the platform sent it", async () => {
    const { fetch, calls } = scripted(json(200, { anything: true, confirm_token: "ct_9" }));
    const undescribed: OperationSpec = { ...refund, validatePreview: null };
    expect(await client(fetch).preview(undescribed, { charge_id: "ch_1", amount: 500 })).toEqual({ anything: true, confirm_token: "ct_9" });
    expect(calls).toHaveLength(1);
  });

  it("preview of an operation without one is a TypeError, nothing sent", async () => {
    const { fetch, calls } = forbiddenFetch();
    await expect(client(fetch).preview(createCustomer, { name: "Ada" })).rejects.toThrow(TypeError);
    expect(calls).toHaveLength(0);
  });
});

describe("paginate", () => {
  const pages: Record<string, { items: Array<{ id: string }>; next_cursor: string | null; total: number }> = {
    "": { items: [{ id: "in_1" }, { id: "in_2" }], next_cursor: "cur/2", total: 5 },
    "cur/2": { items: [{ id: "in_3" }, { id: "in_4" }], next_cursor: "cur/3", total: 5 },
    "cur/3": { items: [{ id: "in_5" }], next_cursor: null, total: 5 },
  };
  const pageFetch = () => scripted((call) => json(200, pages[call.url.searchParams.get("cursor") ?? ""]));

  it("passes each next cursor unchanged and reports a complete traversal", async () => {
    const { fetch, calls } = pageFetch();
    const result = await client(fetch).paginate<{ id: string }>(listInvoices, { status: ["open", "paid"], limit: 2 }, { maxPages: 10 }).collect();
    expect(result.items.map((i) => i.id)).toEqual(["in_1", "in_2", "in_3", "in_4", "in_5"]);
    expect(result).toMatchObject({ complete: true, pagesRead: 3, received: 5, declaredTotal: 5, continuation: null });
    expect(calls.map((c) => c.url.searchParams.get("cursor"))).toEqual([null, "cur/2", "cur/3"]);
    for (const c of calls) {
      expect(c.url.searchParams.getAll("status")).toEqual(["open", "paid"]);
      expect(c.url.searchParams.get("limit")).toBe("2");
    }
  });

  it("stops at maxPages and reports the continuation; resuming from it finishes the traversal", async () => {
    const { fetch, calls } = pageFetch();
    const c = client(fetch);
    const first = await c.paginate<{ id: string }>(listInvoices, {}, { maxPages: 1 }).collect();
    expect(first).toMatchObject({ complete: false, stoppedBy: "maxPages", continuation: "cur/2", received: 1 * 2 });
    const rest = await c.paginate<{ id: string }>(listInvoices, { cursor: first.continuation }, { maxPages: 10 }).collect();
    expect(rest.items.map((i) => i.id)).toEqual(["in_3", "in_4", "in_5"]);
    expect(calls.map((call) => call.url.searchParams.get("cursor"))).toEqual([null, "cur/2", "cur/3"]);
  });

  it("for-await iteration with maxItems reports an incomplete traversal", async () => {
    const { fetch } = pageFetch();
    const paginator = client(fetch).paginate<{ id: string }>(listInvoices, {}, { maxPages: 10, maxItems: 3 });
    const ids: string[] = [];
    for await (const item of paginator) ids.push(item.id);
    expect(ids).toEqual(["in_1", "in_2", "in_3"]);
    expect(paginator.completeness).toMatchObject({ complete: false, stoppedBy: "maxItems", continuation: "cur/2" });
  });

  it("a page that fails the output schema fails the traversal", async () => {
    const { fetch } = scripted(json(200, { items: "nope" }));
    await expect(client(fetch).paginate(listInvoices, {}, { maxPages: 3 }).collect()).rejects.toBeInstanceOf(InternalError);
  });

  it("paginate of an operation without pagination is a TypeError", () => {
    expect(() => client(forbiddenFetch().fetch).paginate(getCustomer, {}, { maxPages: 1 })).toThrow(TypeError);
  });

  it("invalid bounds are a RangeError before any request", () => {
    const { fetch, calls } = forbiddenFetch();
    expect(() => client(fetch).paginate(listInvoices, {}, { maxPages: 0 })).toThrow(RangeError);
    expect(calls).toHaveLength(0);
  });
});

describe("credentials never leak", () => {
  it("the token appears in no error message, toJSON(), stack or journal record", async () => {
    const path = tempDb();
    const journal = new SqliteJournal(path);
    const errors: ContractError[] = [];
    const c = (fetchImpl: typeof fetch, extra: ClientOptions = {}) => client(fetchImpl, { journal, retry: { maxAttempts: 2, initialDelayMs: 1 }, ...extra });
    try {
      errors.push(await failure(c(scripted(errorFor("TOKEN_EXPIRED")).fetch).call(getCustomer, { customer_id: "c" })));
      errors.push(await failure(c(scripted(errorFor("UNAVAILABLE")).fetch).call(createCustomer, { idempotency_key: "l1", name: "Ada" })));
      errors.push(await failure(c(scripted(timeoutError()).fetch).call(createCustomer, { idempotency_key: "l2", name: "Ada" })));
      errors.push(await failure(c(scripted(fetchFailed("ECONNRESET")).fetch).call(addNote, { customer_id: "c", text: "x" })));
      errors.push(await failure(c(scripted(fetchFailed("ECONNREFUSED")).fetch).call(getCustomer, { customer_id: "c" })));
      errors.push(await failure(c(scripted(json(200, { bad: 1 })).fetch).call(getCustomer, { customer_id: "c" })));
      errors.push(await failure(c(scripted(json(400, { error: { code: "NOPE" } })).fetch).call(getCustomer, { customer_id: "c" })));
      errors.push(await failure(c(scripted(new Response("", { status: 503 })).fetch).call(addNote, { customer_id: "c", text: "x" })));
      errors.push(await failure(c(forbiddenFetch().fetch).call(createCustomer, { idempotency_key: "l1", name: "Other" })));
      errors.push(await failure(c(forbiddenFetch().fetch).call(getCustomer, { customer_id: ".." })));
      errors.push(await failure(c(forbiddenFetch().fetch).call(createCustomer, { idempotency_key: "l3" })));
      process.env[TOKEN_ENV] = "";
      errors.push(await failure(c(forbiddenFetch().fetch, { token: undefined }).call(getCustomer, { customer_id: "c" })));
    } finally {
      journal.close();
    }
    expect(errors).toHaveLength(12);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ContractError);
      for (const text of [error.message, String(error), error.stack ?? "", JSON.stringify(error.toJSON()), JSON.stringify(error)]) {
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain("Bearer");
      }
    }
    expect(readFileSync(path).toString("latin1")).not.toContain(TOKEN);
  });
});
