/**
 * Streamable HTTP transport of a generated MCP server, on node:http.
 *
 * Stateless: each POST gets a fresh low-level Server and transport (the SDK's stateless mode), while
 * the catalogue and the SDK client — hence the operation journal — are shared by the whole process.
 * The commonest request, one well-formed `tools/call` of a served tool, is answered directly with
 * the same JSON the transport would write (directToolCall), without building either.
 * The tools need nothing a session gives (no server-to-client requests, no notifications, no
 * resumable streams), and without sessions there is no session table to bound or expire and no
 * session id to steal. Responses are plain JSON (no SSE stream); GET and DELETE answer 405.
 *
 * Before the transport sees a request: the Host must be a loopback name when the server is bound to
 * loopback (DNS rebinding), an `Origin`, when present, must be a loopback origin or one allowed
 * explicitly (403), the path must be /mcp (404), and, when a bearer token is configured,
 * `Authorization: Bearer <token>` must match it, compared in constant time. The token is never
 * written anywhere.
 *
 * The token is static: this server is no OAuth protected resource, and its refusals are shaped so
 * that MCP clients say so instead of starting an OAuth flow. In MCP a 401 means "authorize with
 * OAuth": the official SDK client (1.32.x), given an auth provider, answers any 401 by discovery,
 * client registration and an authorization redirect, whatever the `WWW-Authenticate` error says
 * (the MCP Inspector then stops at "Interactive OAuth requires a TTY"). So:
 *   - no Authorization header: 401 with `WWW-Authenticate: Bearer realm="mcp"` (RFC 6750 §3: no
 *     error code when no credential was sent);
 *   - an Authorization header that does not carry the token: 403 with
 *     `WWW-Authenticate: Bearer realm="mcp", error="invalid_token", error_description="…"`, the
 *     refusal named in the JSON-RPC error body too. A 403 whose error is not `insufficient_scope`
 *     is reported by the SDK client as the HTTP error it is, with the body, and starts no OAuth;
 *   - the OAuth discovery and endpoint paths (RFC 9728 protected resource metadata, RFC 8414 /
 *     OpenID metadata, /register, /authorize, /token) answer 404 before any credential is asked
 *     for, with an OAuth error body saying there is no OAuth here: a client that does try OAuth
 *     after a 401 finds no metadata, and its registration fails with that sentence.
 *
 * The body is read here (bounded as the SDK bounds it) and handed to the transport parsed, so that
 * valid JSON that is not a JSON-RPC message is answered -32600 Invalid Request (the SDK transport
 * says -32700 Parse error, which JSON-RPC keeps for JSON that does not parse).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { type CallToolResult, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { drainableServer } from "./drain.js";
import { type JsonObject, type McpService, serverMembers } from "./server.js";

export interface HttpOptions {
  /** Address to bind; default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Port; default 0 (a free port, see the returned url). */
  readonly port?: number;
  /** Exact origins (`https://app.example.com`) allowed besides loopback ones. */
  readonly allowedOrigins?: readonly string[];
  /** Bearer token the endpoint requires (null or absent: none). */
  readonly bearer?: string | null;
  /** Where a request that could not be served is reported (one line, never a token or a stack). */
  readonly log?: (line: string) => void;
}

export interface RunningHttp {
  /** The endpoint, e.g. http://127.0.0.1:43121/mcp. */
  readonly url: string;
  /**
   * Stop without resetting a request that has reached the server (drain.ts): a request arriving from
   * now on, including one still in the listening backlog, gets 503 with `Retry-After`; running ones
   * finish (their answers say `Connection: close`) for up to `drainMs` (default 0) so each outcome is
   * recorded; then stop listening, end every connection and close the SDK client. Resolves to how
   * many requests were still running when the deadline cut them short.
   */
  close(drainMs?: number): Promise<number>;
}

/** The one path MCP is served on. */
export const MCP_PATH = "/mcp";

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** An Origin header the endpoint accepts: one listed exactly, or an http(s) origin on a loopback name. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file:) and anything else that is not an origin
  }
  return url.origin === origin && (url.protocol === "http:" || url.protocol === "https:") && isLoopbackHost(url.hostname);
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** Does the Authorization header carry exactly this bearer token? Constant time in the token's content. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(header ?? "");
  // Hashing first gives equal lengths, so timingSafeEqual reveals nothing about the token's length either.
  return timingSafeEqual(digest(m ? m[1]! : ""), digest(token)) && m !== null;
}

