/**
 * Bins whose reader goes away (`… | head`): contractgen itself, a generated CLI and a generated MCP
 * server. Each is spawned with its stdout pipe closed by the reader before it writes, so its first
 * write fails with EPIPE; it must end quietly, with the exit code of what it was doing, and never
 * print Node's stack trace for the unhandled `error` event.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";

const CONTRACTGEN = resolve("bin/contractgen.js");
const CLI = resolve("test-results/sdk/billing.v2/cli/main.js");
const MCP = resolve("test-results/sdk/billing.v2/mcp/main.js");
const TOKEN = "pipes-test-token";
const dir = mkdtempSync(join(tmpdir(), "contractgen-pipes-"));

interface Closed {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Run `node <bin> <args>` with its stdout closed by the reader at once; `stdin` is written after. */
function withReaderGone(bin: string, args: string[], env: Record<string, string> = {}, stdin?: string): Promise<Closed> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "", ...env } });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdin.on("error", () => {}); // the child may exit before reading it
    if (stdin !== undefined) child.stdin.write(stdin);
    else child.stdin.end();
    child.on("close", (code, signal) => done({ code, signal, stderr }));
  });
}

const quiet = (r: Closed) => {
  expect(r.stderr).not.toContain("EPIPE");
  expect(r.stderr).not.toContain("Unhandled 'error' event");
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  expect(r.signal).toBeNull();
};

describe("contractgen itself", () => {
  it.each([
    [["--help"], 0],
    [["completion", "bash"], 0],
    [["diff", "specs/billing.v1.yaml", "specs/billing.v2.yaml", "--format", "json"], 1],
  ])("%j ends quietly with its own exit code", async (args, code) => {
    const r = await withReaderGone(CONTRACTGEN, args, { HOME: dir });
    quiet(r);
    expect(r.code).toBe(code);
  });
});

describe("a generated CLI", () => {
  let billing: RunningPlatform;
  beforeAll(async () => {
    billing = await startBillingServer({ token: TOKEN });
  });
  afterAll(async () => {
    await billing?.close();
  });

  it("--help ends quietly, exit 0", async () => {
    const r = await withReaderGone(CLI, ["--help"]);
    quiet(r);
    expect(r.code).toBe(0);
  });

  it("a command's result ends quietly with the command's exit code", async () => {
    const r = await withReaderGone(CLI, ["--base-url", billing.url, "--journal", join(dir, "cli.sqlite"), "list-customers", "--all"], { BILLING_TOKEN: TOKEN });
    quiet(r);
    expect(r.code).toBe(0);
  });
});

describe("a generated MCP server", () => {
  it("--help ends quietly, exit 0", async () => {
    const r = await withReaderGone(MCP, ["--help"]);
    quiet(r);
    expect(r.code).toBe(0);
  });

  it("on stdio, a client that closed the server's stdout ends it quietly, exit 0", async () => {
    const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipes", version: "0" } } })}\n`;
    const r = await withReaderGone(MCP, [], { BILLING_TOKEN: TOKEN, BILLING_JOURNAL: join(dir, "mcp.sqlite") }, initialize);
    quiet(r);
    expect(r.code).toBe(0);
  });
});
