/**
 * The generated MCP server over Streamable HTTP (built from generated-examples/ by
 * test/e2e/global-setup), through a real MCP Client against the reference incidents platform:
 * loopback by default, Origin and Host checked, optional bearer token, and the built bin serving
 * `--http` as a child process that stops cleanly on SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { built, countingFetch, freshJournal, newClient, removeJournals, TOKEN } from "./support.js";

type RunningHttp = { url: string; close(): Promise<void> };
type HttpModule = { serveHttp(service: unknown, options?: Record<string, unknown>): Promise<RunningHttp> };
type ServerRuntime = { createMcpService(def: unknown, options?: Record<string, unknown>): unknown };
type ServerModule = { mcpDefinition(options?: Record<string, unknown>): unknown };

let incidents: RunningPlatform;
beforeAll(async () => {
  incidents = await startIncidentsServer({ token: TOKEN });
});
afterAll(async () => {
  await incidents.close();
  removeJournals();
});

/**
 * The incidents server over HTTP in this process; `requests()` counts what reached the platform,
 * `servers()` the protocol servers built (one per request the SDK's transport answers).
 */
async function serve(http: Record<string, unknown> = {}) {
  const { serveHttp } = (await import(built("incidents", "mcp/runtime/http.js"))) as HttpModule;
  const { createMcpService } = (await import(built("incidents", "mcp/runtime/server.js"))) as ServerRuntime;
  const { mcpDefinition } = (await import(built("incidents", "mcp/server.js"))) as ServerModule;
  const counting = countingFetch();
  const def = mcpDefinition({ token: TOKEN, baseUrl: incidents.url, journal: freshJournal(), fetch: counting.fetch });
  const service = createMcpService(def) as { newServer(): unknown };
  let built_ = 0;
  const counted = Object.assign(Object.create(service) as object, { newServer: () => (built_++, service.newServer()) });
  const running = await serveHttp(counted, http);
  return { ...running, requests: counting.count, servers: () => built_ };
}