/** How a request's Authorization header stands against the configured token. */
export type BearerCheck = "accepted" | "missing" | "refused";

export function checkBearer(header: string | undefined, token: string): BearerCheck {
  if (bearerMatches(header, token)) return "accepted";
  return header === undefined || header.trim() === "" ? "missing" : "refused";
}

/** JSON-RPC error code of a request refused before it reached the protocol layer (implementation-defined range). */
export const REFUSED = -32000;
/** JSON-RPC error code of a request refused for its credentials (as several MCP servers use). */
export const UNAUTHORIZED = -32001;

/** A JSON-RPC error answer with no id (the request never reached the protocol layer). */
function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = REFUSED): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

const NO_OAUTH = "This MCP server offers no OAuth: it takes the static bearer token its operator configured, sent as Authorization: Bearer <token>.";
const MISSING = `Unauthorized: no bearer token. ${NO_OAUTH}`;
const REFUSED_TOKEN = "Forbidden: the bearer token was refused (invalid_token). Check the token the client sends: this MCP server takes the static token its operator configured and offers no OAuth.";

/** The refusals of a configured bearer (see the header comment for why a wrong token gets 403). */
function refuseCredential(res: ServerResponse, check: Exclude<BearerCheck, "accepted">): void {
  if (check === "missing") return refuse(res, 401, MISSING, { "www-authenticate": 'Bearer realm="mcp"' }, UNAUTHORIZED);
  refuse(res, 403, REFUSED_TOKEN, { "www-authenticate": 'Bearer realm="mcp", error="invalid_token", error_description="The bearer token was refused"' }, UNAUTHORIZED);
}

/**
 * The paths an OAuth client probes or calls on the MCP server's origin (RFC 9728 protected resource
 * metadata, path-aware or not; RFC 8414 and OpenID metadata; the legacy default endpoints).
 */
export function isOAuthPath(path: string): boolean {
  return /^\/\.well-known\/(?:oauth-protected-resource|oauth-authorization-server|openid-configuration)(?:\/|$)/.test(path) || /\/\.well-known\/openid-configuration$/.test(path) || ["/register", "/authorize", "/token"].includes(path);
}

/** 404 with an RFC 6749 error body, which an OAuth client reports as its message. */
function noOAuth(res: ServerResponse): void {
  res.writeHead(404, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify({ error: "invalid_request", error_description: NO_OAUTH }));
}

/** The SDK transport's default bound on a request body (4 MiB). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The request body as text, or null when it is over `max` bytes (declared or received). */
function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  if (Number(req.headers["content-length"]) > max) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off("data", onData);
        req.off("end", onEnd);
        req.pause();
        resolve(null);
      } else chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString("utf8"));
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", reject);
  });
}

/** What the SDK transport checks before it parses a POST (406 and 415 stay its answers). */
function acceptsJsonRpc(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? "";
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  return accept.includes("application/json") && accept.includes("text/event-stream") && type === "application/json";
}

/** Parsed JSON that is a JSON-RPC message or a non-empty batch of them. */
function isJsonRpc(value: unknown): boolean {
  const messages = Array.isArray(value) ? value : [value];
  return messages.length > 0 && messages.every((m) => JSONRPCMessageSchema.safeParse(m).success);
}

const plainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The request most calls are, answered without a protocol server and transport built for it: one
 * `tools/call` (no batch, no `_meta`, no task) with a JSON-RPC id, from a client that accepts what
 * the transport requires (JSON and event streams, a JSON body, a supported protocol version or
 * none). Null for anything else, which the SDK's transport answers, errors included.
 */
