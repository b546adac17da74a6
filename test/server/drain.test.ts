/**
 * Graceful drain under load, for both HTTP front ends of a generated skeleton package, each run as its
 * built bin and stopped by a real SIGTERM: the HTTP server skeleton (`server/`, host-runtime/http.ts)
 * and the MCP server over Streamable HTTP (`mcp/ --http`, mcp-runtime/http.ts; the adapter bin serves
 * through the same front end). The promise: every request that reached the server before the signal
 * gets its answer, or a 503 with Retry-After, never a reset connection.
 *
 * "Reached the server" includes connections the kernel has accepted but the process has not yet
 * taken from its backlog, which is where requests wait when a server is busy at the moment of the
 * signal. The process is paused (SIGSTOP) while the later requests are sent, so they are certainly
 * queued there when SIGTERM arrives (it is delivered on SIGCONT); without the pause the same failure
 * is a race (the rates before the fix are above the tests). Requests go through one keep-alive agent,
 * as from a load balancer's connection pool.
 *
 * The get_incident handler waits INCIDENTS_TEST_SLOW_MS per call; on SQLite the host runs calls one
 * at a time, so calls sent before the pause are still in flight at the signal (being answered,
 * waiting for their turn, or still in the backlog).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { Agent, request } from "node:http";
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { copyPackageData } from "../support/sdk-data.js";

const BIN = resolve("bin/contractgen.js");
const TSC = resolve("node_modules/typescript/bin/tsc");
const PKG = resolve("test-results/drain/incidents");
const TOKEN = "drain-test-token-0123456789abcdef";
const SLOW_MS = "20";

const SLOW_GET_INCIDENT = `import type { GetIncidentHandler } from "../handler-types.js";

// A call that takes a while, so that calls are still running when the server is told to stop.
export const handler: GetIncidentHandler = async (input) => {
  await new Promise((resolve) => setTimeout(resolve, Number(process.env["INCIDENTS_TEST_SLOW_MS"] ?? 0)));
  return { id: input.incident_id, title: "Slow incident", status: "open", severity: "P1", service: "checkout", environment: "production", owner: "checkout-oncall", evidence_ref: "ev-drain", opened_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z", revision: 1 };
};
`;

/** The two front ends: how to start each and how one of its requests and answers look. */
interface FrontEnd {
  readonly bin: string;
  readonly args: readonly string[];
  readonly serving: RegExp;
  /** The request for incident `id`: method, path under the printed URL, headers, body. */
  call(url: URL, id: string): { method: string; path: string; headers: Record<string, string>; body?: string };
  /** The incident id of a successful answer, or null when the body is not one. */
  answeredId(body: string): string | null;
  /** Is this 503 body the server's own refusal (its error format)? */
  isRefusal(body: string): boolean;
}

/** A body as JSON, or null when it is not JSON (then it is no answer the server promises either). */
function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const SERVER_SKELETON: FrontEnd = {
  bin: "dist/server/main.js",
  args: ["--port", "0", "--drain-timeout", "60"],
  serving: /serving at (\S+);/,
  call: (url, id) => ({ method: "GET", path: `${url.pathname.replace(/\/$/, "")}/incidents/${id}`, headers: { authorization: `Bearer ${TOKEN}` } }),
  answeredId: (body) => (json(body) as { id?: string } | null)?.id ?? null,
  isRefusal: (body) => (json(body) as { error?: { code?: string } } | null)?.error?.code === "UNAVAILABLE",
};

const MCP_HTTP: FrontEnd = {
  bin: "dist/mcp/main.js",
  args: ["--http", "--port", "0", "--drain-timeout", "60"],
  serving: /serving MCP over Streamable HTTP at (\S+)/,
  call: (url, id) => ({
    method: "POST",
    path: url.pathname,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "get_incident", arguments: { incident_id: id } } }),
  }),
  answeredId: (body) => {
    const message = json(body) as { id?: string; result?: { isError?: boolean; structuredContent?: { id?: string } } } | null;
    return message?.result && !message.result.isError && message.result.structuredContent?.id === message.id ? (message.id ?? null) : null;
  },
  isRefusal: (body) => {
    const message = json(body) as { jsonrpc?: string; error?: { code?: number; message?: string } } | null;
    return message?.jsonrpc === "2.0" && typeof message.error?.code === "number" && /shutting down/.test(message.error.message ?? "");
  },
};

