/**
 * Redirects and response limits of the SDK runtime, against real HTTP servers on two origins: no
 * credential of any scheme reaches another origin, a request that is not safe to repeat is never
 * sent again because of a redirect, a request that reached the platform is never reported as
 * "nothing was sent", and a response body larger than the limit (compressed or not) stops there.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ClientOptions, ContractClient, type ContractInfo, type OperationSpec, type Validator } from "../../src/runtime/client.js";
import { CLIENT_CODES, ContractError, UnknownOutcomeError } from "../../src/runtime/errors.js";

const ajv = new Ajv2020({ strict: false });
const compile = (schema: object): Validator => ajv.compile(schema);
const TOKEN = "sk_live_redirect-test-credential";
const EXTRA = "extra-header-secret-value";

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

type Reply = (path: string, method: string) => { status: number; headers?: Record<string, string>; body?: string | Buffer };

/** A server that records every request and answers with what `reply` says for its path. */
function host(name: string) {
  const seen: Seen[] = [];
  let reply: Reply = () => ({ status: 200, body: JSON.stringify({ id: name, name }) });
  let base = "";
  const srv: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", base).pathname;
      seen.push({ method: req.method ?? "", path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const r = reply(path, req.method ?? "");
      res.writeHead(r.status, { "content-type": "application/json", ...r.headers });
      res.end(r.body ?? JSON.stringify({ id: name, name }));
    });
  });
  return {
    seen,
    get base() {
      return base;
    },
    answer(r: Reply) {
      reply = r;
    },
    start: () => new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", () => ((base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`), resolve()))),
    stop: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

const platform = host("platform");
const foreign = host("foreign");
/** A port nothing listens on: a redirect there fails with ECONNREFUSED. */
let closedPort = 0;

beforeAll(async () => {
  await platform.start();
  await foreign.start();
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  await platform.stop();
  await foreign.stop();
});
beforeEach(() => {
  platform.seen.length = 0;
  foreign.seen.length = 0;
  platform.answer(() => ({ status: 200 }));
  foreign.answer(() => ({ status: 200 }));
});

const output = compile({ type: "object", required: ["id"], properties: { id: { type: "string" }, name: { type: "string" } } });
const base = { errors: [], preview: null, pagination: null, validateOutput: output, validatePreview: null } as const;

const getThing: OperationSpec = {
  ...base,
  id: "get_thing",
  method: "GET",
  path: "/things/{id}",
  bindings: [{ field: "id", in: "path", name: "id" }],
  mutating: false,
  idempotent: "natural",
  keyField: null,
  validateInput: compile({ type: "object", required: ["id"], properties: { id: { type: "string" } } }),
};

const createThing: OperationSpec = {
  ...base,
  id: "create_thing",
  method: "POST",
  path: "/things",
  bindings: [
    { field: "key", in: "header", name: "Idempotency-Key" },
    { field: "name", in: "body", name: "name" },
  ],
  mutating: true,
  idempotent: "key",
  keyField: "key",
  validateInput: compile({ type: "object", required: ["key", "name"], properties: { key: { type: "string" }, name: { type: "string" } } }),
};

const sendMessage: OperationSpec = {
  ...base,
  id: "send_message",
  method: "POST",
  path: "/messages",
  bindings: [{ field: "text", in: "body", name: "text" }],
  mutating: true,
  idempotent: "none",
  keyField: null,
  validateInput: compile({ type: "object", required: ["text"], properties: { text: { type: "string" } } }),
};

const AUTHS: ReadonlyArray<[string, ContractInfo["auth"], string]> = [
  ["bearer", { type: "bearer", tokenEnv: "REDIRECT_TEST_TOKEN_UNUSED" }, "authorization"],
  ["API key", { type: "apiKey", header: "X-Api-Key", tokenEnv: "REDIRECT_TEST_TOKEN_UNUSED" }, "x-api-key"],
  ["named API-key header", { type: "schemes", schemes: [{ name: "key", type: "apiKey", in: "header", param: "api_key", tokenEnv: "REDIRECT_TEST_TOKEN_UNUSED" }], require: [["key"]] }, "api_key"],
  ["API key in a cookie", { type: "schemes", schemes: [{ name: "session", type: "apiKey", in: "cookie", param: "sid", tokenEnv: "REDIRECT_TEST_TOKEN_UNUSED" }], require: [["session"]] }, "cookie"],
];

function client(auth: ContractInfo["auth"], options: ClientOptions = {}): ContractClient {
  const contract: ContractInfo = { name: "redirects", version: "1.0.0", baseUrl: platform.base, baseUrlEnv: null, timeoutMs: 5000, auth, taxonomy: {} };
  return new ContractClient(contract, { token: TOKEN, journal: false, retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2 }, headers: { "X-Extra-Credential": EXTRA }, ...options });
}