async function connect(url: string, headers: Record<string, string> = {}) {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** One raw JSON-RPC POST, as a browser or a script would send it. */
function post(url: string, headers: Record<string, string>, body: unknown = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_incident", arguments: { incident_id: "INC-017" } } }) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

/** POST with a chosen Host header (fetch sets its own), for DNS-rebinding checks. */
function statusWithHost(url: string, host: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_incident", arguments: { incident_id: "INC-017" } } });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("Streamable HTTP, in process", () => {
  it("lists and calls tools through a real client; the result is the direct one", async () => {
    const server = await serve();
    try {
      const client = await connect(server.url);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["list_incidents", "count_incidents", "get_incident", "assign_incident"]);
      const r = (await client.callTool({ name: "list_incidents", arguments: { status: "open", severity: "P1", service: "checkout", environment: "production", fields: ["id"] } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { incidents: Array<{ id: string }> }).incidents.map((i) => i.id)).toEqual(["INC-017", "INC-088"]);
      expect(r._meta?.["contractgen/completeness"]).toMatchObject({ complete: true });
      await client.close();
      // Stateless: a second client (no session) works the same, and the SDK client is shared.
      const again = await connect(server.url);
      expect((await again.callTool({ name: "get_incident", arguments: { incident_id: "INC-017" } })).structuredContent).toMatchObject({ id: "INC-017" });
      await again.close();
      expect(server.requests()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("a plain tools/call is answered directly, as the SDK's transport answers the same call; anything else still goes through the transport", async () => {
    const running = await serve();
    try {
      const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_incident", arguments: { incident_id: "INC-017" } } };
      const direct = await post(running.url, {}, call);
      expect(direct.status).toBe(200);
      expect(direct.headers.get("content-type")).toBe("application/json");
      const directBody = (await direct.json()) as Record<string, any>;
      expect(running.servers()).toBe(0);
      // The same call with a `_meta` (which the direct path leaves to the transport): the same answer.
      const viaTransport = await post(running.url, {}, { ...call, params: { ...call.params, _meta: {} } });
      const transportBody = (await viaTransport.json()) as Record<string, any>;
      expect(running.servers()).toBe(1);
      expect(directBody).toEqual(transportBody);
      expect(directBody).toMatchObject({ jsonrpc: "2.0", id: 7, result: { structuredContent: { id: "INC-017" } } });
      // A failure is a result too: the same isError answer either way.
      const missing = { ...call, id: "m", params: { name: "get_incident", arguments: { incident_id: "INC-999" } } };
      const directFailure = (await (await post(running.url, {}, missing)).json()) as Record<string, any>;
      const transportFailure = (await (await post(running.url, {}, { ...missing, params: { ...missing.params, _meta: {} } })).json()) as Record<string, any>;
      expect(directFailure).toEqual(transportFailure);
      expect(directFailure.result.isError).toBe(true);
      // Left to the transport, and answered as before: a tool not served, a batch, an unsupported protocol version, a missing Accept.
      const before = running.servers();
      expect((await (await post(running.url, {}, { ...call, params: { name: "no_such_tool", arguments: {} } })).json()) as Record<string, any>).toMatchObject({ error: { code: -32602 } });
      expect((await post(running.url, {}, [call])).status).toBe(200);
      expect((await post(running.url, { "mcp-protocol-version": "1999-01-01" }, call)).status).toBe(400);
      expect((await post(running.url, { accept: "application/json" }, call)).status).toBe(406);
      expect(running.servers()).toBe(before + 4);
    } finally {
      await running.close();
    }
  });

  it("binds 127.0.0.1 by default: not reachable on the machine's other addresses", async () => {
    const server = await serve();
    try {
      const url = new URL(server.url);
      expect(url.hostname).toBe("127.0.0.1");
      expect(url.pathname).toBe("/mcp");
      const external = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === "IPv4" && !a.internal);
      if (external) await expect(fetch(`http://${external.address}:${url.port}/mcp`, { method: "POST" })).rejects.toThrow();
    } finally {
      await server.close();
    }
  });

  it("a foreign Origin gets 403 and nothing is called; loopback origins and no Origin are served", async () => {
    const server = await serve();
    try {
      for (const origin of ["http://evil.example", "null", "http://127.0.0.1.evil.example:8080", "https://localhost.evil.example"]) {
        const res = await post(server.url, { origin });
        expect(res.status, origin).toBe(403);
      }
      expect(server.requests()).toBe(0);
      // A DNS-rebinding request names a foreign Host on the loopback socket.
      expect(await statusWithHost(server.url, "evil.example")).toBe(403);
      expect(server.requests()).toBe(0);
      expect(await statusWithHost(server.url, `localhost:${new URL(server.url).port}`)).toBe(200);
      const local = await post(server.url, { origin: "http://localhost:5173" });
      expect(local.status).toBe(200);
      expect(((await local.json()) as { result: { structuredContent: unknown } }).result.structuredContent).toMatchObject({ id: "INC-017" });
      expect((await post(server.url, {})).status).toBe(200);
      expect(server.requests()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it("an origin allowed explicitly is served; only POST on /mcp", async () => {
    const server = await serve({ allowedOrigins: ["https://app.example.com"] });
    try {
      expect((await post(server.url, { origin: "https://app.example.com" })).status).toBe(200);
      expect((await post(server.url, { origin: "https://app.example.com:444" })).status).toBe(403);
      expect((await fetch(server.url, { headers: { accept: "text/event-stream" } })).status).toBe(405);
      expect((await post(server.url.replace(/\/mcp$/, "/other"), {})).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("JSON-RPC framing: invalid JSON -32700, JSON that is no JSON-RPC message -32600, over 4 MiB 413; 406/415 stay the transport's", async () => {
    const server = await serve();
    try {
      const raw = (body: string, headers: Record<string, string> = {}) =>
        fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });
      const codeOf = async (res: Response) => ((await res.json()) as { error?: { code: number } }).error?.code;
      const parse = await raw("{not json");
      expect([parse.status, await codeOf(parse)]).toEqual([400, -32700]);
      for (const body of ['{"hello":"world"}', "null", "[]", '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"id":2}]', '{"jsonrpc":"1.0","id":1,"method":"ping"}']) {
        const res = await raw(body);
        expect([res.status, await codeOf(res)], body).toEqual([400, -32600]);
      }
      const big = await raw(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(4 * 1024 * 1024) } }));
      expect(big.status).toBe(413);
      expect((await raw('{"hello":"world"}', { accept: "application/json" })).status).toBe(406);
      expect((await raw('{"hello":"world"}', { "content-type": "text/plain" })).status).toBe(415);
      const batch = await raw(JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", id: 2, method: "tools/list" }]));
      expect(batch.status).toBe(200);
      expect(((await batch.json()) as unknown[]).length).toBe(2);
      expect(server.requests()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("with a bearer token: missing ⇒ 401, wrong ⇒ 403 invalid_token (see bearer.test.ts), nothing called; the right one works", async () => {
    const bearer = "bearer-7d1e-secret";
    const server = await serve({ bearer });
    try {
      for (const headers of [{}, { authorization: "Bearer wrong" }, { authorization: `Bearer ${bearer}x` }, { authorization: bearer }, { authorization: `Basic ${bearer}` }] as Record<string, string>[]) {
        const res = await post(server.url, headers);
        expect(res.status, "authorization" in headers ? "a wrong credential" : "none").toBe("authorization" in headers ? 403 : 401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(await res.text()).not.toContain(bearer);
      }
      await expect(connect(server.url)).rejects.toThrow();
      expect(server.requests()).toBe(0);
      const client = await connect(server.url, { authorization: `Bearer ${bearer}` });
      const r = (await client.callTool({ name: "get_incident", arguments: { incident_id: "INC-017" } })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ id: "INC-017" });
      await client.close();
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  });
});

/** Start the built bin; resolves with the URL it prints on stderr. */
function startBin(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string; stderr: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [built("incidents", "mcp/main.js"), ...args], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  let stdout = "";
  child.stdout!.on("data", (d) => (stdout += String(d)));
  const exit = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (d) => {
      stderr += String(d);
      const m = /serving MCP over Streamable HTTP at (\S+)/.exec(stderr);
      if (m) resolve({ child, url: m[1]!, stderr: () => stderr + stdout, exit });
    });
    void exit.then((code) => reject(new Error(`bin exited ${code}: ${stderr}`)));
  });
}

describe("the built bin with --http", () => {
  it("serves on 127.0.0.1, requires the bearer from <CONTRACT>_MCP_BEARER without printing it, stops on SIGTERM with 0", async () => {
    const bearer = "bin-bearer-41c9-secret";
    const bin = await startBin(["--http"], { INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: incidents.url, INCIDENTS_JOURNAL: freshJournal(), INCIDENTS_MCP_BEARER: bearer });
    try {
      expect(new URL(bin.url).hostname).toBe("127.0.0.1");
      expect((await post(bin.url, {})).status).toBe(401);
      const client = await connect(bin.url, { authorization: `Bearer ${bearer}` });
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(4);
      const r = (await client.callTool({ name: "count_incidents", arguments: { status: "open", severity: "P1", service: "checkout", environment: "production" } })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ count: 2, complete: true });
      expect(JSON.stringify(r)).not.toContain(TOKEN);
      await client.close();
    } finally {
      bin.child.kill("SIGTERM");
    }
    expect(await bin.exit).toBe(0);
    expect(bin.stderr()).toContain("INCIDENTS_MCP_BEARER");
    expect(bin.stderr()).not.toContain(bearer);
    expect(bin.stderr()).not.toContain(TOKEN);
  });

  it("--port and the catalogue flags apply over HTTP", async () => {
    const bin = await startBin(["--http", "--port", "0", "--toolsets", "ownership", "--discovery"], { INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: incidents.url, INCIDENTS_JOURNAL: freshJournal() });
    try {
      const client = await connect(bin.url);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["search_tools", "describe_tool", "call_tool"]);
      const found = (await client.callTool({ name: "search_tools", arguments: {} })) as CallToolResult;
      expect((JSON.parse((found.content[0] as { text: string }).text) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual(["assign_incident"]);
      await client.close();
    } finally {
      bin.child.kill("SIGINT");
    }
    expect(await bin.exit).toBe(0);
  });
});

/** A platform in front of the reference one that holds each request until `release()` (or forever). */
async function heldPlatform(target: string) {
  const { createServer } = await import("node:http");
  const waiting: Array<() => void> = [];
  let arrived = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      arrived++;
      waiting.push(() => {
        void fetch(new URL(req.url ?? "/", target), { method: req.method, headers: req.headers as Record<string, string>, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }).then(async (r) => {
          res.writeHead(r.status, Object.fromEntries(r.headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        }).catch(() => res.destroy());
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    arrived: () => arrived,
    release: () => waiting.splice(0).forEach((go) => go()),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
};

describe("stopping the built bin (--http)", () => {
  it("SIGTERM with calls in flight: no new requests, every running call completes, exit 0", async () => {
    const held = await heldPlatform(incidents.url);
    const bin = await startBin(["--http", "--drain-timeout", "30"], { INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: held.url, INCIDENTS_JOURNAL: freshJournal() });
    try {
      const clients = await Promise.all(Array.from({ length: 5 }, () => connect(bin.url)));
      const calls = clients.flatMap((c) => ["INC-017", "INC-088"].map((id) => c.callTool({ name: "get_incident", arguments: { incident_id: id } }) as Promise<CallToolResult>));
      await until(() => held.arrived() === 10);
      bin.child.kill("SIGTERM");
      await until(() => bin.stderr().includes("SIGTERM: no new requests"));
      // A new request is refused while the running ones finish.
      // The server keeps listening while it drains: a new request gets 503 with Retry-After, never a reset.
      const late = await post(bin.url, {}).then((r) => [r.status, r.headers.get("retry-after")], (e: unknown) => String(e));
      expect(late).toEqual([503, "1"]);
      held.release();
      const results = await Promise.all(calls);
      expect(results.map((r) => r.isError ?? false)).toEqual(Array(10).fill(false));
      expect(results.map((r) => (r.structuredContent as { id: string }).id).sort()).toEqual([...Array(5).fill("INC-017"), ...Array(5).fill("INC-088")]);
      expect(await bin.exit).toBe(0);
      expect(bin.stderr()).not.toContain("cut short");
    } finally {
      bin.child.kill("SIGKILL");
      await held.close();
    }
  });

  it("a call still running at the drain deadline is cut short and said so; exit 1", async () => {
    const held = await heldPlatform(incidents.url);
    const bin = await startBin(["--http", "--drain-timeout", "0.2"], { INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: held.url, INCIDENTS_JOURNAL: freshJournal() });
    try {
      const client = await connect(bin.url);
      const call = client.callTool({ name: "get_incident", arguments: { incident_id: "INC-017" } }).then(() => "answered", () => "failed");
      await until(() => held.arrived() === 1);
      bin.child.kill("SIGTERM");
      expect(await bin.exit).toBe(1);
      expect(bin.stderr()).toMatch(/1 call\(s\) still running at the deadline were cut short: their outcome is unknown/);
      expect(await call).toBe("failed");
    } finally {
      bin.child.kill("SIGKILL");
      held.release();
      await held.close();
    }
  });
});