interface Running {
  readonly child: ChildProcess;
  readonly url: URL;
  readonly exit: Promise<number | null>;
  stderr(): string;
}

const started: ChildProcess[] = [];

function start(frontEnd: FrontEnd): Promise<Running> {
  const child = spawn(process.execPath, [join(PKG, frontEnd.bin), ...frontEnd.args], {
    env: { PATH: process.env.PATH ?? "", INCIDENTS_SERVER_TOKEN: TOKEN, INCIDENTS_TEST_SLOW_MS: SLOW_MS },
    stdio: ["ignore", "ignore", "pipe"],
  });
  started.push(child);
  let stderr = "";
  const exit = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return new Promise((resolvePromise, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = frontEnd.serving.exec(stderr)?.[1];
      if (url) resolvePromise({ child, url: new URL(url), exit, stderr: () => stderr });
    });
    void exit.then((code) => reject(new Error(`the server exited (${code}) before serving:\n${stderr}`)));
  });
}

/** What became of one request: answered, refused as the drain promises, or anything else (named). */
type Outcome = "answered" | "refused" | string;

interface Sent {
  /** The request is written to the connection (so the kernel holds it, whatever the process does). */
  readonly written: Promise<void>;
  readonly outcome: Promise<Outcome>;
}

function send(frontEnd: FrontEnd, url: URL, agent: Agent, id: string): Sent {
  const { method, path, headers, body } = frontEnd.call(url, id);
  let written!: () => void;
  const sent = new Promise<void>((resolvePromise) => (written = resolvePromise));
  const outcome = new Promise<Outcome>((resolvePromise) => {
    const req = request({ host: url.hostname, port: url.port, agent, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("error", (e: NodeJS.ErrnoException) => resolvePromise(`response cut off: ${e.code ?? e.message}`));
      res.on("end", () => {
        if (res.statusCode === 200 && frontEnd.answeredId(text) === id) return resolvePromise("answered");
        if (res.statusCode === 503 && res.headers["retry-after"] !== undefined && res.headers.connection === "close" && frontEnd.isRefusal(text)) return resolvePromise("refused");
        resolvePromise(`HTTP ${res.statusCode} retry-after=${res.headers["retry-after"]} connection=${res.headers.connection}: ${text.slice(0, 200)}`);
      });
    });
    req.on("error", (e: NodeJS.ErrnoException) => {
      written(); // as far as it will get: the test goes on and reports the failure
      resolvePromise(`connection failed: ${e.code ?? e.message}`);
    });
    req.on("finish", () => written());
    req.end(body);
  });
  return { written: sent, outcome };
}

/** How many of each outcome, for a failure message that says what went wrong how often. */
function tally(outcomes: readonly Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const kind = o.startsWith("HTTP") ? o.slice(0, o.indexOf(":")) : o;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/**
 * `inFlight` calls are sent and the server starts answering them; the server is paused, `queued`
 * more are written to it, then SIGTERM and SIGCONT. Resolves with every outcome and the exit code.
 */
async function stopUnderLoad(frontEnd: FrontEnd, inFlight: number, queued: number) {
  const server = await start(frontEnd);
  const agent = new Agent({ keepAlive: true });
  try {
    const ids = Array.from({ length: inFlight + queued }, (_, i) => `INC-${String(100 + i)}`);
    const first = ids.slice(0, inFlight).map((id) => send(frontEnd, server.url, agent, id));
    // The server is answering: the first call is done and the others are in its hands or its backlog.
    if (first.length > 0) await Promise.race(first.map((s) => s.outcome));
    server.child.kill("SIGSTOP");
    const later = ids.slice(inFlight).map((id) => send(frontEnd, server.url, agent, id));
    await Promise.all([...first, ...later].map((s) => s.written));
    server.child.kill("SIGTERM");
    server.child.kill("SIGCONT");
    const outcomes = await Promise.all([...first, ...later].map((s) => s.outcome));
    return { outcomes, exitCode: await server.exit, stderr: server.stderr() };
  } finally {
    agent.destroy();
  }
}

/** The promise, checked: no request failed; each was answered or refused with 503 + Retry-After; a clean exit. */
function expectKeptItsWord(run: Awaited<ReturnType<typeof stopUnderLoad>>, total: number): void {
  expect(run.outcomes).toHaveLength(total);
  // Counted by kind (e.g. { "connection failed: ECONNRESET": 25 }), with the whole tally in the message.
  const broken = run.outcomes.filter((o) => o !== "answered" && o !== "refused");
  expect(tally(broken), JSON.stringify(tally(run.outcomes))).toEqual({});
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stderr).not.toContain("cut short");
}

