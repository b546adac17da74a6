/**
 * Credential schemes over a real HTTP server: HTTP basic, API keys in a header, the query and a
 * cookie under their declared names, alternatives, public operations, and redaction of every form
 * a platform may echo (results, errors, the journal).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ClientOptions, ContractClient, type ContractInfo, type OperationSpec, type Validator } from "../../src/runtime/client.js";
import { CLIENT_CODES, ContractError } from "../../src/runtime/errors.js";
import { SqliteJournal } from "../../src/runtime/journal.js";
import { Redactor } from "../../src/runtime/redact.js";
import { maskSecrets, registerSecret } from "../../src/tests-runtime/mask.js";

const ajv = new Ajv2020({ strict: false });
const compile = (schema: object): Validator => ajv.compile(schema);

const ENV = {
  user: "CG_CRED_TEST_USER",
  password: "CG_CRED_TEST_PASSWORD",
  headerKey: "CG_CRED_TEST_HEADER_KEY",
  queryKey: "CG_CRED_TEST_QUERY_KEY",
  cookieKey: "CG_CRED_TEST_COOKIE_KEY",
  bearer: "CG_CRED_TEST_BEARER",
} as const;

const USER = "AC0123456789abcdef";
const PASSWORD = "s3cr3t pass&word/=+";
const HEADER_KEY = "hk_live_0123456789";
const QUERY_KEY = "qk live/0123+456&789=";
const COOKIE_KEY = "ck;live 0123456789";
const BEARER = "bt_0123456789abcdef";
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString("base64");

interface Seen {
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
}

const seen: Seen[] = [];
/** What the server answers: by default it echoes everything it received (the worst case for redaction). */
let answer: (s: Seen) => { status: number; body: unknown } = (s) => ({ status: 200, body: { echo: `${s.url.search} ${JSON.stringify(s.headers)}` } });
let base = "";
const server: Server = createServer((req, res) => {
  const s = { url: new URL(req.url ?? "/", base), headers: req.headers };
  seen.push(s);
  const { status, body } = answer(s);
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
});

