/**
 * Secret canary: a platform that echoes the request headers (the bearer token among them) into
 * error messages, error details and even a successful result. The generated CLI in every output
 * mode and the generated SDK with its journal must never let the credential out: not on stdout or
 * stderr, not in the journal file's bytes, not in an error object's message, stack or JSON.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CANARY = "cg-canary-7f3a9c1e5b2d4f60";
const dir = mkdtempSync(join(tmpdir(), "contractgen-secrets-"));
let server: Server;
let url: string;

function send(res: import("node:http").ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Echoes the credential back everywhere it can. */
function hostile(req: IncomingMessage, res: import("node:http").ServerResponse): void {
  const auth = String(req.headers.authorization ?? "");
  const token = auth.replace(/^Bearer /, "");
  const echo = { headers: req.headers, raw: token, nested: [{ Authorization: auth }, { cookie: `session=${token}` }], encoded: encodeURIComponent(token) };
  const path = req.url ?? "";
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    if (req.method === "POST" && path === "/customers") {
      const email = (JSON.parse(body) as { email: string }).email;
      if (email.startsWith("fail")) {
        return send(res, 409, { error: { code: "IDEMPOTENCY_KEY_REUSED", message: `key reused by ${auth}`, details: echo } });
      }
      return send(res, 201, { id: "cus_echo1", email, name: `echo ${auth}`, revision: 1, created_at: "2026-01-01T00:00:00Z" });
    }
    if (path.startsWith("/customers/")) return send(res, 400, { error: { code: "INVALID_FIELD", field: "customer_id", message: `bad request from ${auth}`, details: echo } });
    if (path.startsWith("/invoices/")) return send(res, 500, { error: { code: "NOT_IN_THE_CONTRACT", message: token, details: echo } });
    return send(res, 404, { echo });
  });
}