beforeAll(() => {
  rmSync(PKG, { recursive: true, force: true });
  const generated = spawnSync(process.execPath, [BIN, "generate", "specs/incidents.yaml", "-o", PKG, "--server", "skeleton"], { encoding: "utf8" });
  expect(generated.status, generated.stderr).toBe(0);
  writeFileSync(join(PKG, "mcp/handlers/get-incident.ts"), SLOW_GET_INCIDENT);
  const built = spawnSync(process.execPath, [TSC, "-p", join(PKG, "tsconfig.json")], { encoding: "utf8" });
  expect(built.stdout + built.stderr).toBe("");
  copyPackageData(PKG, join(PKG, "dist"));
}, 120_000);

afterEach(async () => {
  // A failed test may leave a server paused or draining: SIGKILL ends either.
  for (const child of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((done) => child.once("exit", done));
      child.kill("SIGKILL");
      await gone;
    }
  }
});

afterAll(() => rmSync(PKG, { recursive: true, force: true }));

// Before the fix (6 runs of each, paused as here): every run failed. Without the pause (a probe
// sending the same requests, then SIGTERM), resets came in 3/5 runs at 50 and 2/5 at 200 for the
// skeleton server (20-26 and 10-41 reset), 4/5 and 1/5 for the MCP server (4-37 and 143).
describe.skipIf(process.platform === "win32")("SIGTERM under load: every request that reached the server is answered or refused with 503, none reset", () => {
  // before: 6/6 runs failed, 23/50 requests reset in each.
  it("the HTTP server skeleton, 50 requests: 25 sent while it answers, 25 while it is paused", async () => {
    expectKeptItsWord(await stopUnderLoad(SERVER_SKELETON, 25, 25), 50);
  });

  // before: 6/6 runs failed, 98-175/200 requests reset.
  it("the HTTP server skeleton, 200 requests: 100 sent while it answers, 100 while it is paused", async () => {
    expectKeptItsWord(await stopUnderLoad(SERVER_SKELETON, 100, 100), 200);
  });

  // before: 6/6 runs failed, 50/50 requests reset.
  it("the HTTP server skeleton, 50 requests sent while it is paused and nothing else runs", async () => {
    expectKeptItsWord(await stopUnderLoad(SERVER_SKELETON, 0, 50), 50);
  });

  // before: 6/6 runs failed, 27-37/50 requests reset.
  it("the MCP server over Streamable HTTP, 50 requests: 25 sent while it answers, 25 while it is paused", async () => {
    expectKeptItsWord(await stopUnderLoad(MCP_HTTP, 25, 25), 50);
  });

  // before: 6/6 runs failed, 119-181/200 requests reset.
  it("the MCP server over Streamable HTTP, 200 requests: 100 sent while it answers, 100 while it is paused", async () => {
    expectKeptItsWord(await stopUnderLoad(MCP_HTTP, 100, 100), 200);
  });

  // before: 6/6 runs failed, 50/50 requests reset.
  it("the MCP server over Streamable HTTP, 50 requests sent while it is paused and nothing else runs", async () => {
    expectKeptItsWord(await stopUnderLoad(MCP_HTTP, 0, 50), 50);
  });
});