async function failure(p: Promise<unknown>): Promise<ContractError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ContractError) return e;
    throw e;
  }
  throw new Error("expected the call to fail");
}

/** Every header value a host received, joined: the credential must be in none of them. */
const headerText = (seen: readonly Seen[]) => seen.map((s) => JSON.stringify(s.headers)).join("\n");

describe("no credential reaches another origin", () => {
  for (const [scheme, auth, header] of AUTHS) {
    for (const status of [301, 302, 303, 307, 308]) {
      it(`${scheme}: a read answered ${status} to another origin is followed without the credential or extra headers`, async () => {
        platform.answer(() => ({ status, headers: { location: `${foreign.base}/elsewhere` } }));
        const result = await client(auth).call<{ id: string }>(getThing, { id: "t1" });
        expect(result.id).toBe("foreign");
        expect(platform.seen[0]!.headers[header]).toContain(TOKEN);
        expect(foreign.seen).toHaveLength(1);
        expect(headerText(foreign.seen)).not.toContain(TOKEN);
        expect(headerText(foreign.seen)).not.toContain(EXTRA);
        expect(foreign.seen[0]!.headers["x-request-id"]).toBe(platform.seen[0]!.headers["x-request-id"]);
      });
    }
    it(`${scheme}: a same-origin redirect keeps the credential`, async () => {
      platform.answer((path) => (path === "/things/t1" ? { status: 307, headers: { location: "/v2/things/t1" } } : { status: 200 }));
      await client(auth).call(getThing, { id: "t1" });
      expect(platform.seen.map((s) => s.path)).toEqual(["/things/t1", "/v2/things/t1"]);
      expect(platform.seen[1]!.headers[header]).toContain(TOKEN);
    });
    it(`${scheme}: a keyed mutation redirected (307) to another origin is not sent there`, async () => {
      platform.answer(() => ({ status: 307, headers: { location: `${foreign.base}/things` } }));
      const error = await failure(client(auth).call(createThing, { key: "k1", name: "n" }));
      expect(error.code).toBe(CLIENT_CODES.redirectRefused);
      expect(error.outcome).toBe("unknown");
      expect(foreign.seen).toHaveLength(0);
      expect(platform.seen).toHaveLength(1);
    });
  }
});

describe("a request that is not safe to repeat is never sent again by a redirect", () => {
  for (const status of [301, 302, 307, 308]) {
    it(`a non-idempotent POST answered ${status} reaches the platform once and is not reported as unsent`, async () => {
      platform.answer((path) => (path === "/messages" ? { status, headers: { location: "/messages-moved" } } : { status: 200 }));
      const error = await failure(client(AUTHS[0]![1]).call(sendMessage, { text: "hello" }));
      expect(platform.seen.map((s) => `${s.method} ${s.path}`)).toEqual(["POST /messages"]);
      expect(error.code).toBe(CLIENT_CODES.redirectRefused);
      expect(error.outcome).toBe("unknown");
      expect(error.message).not.toMatch(/nothing was sent/i);
      expect(error.message).toMatch(/not safe to send twice/);
    });
  }

  it("a non-idempotent POST answered 307 to a closed port is sent once, never retried, and its outcome is unknown", async () => {
    platform.answer(() => ({ status: 307, headers: { location: `http://127.0.0.1:${closedPort}/messages` } }));
    const error = await failure(client(AUTHS[0]![1]).call(sendMessage, { text: "hello" }));
    expect(platform.seen).toHaveLength(1);
    expect(error.outcome).toBe("unknown");
    expect(error.code).not.toBe(CLIENT_CODES.unreachable);
    expect(error.message).not.toMatch(/nothing was sent/i);
  });

  it("a keyed mutation may follow a same-origin 307: the body and key travel again, the platform dedupes by key", async () => {
    platform.answer((path) => (path === "/things" ? { status: 307, headers: { location: "/v2/things" } } : { status: 201, body: JSON.stringify({ id: "t9" }) }));
    const result = await client(AUTHS[0]![1]).call<{ id: string }>(createThing, { key: "k2", name: "n" });
    expect(result.id).toBe("t9");
    expect(platform.seen.map((s) => `${s.method} ${s.path} ${s.headers["idempotency-key"]} ${s.body}`)).toEqual(['POST /things k2 {"name":"n"}', 'POST /v2/things k2 {"name":"n"}']);
  });

  it("a 303 after a non-idempotent POST is read with a GET without body (the result lives there)", async () => {
    platform.answer((path) => (path === "/messages" ? { status: 303, headers: { location: "/messages/m1" } } : { status: 200, body: JSON.stringify({ id: "m1" }) }));
    const result = await client(AUTHS[0]![1]).call<{ id: string }>(sendMessage, { text: "hello" });
    expect(result.id).toBe("m1");
    expect(platform.seen.map((s) => `${s.method} ${s.path} ${s.body}`)).toEqual(['POST /messages {"text":"hello"}', "GET /messages/m1 "]);
    expect(platform.seen[1]!.headers["content-type"]).toBeUndefined();
  });

  it("a keyed mutation whose 303 target is a closed port: sent once, outcome unknown, retry with the same key", async () => {
    platform.answer(() => ({ status: 303, headers: { location: `http://127.0.0.1:${closedPort}/result` } }));
    const error = await failure(client(AUTHS[0]![1]).call(createThing, { key: "k3", name: "n" }));
    expect(error).toBeInstanceOf(UnknownOutcomeError);
    expect((error as UnknownOutcomeError).operationKey).toBe("k3");
    expect(platform.seen).toHaveLength(1);
    expect(error.message).not.toMatch(/nothing was sent/i);
  });

  it("a read redirected to a closed port says no response, not that nothing was sent", async () => {
    platform.answer(() => ({ status: 302, headers: { location: `http://127.0.0.1:${closedPort}/things/t1` } }));
    const error = await failure(client(AUTHS[0]![1], { retry: { maxAttempts: 1 } }).call(getThing, { id: "t1" }));
    expect(error.code).toBe(CLIENT_CODES.noResponse);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).not.toMatch(/nothing was sent/i);
  });
});

