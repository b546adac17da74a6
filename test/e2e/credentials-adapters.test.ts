/**
 * The generated CLI and MCP server of a contract with several credential schemes
 * (generated-examples/petstore, built by test/e2e/global-setup) against a recording HTTP server:
 * both read the credentials from the contract's environment variables and the base URL from
 * `--base-url` or `PETSTORE_BASE_URL` (derived: the contract names no baseUrlEnv), and print none
 * of the credentials.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

const CLI = resolve("test-results/sdk/petstore/cli/main.js");
const MCP = resolve("test-results/sdk/petstore/mcp/main.js");

const CREDENTIALS = {
  PETSTORE_API_KEY: "hk_petstore_0123456789",
  PETSTORE_QUERY_KEY: "qk petstore/0123+456",
  PETSTORE_SESSION: "sess-petstore-0123456789",
  PETSTORE_USER: "petstore-user-0001",
  PETSTORE_PASSWORD: "petstore pass&word=1",
  PETSTORE_TOKEN: "bt_petstore_0123456789",
};
const BASIC = Buffer.from(`${CREDENTIALS.PETSTORE_USER}:${CREDENTIALS.PETSTORE_PASSWORD}`).toString("base64");
const FORMS = [...Object.values(CREDENTIALS), BASIC, encodeURIComponent(CREDENTIALS.PETSTORE_QUERY_KEY), encodeURIComponent(CREDENTIALS.PETSTORE_PASSWORD)];

interface Seen {
  readonly url: URL;
  readonly headers: IncomingHttpHeaders;
}
const seen: Seen[] = [];
let base = "";
const server: Server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", base);
  seen.push({ url, headers: req.headers });
  // Echo the credentials back, as a careless platform might: none may reach the output.
  const echo = `${url.search} ${JSON.stringify(req.headers)}`;
  const body = url.pathname.endsWith("/status") ? { open: true } : url.pathname.includes("/pets/") ? { id: "p1", name: echo } : { pets: [{ echo }], error: "last feeding missed" };
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
});
const dir = mkdtempSync(join(tmpdir(), "contractgen-credentials-e2e-"));

beforeAll(
  () =>
    new Promise<void>((done) =>
      server.listen(0, "127.0.0.1", () => {
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
        done();
      }),
    ),
);
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [CLI, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", PETSTORE_JOURNAL: join(dir, "journal.sqlite"), ...env } }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

const expectNoCredential = (text: string) => {
  for (const form of FORMS) expect(text).not.toContain(form);
};

describe("the generated CLI of a multi-scheme contract", () => {
  it("reads basic from its two variables and the base URL from PETSTORE_BASE_URL; prints no credential", async () => {
    const r = await cli(["get-pet", "--pet-id", "p1"], { PETSTORE_BASE_URL: base, PETSTORE_USER: CREDENTIALS.PETSTORE_USER, PETSTORE_PASSWORD: CREDENTIALS.PETSTORE_PASSWORD });
    expect(r.code).toBe(0);
    expect(seen[0]!.headers.authorization).toBe(`Basic ${BASIC}`);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: "p1" });
    expectNoCredential(r.stdout + r.stderr);
  });

  it("sends the query key and the cookie together, and an empty array with --tags '[]'", async () => {
    const r = await cli(["find-pets", "--tags", "[]"], { PETSTORE_BASE_URL: base, PETSTORE_QUERY_KEY: CREDENTIALS.PETSTORE_QUERY_KEY, PETSTORE_SESSION: CREDENTIALS.PETSTORE_SESSION });
    expect(r.code).toBe(0);
    expect(seen[0]!.url.searchParams.get("api-key")).toBe(CREDENTIALS.PETSTORE_QUERY_KEY);
    expect(seen[0]!.headers.cookie).toBe(`session_id=${CREDENTIALS.PETSTORE_SESSION}`);
    expectNoCredential(r.stdout + r.stderr);
  });

  it("a result with a top-level error property is printed on stdout as the result, exit 0", async () => {
    const r = await cli(["find-pets"], { PETSTORE_BASE_URL: base, PETSTORE_TOKEN: CREDENTIALS.PETSTORE_TOKEN });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: "last feeding missed" });
    expect(r.stderr).toBe("");
  });

  it("without any credential: nothing on stdout, the error JSON naming the variables on stderr, exit 6", async () => {
    const r = await cli(["get-pet", "--pet-id", "p1"], { PETSTORE_BASE_URL: base });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe("");
    const error = JSON.parse(r.stderr.split("\n", 1)[0]!).error;
    expect(error.code).toBe("CLIENT_MISSING_CREDENTIAL");
    expect(error.message).toContain("PETSTORE_API_KEY");
    expect(error.message).toContain("PETSTORE_USER and PETSTORE_PASSWORD");
    expect(seen).toHaveLength(0);
  });

  it("a public operation sends no credential; --base-url wins over the variable", async () => {
    const r = await cli(["--base-url", base, "store-status"], { PETSTORE_BASE_URL: "http://127.0.0.1:9/nowhere", ...CREDENTIALS });
    expect(r.code).toBe(0);
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers.api_key).toBeUndefined();
  });

  it("--help lists every credential variable and the base URL variable", async () => {
    const r = await cli(["--help"], {});
    for (const name of [...Object.keys(CREDENTIALS), "PETSTORE_BASE_URL"]) expect(r.stdout).toContain(name);
  });
});

/** Start the built MCP bin over HTTP; resolves with the URL it prints on stderr. */
function startBin(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string; output: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [MCP, "--http", ...args], { env: { PATH: process.env.PATH ?? "", PETSTORE_JOURNAL: join(dir, "mcp-journal.sqlite"), ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += String(d)));
  const exit = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return new Promise((done, fail) => {
    child.stderr!.on("data", (d) => {
      output += String(d);
      const m = /serving MCP over Streamable HTTP at (\S+)/.exec(output);
      if (m) done({ child, url: m[1]!, output: () => output, exit });
    });
    void exit.then((code) => fail(new Error(`bin exited ${code}: ${output}`)));
  });
}

