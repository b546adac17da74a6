/**
 * `contractgen test` against a hostile implementation: one operation per attack (echoing the
 * credential in bodies and error codes, redirecting it to another origin, endless and compressed
 * bodies, never answering, resetting, oversized headers, redirects to file: and in a loop). One run
 * of the suite covers them all; it must stay bounded, name each cause, keep the credential out of
 * every output and report, and never carry it to another origin.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import type { RunSummary } from "../../src/tests-runtime/report.js";

const TOKEN = "hx-9c41f0-credential/with+chars&<\"'";
const ENCODED = [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString("base64").replace(/=+$/, ""), JSON.stringify(TOKEN).slice(1, -1)];
const ATTACKS = ["echo", "echo_error", "redirect", "endless", "bomb", "hang", "reset", "big_headers", "file_redirect", "loop"] as const;

function contract(): string {
  const operations = ATTACKS.map((a) =>
    [
      `  get_${a}:`,
      "    summary: Read.",
      `    http: { method: GET, path: /${a.replace(/_/g, "-")} }`,
      "    effects: { kind: read }",
      "    input: { type: object, properties: { q: { type: string, maxLength: 5 } } }",
      "    output: { type: object, required: [id], properties: { id: { type: string } } }",
      "    errors: [BAD_INPUT, TOKEN_INVALID]",
    ].join("\n"),
  );
  return [
    "contract: hostile_server",
    "version: 1.0.0",
    "changelog:",
    "  - { version: 1.0.0, date: 2026-01-01 }",
    "transport:",
    '  http: { baseUrl: "http://127.0.0.1:1", timeout: 2s }',
    "  auth: { type: apiKey, header: X-Api-Key, tokenEnv: HOSTILE_SERVER_TOKEN }",
    "errors:",
    "  BAD_INPUT: { class: invalid_input, action: fix_field, http: 400 }",
    "  TOKEN_INVALID: { class: unauthenticated, action: reauthenticate, http: 401 }",
    "operations:",
    ...operations,
    "",
  ].join("\n");
}

interface Seen {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

const foreignSeen: Seen[] = [];
const hostileSeen: Seen[] = [];
const foreign = createServer((req, res) => {
  foreignSeen.push({ path: req.url ?? "", headers: req.headers });
  res.writeHead(200, { "content-type": "application/json" }).end('{"id":"foreign"}');
});
// 64 MiB of zeros: about 64 KiB on the wire.
const BOMB = gzipSync(Buffer.alloc(64 * 1024 * 1024));
let foreignUrl = "";
const hostile = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  hostileSeen.push({ path, headers: req.headers });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  switch (path) {
    case "/echo":
      return json(200, { id: TOKEN, pct: encodeURIComponent(TOKEN), b64: Buffer.from(TOKEN).toString("base64") }, { "x-echo": encodeURIComponent(TOKEN) });
    case "/echo-error":
      return json(400, { error: { code: TOKEN, message: `bad credential ${TOKEN}`, field: TOKEN } });
    case "/redirect":
      return res.writeHead(307, { location: `${foreignUrl}/landing` }).end();
    case "/endless": {
      res.writeHead(200, { "content-type": "application/json" });
      let sent = 0;
      const body = new Readable({
        read() {
          sent++;
          this.push(sent === 1 ? '{"id":"' : "x".repeat(64 * 1024));
        },
      });
      res.on("close", () => body.destroy());
      return void body.pipe(res);
    }
    case "/bomb":
      return res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(BOMB);
    case "/hang":
      return; // never answers
    case "/reset":
      return void req.socket.resetAndDestroy();
    case "/big-headers":
      return res.writeHead(200, { "content-type": "application/json", "x-padding": "p".repeat(40 * 1024) }).end('{"id":"h"}');
    case "/file-redirect":
      return res.writeHead(302, { location: "file:///etc/passwd" }).end();
    case "/loop":
      return res.writeHead(302, { location: "/loop-b" }).end();
    case "/loop-b":
      return res.writeHead(302, { location: "/loop" }).end();
    default:
      return json(404, { error: { code: "NOPE", message: "no" } });
  }
});

const dir = mkdtempSync(join(tmpdir(), "contractgen-hostile-server-"));
const reports = join(dir, "reports");
let result: { code: number; stdout: string; stderr: string };
let summary: RunSummary;

beforeAll(async () => {
  foreignUrl = await listen(foreign);
  const base = await listen(hostile);
  writeFileSync(join(dir, "hostile-server.yaml"), contract());
  writeFileSync(join(dir, "samples.yaml"), ATTACKS.map((a) => `get_${a}: [{ q: ab }]`).join("\n"));
  process.env.HOSTILE_SERVER_TOKEN = TOKEN;
  let stdout = "";
  let stderr = "";
  const args = ["test", join(dir, "hostile-server.yaml"), "--base-url", base, "--token-env", "HOSTILE_SERVER_TOKEN", "--samples", join(dir, "samples.yaml")];
  const limits = ["--report-dir", reports, "--request-timeout", "400ms", "--max-response-bytes", "1048576"];
  const code = await run([...args, ...limits], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
  result = { code, stdout, stderr };
  summary = JSON.parse(readFileSync(join(reports, "contract-summary.json"), "utf8")) as RunSummary;
}, 240_000);

afterAll(async () => {
  hostile.closeAllConnections();
  foreign.closeAllConnections();
  await new Promise<void>((r) => hostile.close(() => r()));
  await new Promise<void>((r) => foreign.close(() => r()));
  delete process.env.HOSTILE_SERVER_TOKEN;
  rmSync(dir, { recursive: true, force: true });
});

/** The failure messages of one operation's checks, joined. */
function failures(operation: string): string {
  return summary.checks
    .filter((c) => c.operation === operation && c.state === "failed")
    .map((c) => c.message ?? "")
    .join("\n");
}