describe("redirects that are refused, each with its reason", () => {
  const cases: ReadonlyArray<[string, Reply, RegExp]> = [
    ["a loop", (path) => ({ status: 302, headers: { location: path === "/things/t1" ? "/b" : "/things/t1" } }), /redirect loop/],
    ["too many", (path) => ({ status: 302, headers: { location: `${path}x` } }), /more than 5 redirects/],
    ["a file: URL", () => ({ status: 307, headers: { location: "file:///etc/passwd" } }), /file: URL/],
    ["a data: URL", () => ({ status: 302, headers: { location: "data:application/json,{}" } }), /data: URL/],
    ["not a URL", () => ({ status: 302, headers: { location: "http://[::1" } }), /not a URL/],
  ];
  for (const [what, reply, message] of cases) {
    it(`${what}: CLIENT_REDIRECT_REFUSED, not retried`, async () => {
      platform.answer(reply);
      const error = await failure(client(AUTHS[0]![1]).call(getThing, { id: "t1" }));
      expect(error.code).toBe(CLIENT_CODES.redirectRefused);
      expect(error.message).toMatch(message);
      expect(error.errorClass).toBe("internal");
      expect(platform.seen.length).toBeLessThanOrEqual(6);
    });
  }

  it("maxRedirects: 0 follows none", async () => {
    platform.answer(() => ({ status: 302, headers: { location: "/b" } }));
    const error = await failure(client(AUTHS[0]![1], { maxRedirects: 0 }).call(getThing, { id: "t1" }));
    expect(error.message).toMatch(/more than 0 redirects/);
    expect(platform.seen).toHaveLength(1);
  });

  it("a 3xx without Location is an answer, not a redirect", async () => {
    platform.answer(() => ({ status: 304, body: "" }));
    const error = await failure(client(AUTHS[0]![1]).call(getThing, { id: "t1" }));
    expect(error.code).toBe(CLIENT_CODES.undeclaredCode);
  });
});

describe("response bodies are read up to a limit", () => {
  it("a body larger than maxResponseBytes is an invalid response (a mutation's outcome stays completed)", async () => {
    platform.answer(() => ({ status: 200, body: JSON.stringify({ id: "x".repeat(5000) }) }));
    const read = await failure(client(AUTHS[0]![1], { maxResponseBytes: 1000 }).call(getThing, { id: "t1" }));
    expect(read.code).toBe(CLIENT_CODES.badResponse);
    expect(read.message).toMatch(/larger than the limit of 1000 bytes/);
    const write = await failure(client(AUTHS[0]![1], { maxResponseBytes: 1000 }).call(createThing, { key: "k4", name: "n" }));
    expect(write.outcome).toBe("completed");
  });

  it("a gzip body that inflates past the limit stops at the limit", async () => {
    // 64 MiB of zeros in about 64 KiB of gzip.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    platform.answer(() => ({ status: 200, headers: { "content-encoding": "gzip" }, body: bomb }));
    const before = process.memoryUsage().arrayBuffers;
    const error = await failure(client(AUTHS[0]![1], { maxResponseBytes: 1024 * 1024 }).call(getThing, { id: "t1" }));
    expect(error.message).toMatch(/larger than the limit of 1048576 bytes/);
    // Well below the 64 MiB the body inflates to.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
  });

  it("out-of-range limits are refused before anything is sent", async () => {
    for (const options of [{ maxResponseBytes: 0 }, { maxRedirects: -1 }, { maxRedirects: 1.5 }]) {
      const error = await failure(client(AUTHS[0]![1], options).call(getThing, { id: "t1" }));
      expect(error.code).toBe(CLIENT_CODES.invalidOption);
    }
    expect(platform.seen).toHaveLength(0);
  });
});
