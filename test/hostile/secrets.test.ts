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
      expect(r.stdout.length).toBeGreaterThan(0);
      expect(r.stdout).not.toContain(CANARY);
      expect(r.stderr).not.toContain(CANARY);
      expect(r.stdout + r.stderr).not.toContain(encodeURIComponent(CANARY).replace(/-/g, "%2D"));
      expect(journalBytes(journal).includes(CANARY)).toBe(false);
    });
  }

  it("still shows what the platform said, with the credential replaced", async () => {
    const r = await cli(["--base-url", url, "--journal", join(dir, "shown.sqlite"), "get-customer", "--customer-id", "cus_abc"]);
    const error = JSON.parse(r.stdout).error;
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