async function callTool(url: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const client = new Client({ name: "credentials-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}

describe("the generated MCP server of a multi-scheme contract", () => {
  it("--base-url points the tools at the platform; credentials come from the variables and never reach a result", async () => {
    const bin = await startBin(["--base-url", base], { PETSTORE_API_KEY: CREDENTIALS.PETSTORE_API_KEY });
    try {
      const r = await callTool(bin.url, "get_pet", { pet_id: "p1" });
      expect(r.isError).toBeFalsy();
      expect(seen).toHaveLength(1);
      expect(seen[0]!.headers.api_key).toBe(CREDENTIALS.PETSTORE_API_KEY);
      expectNoCredential(JSON.stringify(r));
    } finally {
      bin.child.kill("SIGTERM");
    }
    expect(await bin.exit).toBe(0);
    expectNoCredential(bin.output());
  });

  it("PETSTORE_BASE_URL (derived from the contract name) is read when --base-url is not given", async () => {
    const bin = await startBin([], { PETSTORE_BASE_URL: base, PETSTORE_USER: CREDENTIALS.PETSTORE_USER, PETSTORE_PASSWORD: CREDENTIALS.PETSTORE_PASSWORD });
    try {
      const r = await callTool(bin.url, "get_pet", { pet_id: "p1" });
      expect(r.isError).toBeFalsy();
      expect(seen[0]!.headers.authorization).toBe(`Basic ${BASIC}`);
      expectNoCredential(JSON.stringify(r));
    } finally {
      bin.child.kill("SIGTERM");
    }
    expect(await bin.exit).toBe(0);
  });

  it("refuses an unusable --base-url and a credential too short to redact before serving (exit 2)", async () => {
    const run = (args: string[], env: Record<string, string>) =>
      new Promise<Run>((done) => execFile(process.execPath, [MCP, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", ...env } }, (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr })));
    const badUrl = await run(["--base-url", "ftp://example.com"], {});
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain("--base-url");
    const short = await run([], { PETSTORE_PASSWORD: "short" });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("PETSTORE_PASSWORD");
    expect(short.stderr).not.toContain("short\n");
    const help = await run(["--help"], {});
    for (const name of [...Object.keys(CREDENTIALS), "PETSTORE_BASE_URL", "--base-url"]) expect(help.stdout).toContain(name);
  });
});