beforeAll(
  () =>
    new Promise<void>((resolve) =>
      server.listen(0, "127.0.0.1", () => {
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        resolve();
      }),
    ),
);
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const saved = Object.fromEntries(Object.values(ENV).map((name) => [name, process.env[name]]));
beforeEach(() => {
  seen.length = 0;
  answer = (s) => ({ status: 200, body: { echo: `${s.url.search} ${JSON.stringify(s.headers)}` } });
  process.env[ENV.user] = USER;
  process.env[ENV.password] = PASSWORD;
  process.env[ENV.headerKey] = HEADER_KEY;
  process.env[ENV.queryKey] = QUERY_KEY;
  process.env[ENV.cookieKey] = COOKIE_KEY;
  process.env[ENV.bearer] = BEARER;
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const contract = (require: string[][]): ContractInfo => ({
  name: "creds",
  version: "1.0.0",
  baseUrl: "http://127.0.0.1:1",
  baseUrlEnv: null,
  timeoutMs: 5000,
  auth: {
    type: "schemes",
    schemes: [
      { name: "login", type: "basic", usernameEnv: ENV.user, passwordEnv: ENV.password },
      { name: "header_key", type: "apiKey", in: "header", param: "api_key", tokenEnv: ENV.headerKey },
      { name: "query_key", type: "apiKey", in: "query", param: "api-key", tokenEnv: ENV.queryKey },
      { name: "cookie_key", type: "apiKey", in: "cookie", param: "session", tokenEnv: ENV.cookieKey },
      { name: "oauth", type: "bearer", tokenEnv: ENV.bearer },
      // A name like an Object.prototype member is an ordinary scheme name.
      { name: "__proto__", type: "apiKey", in: "header", param: "x-proto", tokenEnv: ENV.headerKey },
    ],
    require,
  },
  taxonomy: { PET_NOT_FOUND: { class: "not_found", action: "verify_identifier", http: 404 } },
});

const anything = compile({});
const getPet = (auth?: string[][]): OperationSpec => ({
  id: "get_pet",
  method: "GET",
  path: "/pets/{pet_id}",
  bindings: [
    { field: "pet_id", in: "path", name: "pet_id" },
    { field: "tags", in: "query", name: "tags" },
  ],
  mutating: false,
  idempotent: "natural",
  keyField: null,
  preview: null,
  pagination: null,
  errors: ["PET_NOT_FOUND"],
  ...(auth !== undefined ? { auth } : {}),
  validateInput: anything,
  validateOutput: anything,
  validatePreview: null,
});

const createPet: OperationSpec = {
  id: "create_pet",
  method: "POST",
  path: "/pets",
  bindings: [
    { field: "key", in: "header", name: "Idempotency-Key" },
    { field: "name", in: "body", name: "name" },
  ],
  mutating: true,
  idempotent: "key",
  keyField: "key",
  preview: null,
  pagination: null,
  errors: [],
  validateInput: anything,
  validateOutput: anything,
  validatePreview: null,
};

const client = (require: string[][], options: ClientOptions = {}) => new ContractClient(contract(require), { baseUrl: base, journal: false, retry: { maxAttempts: 1 }, ...options });

async function failure(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (e) {
    return e as ContractError;
  }
  throw new Error("expected the call to fail");
}

// The basic username names an account and is no secret (it is neither refused for its length nor redacted).
const FORMS = [PASSWORD, encodeURIComponent(PASSWORD), BASIC, HEADER_KEY, QUERY_KEY, encodeURIComponent(QUERY_KEY), new URLSearchParams([["", QUERY_KEY]]).toString().slice(1), COOKIE_KEY, encodeURIComponent(COOKIE_KEY), BEARER];
const expectNoCredential = (text: string) => {
  for (const form of FORMS) expect(text).not.toContain(form);
};

describe("credential schemes on the wire", () => {
  it("basic sends Authorization: Basic base64(username:password) from its two variables", async () => {
    await client([["login"]]).call(getPet(), { pet_id: "p1" });
    expect(seen[0]!.headers.authorization).toBe(`Basic ${BASIC}`);
    expect(Buffer.from(seen[0]!.headers.authorization!.slice(6), "base64").toString()).toBe(`${USER}:${PASSWORD}`);
  });

  it("an API key in a header travels under its declared name", async () => {
    await client([["header_key"]]).call(getPet(), { pet_id: "p1" });
    expect(seen[0]!.headers.api_key).toBe(HEADER_KEY);
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("an API key in the query is one more parameter under its name; the operation's own query is kept", async () => {
    await client([["query_key"]]).call(getPet(), { pet_id: "p1", tags: ["a b", "c"] });
    const url = seen[0]!.url;
    expect(url.pathname).toBe("/pets/p1");
    expect(url.searchParams.get("api-key")).toBe(QUERY_KEY);
    expect(url.searchParams.getAll("tags")).toEqual(["a b", "c"]);
  });

  it("an API key in the query replaces an operation parameter of the same name (SoundCloud's client_id): one value, the credential", async () => {
    const op: OperationSpec = { ...getPet(), bindings: [...getPet().bindings, { field: "client", in: "query", name: "api-key" }] };
    await client([["query_key"]]).call(op, { pet_id: "p1", tags: ["x"], client: "from-input" });
    const url = seen[0]!.url;
    expect(url.searchParams.getAll("api-key")).toEqual([QUERY_KEY]);
    expect(url.searchParams.getAll("tags")).toEqual(["x"]);
  });

  it("an API key in a cookie is sent in the Cookie header under its name (percent-encoded when it is not cookie-safe)", async () => {
    await client([["cookie_key"]]).call(getPet(), { pet_id: "p1" });
    expect(seen[0]!.headers.cookie).toBe(`session=${encodeURIComponent(COOKIE_KEY)}`);
    process.env[ENV.cookieKey] = "plain-cookie-value_0123";
    await client([["cookie_key"]]).call(getPet(), { pet_id: "p1" });
    expect(seen[1]!.headers.cookie).toBe("session=plain-cookie-value_0123");
  });

  it("schemes of one alternative are all sent together", async () => {
    await client([["login", "query_key", "cookie_key", "header_key"]]).call(getPet(), { pet_id: "p1" });
    const s = seen[0]!;
    expect(s.headers.authorization).toBe(`Basic ${BASIC}`);
    expect(s.headers.api_key).toBe(HEADER_KEY);
    expect(s.url.searchParams.get("api-key")).toBe(QUERY_KEY);
    expect(s.headers.cookie).toContain("session=");
  });

  it("the first alternative whose credentials are all present is used", async () => {
    delete process.env[ENV.password];
    await client([["login"], ["oauth"], ["header_key"]]).call(getPet(), { pet_id: "p1" });
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${BEARER}`);
    expect(seen[0]!.headers.api_key).toBeUndefined();
  });

  it("no complete alternative: CLIENT_MISSING_CREDENTIAL naming every variable, nothing sent", async () => {
    for (const name of Object.values(ENV)) delete process.env[name];
    const error = await failure(client([["login"], ["oauth"]]).call(getPet(), { pet_id: "p1" }));
    expect(error).toMatchObject({ code: CLIENT_CODES.missingCredential, errorClass: "unauthenticated", action: "reauthenticate", outcome: "rejected" });
    expect(error.message).toContain(`${ENV.user} and ${ENV.password}`);
    expect(error.message).toContain(ENV.bearer);
    expect(seen).toHaveLength(0);
  });

  it("the credentials option (object or Map) wins over the variables; a scheme name like __proto__ is an ordinary key", async () => {
    for (const name of Object.values(ENV)) delete process.env[name];
    await client([["login"]], { credentials: { login: { username: "user-from-option", password: "password-from-option" } } }).call(getPet(), { pet_id: "p1" });
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from("user-from-option:password-from-option").toString("base64")}`);
    await client([["__proto__"]], { credentials: new Map([["__proto__", "proto-key-0123"]]) }).call(getPet(), { pet_id: "p1" });
    expect(seen[1]!.headers["x-proto"]).toBe("proto-key-0123");
    const options = JSON.parse('{"__proto__": "proto-key-4567"}') as Record<string, string>;
    await client([["__proto__"]], { credentials: options }).call(getPet(), { pet_id: "p1" });
    expect(seen[2]!.headers["x-proto"]).toBe("proto-key-4567");
  });

  it("a basic credential given as a string is refused as an invalid option, nothing sent", async () => {
    const error = await failure(client([["login"]], { credentials: { login: "just-a-token-0123" } }).call(getPet(), { pet_id: "p1" }));
    expect(error.code).toBe(CLIENT_CODES.invalidOption);
    expect(seen).toHaveLength(0);
  });

  it("an operation's own alternatives override the contract's; auth: [] sends nothing", async () => {
    await client([["oauth"]]).call(getPet([["header_key"]]), { pet_id: "p1" });
    expect(seen[0]!.headers.api_key).toBe(HEADER_KEY);
    expect(seen[0]!.headers.authorization).toBeUndefined();
    for (const name of Object.values(ENV)) delete process.env[name];
    await client([["oauth"]]).call(getPet([]), { pet_id: "p1" });
    expect(seen[1]!.headers.authorization).toBeUndefined();
    expect(seen[1]!.headers.cookie).toBeUndefined();
  });

  it("each secret shorter than 8 characters is refused (a basic password included), nothing sent", async () => {
    process.env[ENV.password] = "short";
    const error = await failure(client([["login"]]).call(getPet(), { pet_id: "p1" }));
    expect(error.code).toBe(CLIENT_CODES.credentialTooShort);
    expect(error.message).not.toContain("short\"");
    expect(seen).toHaveLength(0);
  });

  it("a short basic username (Mailgun's `api`) is an account name: sent, and not redacted from results", async () => {
    process.env[ENV.user] = "api";
    answer = () => ({ status: 200, body: { id: "p1", owner: "api-team" } });
    const result = await client([["login"]]).call(getPet(), { pet_id: "p1" });
    expect(Buffer.from(seen[0]!.headers.authorization!.slice(6), "base64").toString()).toBe(`api:${PASSWORD}`);
    expect(JSON.stringify(result)).toContain("api-team");
  });

  it("the single forms keep working: token for a one-scheme contract", async () => {
    const c = new ContractClient({ ...contract([]), auth: { type: "apiKey", header: "X-Api-Key", tokenEnv: ENV.headerKey } }, { baseUrl: base, journal: false, token: "token-from-option" });
    await c.call(getPet(), { pet_id: "p1" });
    expect(seen[0]!.headers["x-api-key"]).toBe("token-from-option");
  });
});

describe("redaction of every credential form", () => {
  const all = [["login", "header_key", "query_key", "cookie_key"], ["oauth"]];

  it("a result echoing the request (basic base64, header, query in its encodings, cookie) carries none of them", async () => {
    answer = (s) => ({ status: 200, body: { echo: `${s.url.search} ${JSON.stringify(s.headers)}`, raw: [USER, PASSWORD, QUERY_KEY, COOKIE_KEY, BEARER], [HEADER_KEY]: "as a key" } });
    const result = await client(all).call(getPet(), { pet_id: "p1" });
    const text = JSON.stringify(result);
    expectNoCredential(text);
    expect(text).toContain("[REDACTED]");
    // The request did carry them.
    expect(seen[0]!.url.search).toContain("api-key=");
  });

  it("an error echoing the request carries none of them (message, details, toJSON, stack)", async () => {
    answer = (s) => ({ status: 418, body: { message: `${s.url.search} ${JSON.stringify(s.headers)}`, basic: BASIC, form: new URLSearchParams([["k", QUERY_KEY]]).toString() } });
    const error = await failure(client(all).call(getPet(), { pet_id: "p1" }));
    for (const text of [error.message, error.stack ?? "", JSON.stringify(error.toJSON()), JSON.stringify(error)]) expectNoCredential(text);
  });

  it("the journal row of a failed keyed mutation carries none of them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "contractgen-credentials-"));
    const path = join(dir, "journal.sqlite");
    const journal = new SqliteJournal(path);
    try {
      answer = (s) => ({ status: 409, body: { error: { code: "KEY_REUSED", message: `${s.url.search} ${JSON.stringify(s.headers)} ${BASIC}` } } });
      await failure(client(all, { journal }).call(createPet, { name: "Rex" }));
    } finally {
      journal.close();
    }
    expectNoCredential(readFileSync(path).toString("latin1"));
    rmSync(dir, { recursive: true, force: true });
  });

  it("the redactor replaces the form-encoded spelling too", () => {
    const r = new Redactor([QUERY_KEY]);
    expect(r.text(`a=${new URLSearchParams([["", QUERY_KEY]]).toString().slice(1)}`)).toBe("a=[REDACTED]");
    expect(r.text(`a=${encodeURIComponent(QUERY_KEY)}`)).toBe("a=[REDACTED]");
  });

  it("the contract suite masks the form-encoded spelling and basic's base64 form", () => {
    registerSecret(QUERY_KEY);
    registerSecret(BASIC);
    const text = maskSecrets(`q=${new URLSearchParams([["", QUERY_KEY]]).toString().slice(1)} h=Basic ${BASIC}`);
    expect(text).not.toContain(BASIC);
    expect(text).toBe("q=*** h=Basic ***");
  });
});