describe("contractgen test against a hostile implementation", () => {
  it("finishes with contract violations found (exit 1) and reports every check", () => {
    expect(result.code, result.stderr.slice(-3000)).toBe(1);
    expect(summary.errors).toEqual([]);
    expect(new Set(summary.checks.map((c) => c.operation))).toEqual(new Set(ATTACKS.map((a) => `get_${a}`)));
  });

  it("never shows the credential it sent, however the server echoes it (stdout, stderr, every report)", () => {
    const outputs = [result.stdout, result.stderr, ...["contract-junit.xml", "contract-summary.md", "contract-summary.json"].map((f) => readFileSync(join(reports, f), "utf8"))];
    for (const text of outputs) for (const form of ENCODED) expect(text).not.toContain(form);
    // The echoes were there to mask.
    expect(failures("get_echo_error")).toContain("***");
  });

  it("never carries a credential to another origin; the suite's own requests do not go there at all", () => {
    expect(failures("get_redirect")).toMatch(/HTTP 307 redirect to another origin \(http:\/\/127\.0\.0\.1:\d+\), which is not followed/);
    // Only the SDK's parity calls follow a GET there, without the credential.
    expect(foreignSeen.length).toBeGreaterThan(0);
    for (const seen of foreignSeen) {
      expect(seen.headers["x-api-key"]).toBeUndefined();
      expect(JSON.stringify(seen.headers)).not.toContain(TOKEN);
    }
  });

  it("names the cause of each transport failure", () => {
    expect(failures("get_endless")).toMatch(/response body is larger than the limit of 1048576 bytes/);
    expect(failures("get_bomb")).toMatch(/response body is larger than the limit of 1048576 bytes/);
    expect(failures("get_hang")).toMatch(/timed out: no complete response within 400 ms/);
    expect(failures("get_reset")).toMatch(/connection (reset by the server|closed by the server)/);
    expect(failures("get_big_headers")).toMatch(/response headers too large/);
    expect(failures("get_file_redirect")).toMatch(/redirect to a file: URL/);
    expect(failures("get_loop")).toMatch(/redirect loop/);
    expect(summary.checks.some((c) => /fetch failed/.test(c.message ?? ""))).toBe(false);
  });

  it("stops sending to an operation that does not answer (not a timeout per check)", () => {
    const hung = hostileSeen.filter((s) => s.path === "/hang").length;
    expect(hung).toBeGreaterThan(0);
    expect(hung).toBeLessThanOrEqual(3);
    expect(failures("get_hang")).toMatch(/get_hang did not answer its last 2 requests/);
  });

  it("keeps stack traces out of its output", () => {
    expect(result.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    expect(result.stdout).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });
});
