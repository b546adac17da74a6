/**
 * A static bearer over Streamable HTTP, as the official SDK client (1.32.x) meets it: a refused token
 * is reported as refused, and no OAuth flow starts. In MCP a 401 means "authorize with OAuth": the
 * SDK client, given an auth provider, answers any 401 with discovery and an authorization redirect,
 * whatever the WWW-Authenticate error says. So a wrong token gets 403 + error="invalid_token" (the SDK
 * reports that as the HTTP error it is) and the OAuth paths answer 404 with an OAuth error body
 * saying there is no OAuth here (src/mcp-runtime/http.ts). The generated server built from
 * generated-examples/ (test/e2e/global-setup), against the reference incidents platform; and the
 * MCP Inspector's CLI (the devDependency) against the built bin with --http.
 */
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { built, countingFetch, freshJournal, newClient, removeJournals, TOKEN } from "./support.js";
// @ts-expect-error: a plain ES module of the scripts, without type declarations
import { corpusPackage } from "../../scripts/corpora.mjs";

type RunningHttp = { url: string; close(): Promise<void> };
type HttpModule = { serveHttp(service: unknown, options?: Record<string, unknown>): Promise<RunningHttp> };
type ServerRuntime = { createMcpService(def: unknown, options?: Record<string, unknown>): unknown };
type ServerModule = { mcpDefinition(options?: Record<string, unknown>): unknown };

const BEARER = "bearer-static-9a4f-secret";

let incidents: RunningPlatform;
let server: RunningHttp & { requests: () => number; logged: string[] };
beforeAll(async () => {
  incidents = await startIncidentsServer({ token: TOKEN });
  const { serveHttp } = (await import(built("incidents", "mcp/runtime/http.js"))) as HttpModule;
  const { createMcpService } = (await import(built("incidents", "mcp/runtime/server.js"))) as ServerRuntime;
  const { mcpDefinition } = (await import(built("incidents", "mcp/server.js"))) as ServerModule;
  const counting = countingFetch();
  const logged: string[] = [];
  const def = mcpDefinition({ token: TOKEN, baseUrl: incidents.url, journal: freshJournal(), fetch: counting.fetch });
  const running = await serveHttp(createMcpService(def), { bearer: BEARER, log: (line: string) => logged.push(line) });
  server = { ...running, requests: counting.count, logged };
});
afterAll(async () => {
  await server?.close();
  await incidents.close();
  removeJournals();
});

/** Every request the client transport makes, by path (the MCP endpoint, or an OAuth discovery). */
function recordingFetch() {
  const paths: string[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  };
  return { fetchFn, paths, oauth: () => paths.filter((p) => p !== "/mcp") };
}

/** An OAuth client provider, as the Inspector or an OAuth-capable client has one, recording what the SDK asks of it. */
function stubProvider(accessToken: string | null, clientInformation: OAuthClientInformationMixed | undefined = undefined) {
  const calls: string[] = [];
  let info = clientInformation;
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return "http://127.0.0.1:1/callback";
    },
    get clientMetadata(): OAuthClientMetadata {
      return { client_name: "bearer-test", redirect_uris: ["http://127.0.0.1:1/callback"] };
    },
    clientInformation: () => info,
    saveClientInformation: (i) => {
      calls.push("saveClientInformation");
      info = i;
    },
    tokens: (): OAuthTokens | undefined => (accessToken === null ? undefined : { access_token: accessToken, token_type: "Bearer" }),
    saveTokens: () => void calls.push("saveTokens"),
    redirectToAuthorization: () => void calls.push("redirectToAuthorization"),
    saveCodeVerifier: () => void calls.push("saveCodeVerifier"),
    codeVerifier: () => "verifier",
    invalidateCredentials: () => void calls.push("invalidateCredentials"),
  };
  return { provider, calls };
}

async function connectWith(options: { headers?: Record<string, string>; provider?: OAuthClientProvider; fetchFn?: typeof fetch }): Promise<Client> {
  const client = newClient();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: options.headers ?? {} },
      ...(options.provider ? { authProvider: options.provider } : {}),
      ...(options.fetchFn ? { fetch: options.fetchFn } : {}),
    }),
  );
  return client;
}