beforeAll(async () => {
  server = createServer(hostile);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

function journalBytes(path: string): Buffer {
  return Buffer.concat([path, `${path}-wal`, `${path}-journal`].filter((p) => existsSync(p)).map((p) => readFileSync(p)));
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const main = resolve("test-results/sdk/billing.v2/cli/main.js");
  return new Promise((done) => {
    execFile(process.execPath, [main, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", BILLING_TOKEN: CANARY } }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

describe("the credential never leaves through the CLI", () => {
  const commands: Array<[string, string[]]> = [
    ["a successful result that echoes the token", ["create-customer", "--email", "ok@example.com", "--name", "Echo"]],
    ["a rejected keyed mutation whose error echoes it", ["create-customer", "--email", "fail@example.com", "--name", "Echo"]],
    ["a declared error echoing headers in message and details", ["get-customer", "--customer-id", "cus_abc"]],
    ["an undeclared error whose whole body is echoed", ["get-invoice", "--invoice-id", "inv_1001"]],
  ];
  for (const output of ["json", "yaml", "table"]) {
    it.each(commands)(`--output ${output}: %s`, async (_what, args) => {
      const journal = join(dir, `cli-${output}-${args[0]}-${args[2]}.sqlite`);
      const r = await cli(["--base-url", url, "--journal", journal, "--output", output, ...args]);
      // A result on stdout, or an error on stderr (stdout then empty): something is always shown.
      expect((r.code === 0 ? r.stdout : r.stderr).length).toBeGreaterThan(0);
      if (r.code !== 0) expect(r.stdout).toBe("");
      expect(r.stdout).not.toContain(CANARY);
      expect(r.stderr).not.toContain(CANARY);
      expect(r.stdout + r.stderr).not.toContain(encodeURIComponent(CANARY).replace(/-/g, "%2D"));
      expect(journalBytes(journal).includes(CANARY)).toBe(false);
    });
  }

  it("still shows what the platform said, with the credential replaced", async () => {
    const r = await cli(["--base-url", url, "--journal", join(dir, "shown.sqlite"), "get-customer", "--customer-id", "cus_abc"]);
    expect(r.stdout).toBe("");
    const error = JSON.parse(r.stderr.split("\n", 1)[0]!).error;
    expect(error.message).toBe("bad request from Bearer [REDACTED]");
    expect(error.details.headers.authorization).toBe("[REDACTED]");
    expect(error.details.headers.host).toMatch(/^127\.0\.0\.1:/);
  });
});

describe("the credential never leaves through the SDK or its journal", () => {
  type Sdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");
  let sdk: Sdk;
  beforeAll(async () => {
    sdk = (await import(resolve("test-results/sdk/billing.v2/sdk/index.js"))) as Sdk;
  });

  it("results, errors (message, stack, JSON, details) and journal rows are redacted", async () => {
    const journal = join(dir, "sdk.sqlite");
    const client = new sdk.BillingClient({ baseUrl: url, token: CANARY, journal, retry: { maxAttempts: 1 } });
    const seen: unknown[] = [];
    try {
      seen.push(await client.createCustomer({ email: "ok@example.com", name: "Echo" }));
      for (const attempt of [
        () => client.createCustomer({ email: "fail@example.com", name: "Echo" }),
        () => client.getCustomer({ customer_id: "cus_abc" }),
        () => client.getInvoice({ invoice_id: "inv_1001" }),
      ]) {
        const error = await attempt().then(
          () => expect.unreachable(),
          (e: unknown) => e as Error & { toJSON(): unknown },
        );
        seen.push(error.message, error.stack, error.toJSON(), (error as { details?: unknown }).details);
      }
    } finally {
      client.close();
    }
    for (const value of seen) expect(JSON.stringify(value) ?? "").not.toContain(CANARY);
    expect(journalBytes(journal).includes(CANARY)).toBe(false);
  });
});

describe("the redactor", () => {
  it("replaces known values anywhere (keys, any depth, percent-encoded) and sensitive fields by name", async () => {
    const { Redactor, REDACTED } = await import("../../src/runtime/redact.js");
    const r = new Redactor(["s3cr3t/+"], ["X-Billing-Key"]);
    let deep: unknown = "s3cr3t/+";
    for (let i = 0; i < 100_000; i++) deep = [deep]; // no recursion on depth
    let out = r.value(deep, false);
    for (let i = 0; i < 100_000; i++) out = (out as unknown[])[0];
    expect(out).toBe(REDACTED);
    const value = JSON.parse('{"__proto__": {"a": "x s3cr3t%2F%2B y"}, "s3cr3t/+": 1, "Api_Key": "k", "x-billing-key": "h", "confirm_token": "keep"}');
    const byName = r.value(value, true) as Record<string, unknown>;
    expect(Object.getPrototypeOf(byName)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(byName))).toEqual({ ["__proto__"]: { a: `x ${REDACTED} y` }, [REDACTED]: 1, Api_Key: REDACTED, "x-billing-key": REDACTED, confirm_token: "keep" });
    expect((r.value(value, false) as Record<string, unknown>).Api_Key).toBe("k");
    expect(value["s3cr3t/+"]).toBe(1); // the input is not changed
  });
});

describe("a short credential never mangles output", () => {
  it("the redactor replaces a value too short to tell from text only where it is a whole string or key", async () => {
    const { Redactor, REDACTED } = await import("../../src/runtime/redact.js");
    const r = new Redactor(["n"]);
    const value = JSON.parse('{"id": "none_1", "status": "n", "n": "open", "items": [{"name": "ann"}, "n"], "note": "no credential: n"}');
    const out = r.value(value, true);
    expect(out).toEqual({ id: "none_1", status: REDACTED, [REDACTED]: "open", items: [{ name: "ann" }, REDACTED], note: "no credential: n" });
    expect(r.text("Invalid input for get_note: none_1 is not found.")).toBe("Invalid input for get_note: none_1 is not found.");
    expect(r.text("n")).toBe(REDACTED);
    // A long one is replaced inside strings (values and keys alike), never in the JSON written after.
    const secret = '","admin":true,"x":"';
    const long = new Redactor([secret]).value({ note: `a${secret}b`, [`k${secret}`]: 1, keep: '","' }, false);
    expect(JSON.parse(JSON.stringify(long))).toEqual({ note: `a${REDACTED}b`, [`k${REDACTED}`]: 1, keep: '","' });
  });

  type Sdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");
  it.each(["n", "1234567"])("the SDK refuses the credential %j (option or environment) before anything is sent", async (token) => {
    const sdk = (await import(resolve("test-results/sdk/billing.v2/sdk/index.js"))) as Sdk;
    let sent = 0;
    const fetch = async () => {
      sent++;
      return new Response("{}", { status: 500 });
    };
    const viaOption = new sdk.BillingClient({ baseUrl: url, token, journal: false, fetch, retry: { maxAttempts: 1 } });
    const saved = process.env.BILLING_TOKEN;
    process.env.BILLING_TOKEN = token;
    const viaEnv = new sdk.BillingClient({ baseUrl: url, journal: false, fetch, retry: { maxAttempts: 1 } });
    try {
      for (const [client, where] of [[viaOption, "`token`"], [viaEnv, "BILLING_TOKEN"]] as const) {
        const error = await client.getCustomer({ customer_id: "cus_abc" }).then(
          () => expect.unreachable(),
          (e: unknown) => e as Error & { code: string; errorClass: string; outcome: string },
        );
        expect(error).toMatchObject({ code: "CLIENT_CREDENTIAL_TOO_SHORT", errorClass: "unauthenticated", outcome: "rejected" });
        expect(error.message).toBe(`Credential refused (${where}): the credential is ${token.length} character${token.length === 1 ? "" : "s"} long; at least 8 are required, so that it can be redacted from output without mangling it. Nothing was sent.`);
      }
    } finally {
      if (saved === undefined) delete process.env.BILLING_TOKEN;
      else process.env.BILLING_TOKEN = saved;
      viaOption.close();
      viaEnv.close();
    }
    expect(sent).toBe(0);
  });

  it("the generated CLI reports a short credential as the SDK's error, exit 6, nothing sent", async () => {
    const main = resolve("test-results/sdk/billing.v2/cli/main.js");
    let requests = 0;
    const counter = createServer((_req, res) => {
      requests++;
      send(res, 200, {});
    });
    await new Promise<void>((r) => counter.listen(0, "127.0.0.1", r));
    try {
      const base = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(process.execPath, [main, "--base-url", base, "--journal", join(dir, "short.sqlite"), "get-customer", "--customer-id", "cus_n"], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", BILLING_TOKEN: "n" } }, (error, stdout, stderr) => {
          done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
        });
      });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe("");
      expect(JSON.parse(r.stderr.split("\n", 1)[0]!).error).toMatchObject({ code: "CLIENT_CREDENTIAL_TOO_SHORT", class: "unauthenticated" });
      expect(r.stderr).toContain("Credential refused (BILLING_TOKEN): the credential is 1 character long");
      expect(requests).toBe(0);
    } finally {
      counter.closeAllConnections();
      await new Promise<void>((r) => counter.close(() => r()));
    }
  });

  it.each([
    [["BILLING_TOKEN", "abc"], [] as string[], "BILLING_TOKEN: the credential is 3 characters long"],
    [["BILLING_MCP_BEARER", "x"], ["--http"], "BILLING_MCP_BEARER: the credential is 1 character long"],
  ])("the generated MCP server refuses %j at start-up with exit 2", async ([name, value], args, message) => {
    const main = resolve("test-results/sdk/billing.v2/mcp/main.js");
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      const child = execFile(process.execPath, [main, ...args], { encoding: "utf8", timeout: 30_000, env: { PATH: process.env.PATH ?? "", BILLING_JOURNAL: join(dir, "mcp.sqlite"), [name!]: value! } }, (error, stdout, stderr) => {
        done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
      });
      child.stdin?.end();
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`billing-mcp: ${message}`);
    expect(r.stdout).toBe("");
  });

  it("contractgen test refuses a short --token-env credential with its code", async () => {
    const r = await new Promise<{ code: number; stderr: string }>((done) => {
      execFile(process.execPath, [resolve("bin/contractgen.js"), "test", "specs/billing.v2.yaml", "--base-url", "http://127.0.0.1:1", "--token-env", "CONTRACTGEN_SHORT_TOKEN"], { encoding: "utf8", env: { ...process.env, CONTRACTGEN_SHORT_TOKEN: "t" } }, (error, _stdout, stderr) => {
        done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stderr });
      });
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error [test-token-too-short] CONTRACTGEN_SHORT_TOKEN: the credential is 1 character long");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