export function directToolCall(req: IncomingMessage, body: unknown): { id: string | number; name: string; args: JsonObject } | null {
  if (!acceptsJsonRpc(req)) return null;
  const version = req.headers["mcp-protocol-version"];
  if (version !== undefined && (typeof version !== "string" || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return null;
  if (!plainObject(body) || Object.keys(body).length !== 4 || body.jsonrpc !== "2.0" || body.method !== "tools/call") return null;
  const id = body.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return null;
  const params = body.params;
  if (!plainObject(params) || typeof params.name !== "string" || Object.keys(params).some((k) => k !== "name" && k !== "arguments")) return null;
  if (params.arguments !== undefined && !plainObject(params.arguments)) return null;
  return { id, name: params.name, args: (params.arguments ?? {}) as JsonObject };
}

/** The JSON-RPC answer of a direct tool call, as the transport writes one in JSON mode. */
async function answerToolCall(res: ServerResponse, id: string | number, run: () => Promise<CallToolResult>): Promise<void> {
  let body: string;
  try {
    body = JSON.stringify({ result: await run(), jsonrpc: "2.0", id });
  } catch (e) {
    // What the protocol layer answers for a handler that throws (the handlers here return failures as results).
    body = JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: e instanceof Error ? e.message : "Internal error" } });
  }
  res.writeHead(200, { "content-type": "application/json" });
  res.end(body);
}

/** Host header's name without the port (`[::1]:8080` → `[::1]`). */
function hostName(header: string | undefined): string {
  if (!header) return "";
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(header);
  return m ? m[1]! : "";
}

/** Serve `service` over Streamable HTTP until close(). Rejects when the address cannot be bound. */
export async function serveHttp(service: McpService, options: HttpOptions = {}): Promise<RunningHttp> {
  const host = options.host ?? "127.0.0.1";
  const allowed = options.allowedOrigins ?? [];
  const bearer = options.bearer ?? null;
  const log = options.log ?? (() => {});
  const loopbackOnly = isLoopbackHost(host);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (loopbackOnly && !isLoopbackHost(hostName(req.headers.host))) return refuse(res, 403, "Forbidden: Host is not a loopback name.");
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowed)) return refuse(res, 403, "Forbidden: Origin not allowed.");
    const path = (req.url ?? "").split("?")[0] ?? "";
    if (path !== MCP_PATH) return isOAuthPath(path) ? noOAuth(res) : refuse(res, 404, `Not found: MCP is served at ${MCP_PATH}.`);
    if (bearer !== null) {
      const check = checkBearer(req.headers.authorization, bearer);
      if (check !== "accepted") return refuseCredential(res, check);
    }
    if (req.method !== "POST") return refuse(res, 405, "Method not allowed: this server is stateless; POST JSON-RPC messages.", { allow: "POST" });

    const text = await readBody(req, MAX_BODY_BYTES);
    if (text === null) return refuse(res, 413, `Payload Too Large: a request body must not exceed ${MAX_BODY_BYTES} bytes.`, { connection: "close" });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined; // the transport reads the (spent) body as empty and answers -32700
    }
    // Most requests are one tool call: answered directly, without a protocol server and transport per
    // request (what made the HTTP hop cost 1.5–1.9× a bare relay); a tool that is not served is left
    // to the transport, which refuses it as every other path does.
    const direct = parsed !== undefined ? directToolCall(req, parsed) : null;
    const run = direct !== null ? service.toolCall(direct.name) : undefined;
    if (direct !== null && run !== undefined) return answerToolCall(res, direct.id, () => run(direct.args));
    if (parsed !== undefined && acceptsJsonRpc(req) && !isJsonRpc(parsed)) return refuse(res, 400, "Invalid Request: the body is JSON but not a JSON-RPC 2.0 message (or a non-empty batch of them).", {}, -32600);

    const server = serverMembers(service.newServer());
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsed);
  };

  // While stopping, a request gets this JSON-RPC refusal (drain.ts adds Retry-After and Connection: close).
  const drainable = drainableServer(
    (req, res) =>
      handle(req, res).catch((e: unknown) => {
        log(`request failed: ${e instanceof Error ? e.name : "error"}`);
        if (!res.headersSent) refuse(res, 500, "Internal error.");
        else res.end();
      }),
    (_req, res) => refuse(res, 503, "Service Unavailable: the server is shutting down; retry on another instance."),
  );
  const http = drainable.server;
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}${MCP_PATH}`,
    close: async (drainMs = 0) => {
      const cut = await drainable.drain(drainMs);
      service.close();
      return cut;
    },
  };
}