/** The error connecting rejected with (it must reject). */
async function refusal(connecting: Promise<Client>): Promise<Error> {
  const outcome = await connecting.then(
    (c) => c,
    (e: unknown) => e as Error,
  );
  if (outcome instanceof Client) throw new Error("connected with a refused token");
  return outcome;
}

/** Nothing in what the client saw or the server logged carries the configured token. */
function expectNoCredential(...texts: string[]): void {
  for (const t of [...texts, ...server.logged]) {
    expect(t).not.toContain(BEARER);
    expect(t).not.toContain(TOKEN);
  }
}

describe("a static bearer and the official SDK client", () => {
  it("without an auth provider, a wrong token fails with the refusal named (403 invalid_token), nothing called", async () => {
    const before = server.requests();
    const rec = recordingFetch();
    const e = await refusal(connectWith({ headers: { authorization: "Bearer not-the-token" }, fetchFn: rec.fetchFn }));
    expect(e).toBeInstanceOf(StreamableHTTPError);
    expect((e as StreamableHTTPError).code).toBe(403);
    expect(e.message).toMatch(/bearer token was refused \(invalid_token\)/);
    expect(e.message).toMatch(/offers no OAuth/);
    expect(rec.oauth()).toEqual([]);
    expect(server.requests()).toBe(before);
    expectNoCredential(e.message);
  });

  it("with an auth provider whose token is wrong: the same refusal, no OAuth discovery, no redirect, nothing invalidated", async () => {
    const rec = recordingFetch();
    const { provider, calls } = stubProvider("not-the-token", { client_id: "pre-registered" });
    const e = await refusal(connectWith({ provider, fetchFn: rec.fetchFn }));
    expect((e as StreamableHTTPError).code).toBe(403);
    expect(e.message).toMatch(/bearer token was refused \(invalid_token\)/);
    expect(calls).toEqual([]);
    expect(rec.paths).toEqual(["/mcp"]);
    expectNoCredential(e.message);
  });

  it("with an auth provider and the wrong token in the request headers (as the Inspector's --header): the same", async () => {
    const rec = recordingFetch();
    const { provider, calls } = stubProvider(null, { client_id: "pre-registered" });
    const e = await refusal(connectWith({ provider, headers: { Authorization: `Bearer ${BEARER}-stale` }, fetchFn: rec.fetchFn }));
    expect((e as StreamableHTTPError).code).toBe(403);
    expect(e.message).toMatch(/invalid_token/);
    expect(calls).toEqual([]);
    expect(rec.oauth()).toEqual([]);
    expectNoCredential(e.message);
  });

  it("no token at all: 401 (a credential is required); a client that tries OAuth finds none and is told so, with no redirect", async () => {
    // Without a provider: the 401 and its message.
    const bare = await refusal(connectWith({}));
    expect((bare as StreamableHTTPError).code).toBe(401);
    expect(bare.message).toMatch(/no bearer token.*offers no OAuth/);
    // With a provider that has no client yet: discovery finds no metadata (404s), and the
    // registration it falls back to fails with the server's sentence before any redirect.
    const rec = recordingFetch();
    const { provider, calls } = stubProvider(null);
    const e = await refusal(connectWith({ provider, fetchFn: rec.fetchFn }));
    expect(e.message).toMatch(/offers no OAuth: it takes the static bearer token/);
    expect(calls).not.toContain("redirectToAuthorization");
    expect(calls).not.toContain("saveClientInformation");
    expect(rec.oauth()).toContain("/.well-known/oauth-protected-resource/mcp");
    expect(rec.oauth()).toContain("/register");
    expectNoCredential(bare.message, e.message);
  });

  it("the wire: 401 vs 403 headers, OAuth paths 404 with an OAuth error body, no token in any answer", async () => {
    const post = (headers: Record<string, string>) =>
      fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) });
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    for (const authorization of ["Bearer wrong", `Bearer ${BEARER}x`, BEARER, `Basic ${BEARER}`, "Bearer"]) {
      const res = await post({ authorization });
      expect(res.status, authorization.replace(BEARER, "<token>")).toBe(403);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="mcp", error="invalid_token", error_description="[^"]+"$/);
      const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
      expect(body.error.code).toBe(-32001);
      expect(body.error.message).toMatch(/refused \(invalid_token\)/);
      expectNoCredential(JSON.stringify(body), res.headers.get("www-authenticate") ?? "");
    }
    const origin = new URL(server.url).origin;
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration", "/register", "/authorize", "/token"]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ error: "invalid_request", error_description: expect.stringMatching(/offers no OAuth/) });
    }
  });

  it("the right token still works, through headers or a provider's tokens", async () => {
    const before = server.requests();
    const client = await connectWith({ headers: { authorization: `Bearer ${BEARER}` } });
    const r = (await client.callTool({ name: "get_incident", arguments: { incident_id: "INC-017" } })) as CallToolResult;
    expect(r.structuredContent).toMatchObject({ id: "INC-017" });
    await client.close();
    const { provider, calls } = stubProvider(BEARER);
    const viaProvider = await connectWith({ provider });
    expect((await viaProvider.listTools()).tools).toHaveLength(4);
    await viaProvider.close();
    expect(calls).toEqual([]);
    expect(server.requests()).toBe(before + 1);
  });
});

/** The Inspector's own bin, as npx would run it (no network). */
// Not in the repository's npm ci (it asks for Node 22): installed on first use into bench/corpora/inspector.
const INSPECTOR_PACKAGE: string = corpusPackage("inspector", "@modelcontextprotocol/inspector");
const INSPECTOR = join(INSPECTOR_PACKAGE, (JSON.parse(readFileSync(join(INSPECTOR_PACKAGE, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["mcp-inspector"]!);

describe("the MCP Inspector CLI against the built bin with --http and a bearer", () => {
  it("a wrong token is reported as refused (403, invalid_token), not as an OAuth flow; the right one lists the tools", async () => {
    const journal = freshJournal();
    const child = spawn(process.execPath, [built("incidents", "mcp/main.js"), "--http"], {
      env: { PATH: process.env.PATH ?? "", INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: incidents.url, INCIDENTS_JOURNAL: journal, INCIDENTS_MCP_BEARER: BEARER },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const exited = new Promise((r) => child.once("exit", r));
    try {
      let stderr = "";
      const url = await new Promise<string>((res, rej) => {
        child.stderr!.on("data", (d) => {
          stderr += String(d);
          const m = /serving MCP over Streamable HTTP at (\S+)/.exec(stderr);
          if (m) res(m[1]!);
        });
        child.once("exit", (code) => rej(new Error(`bin exited ${code}`)));
      });
      // No TTY here: an Inspector that started OAuth would stop at "Interactive OAuth requires a TTY".
      const inspect = (header: string) =>
        new Promise<{ code: number; out: string; stdout: string }>((res) =>
          execFile(process.execPath, [INSPECTOR, "--cli", "--transport", "http", "--server-url", url, "--header", header, "--method", "tools/list"], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: join(journal, "..") }, timeout: 60_000 }, (e, stdout, stderr) =>
            res({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}`, stdout }),
          ),
        );
      const wrong = await inspect("Authorization: Bearer not-the-token");
      expect(wrong.code).not.toBe(0);
      expect(wrong.out).toMatch(/bearer token was refused \(invalid_token\)/);
      expect(wrong.out).toMatch(/"status":\s*403/);
      expect(wrong.out).not.toMatch(/OAuth requires a TTY/);
      expectNoCredential(wrong.out);
      const right = await inspect(`Authorization: Bearer ${BEARER}`);
      expect(right.code, right.out.replaceAll(BEARER, "<token>")).toBe(0);
      expect((JSON.parse(right.stdout) as { tools: unknown[] }).tools).toHaveLength(4);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  });
});
