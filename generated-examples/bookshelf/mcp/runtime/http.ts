/**
 * Streamable HTTP transport of a generated MCP server, on node:http.
 *
 * Stateless: each POST gets a fresh low-level Server and transport (the SDK's stateless mode), while
 * the catalogue and the SDK client — hence the operation journal — are shared by the whole process.
 * The tools need nothing a session gives (no server-to-client requests, no notifications, no
 * resumable streams), and without sessions there is no session table to bound or expire and no
 * session id to steal. Responses are plain JSON (no SSE stream); GET and DELETE answer 405.
 *
 * Before the transport sees a request: the Host must be a loopback name when the server is bound to
 * loopback (DNS rebinding), an `Origin`, when present, must be a loopback origin or one allowed
 * explicitly (403), and, when a bearer token is configured, `Authorization: Bearer <token>` must
 * match it, compared in constant time (401). The token is never written anywhere.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { type McpService, serverMembers } from "./server.js";

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
  /** Stop accepting connections, end open ones, and close the SDK client. */
  close(): Promise<void>;
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

/** A JSON-RPC error answer with no id (the request never reached the protocol layer). */
function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
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
    if (bearer !== null && !bearerMatches(req.headers.authorization, bearer)) return refuse(res, 401, "Unauthorized.", { "www-authenticate": 'Bearer realm="mcp"' });
    const path = (req.url ?? "").split("?")[0];
    if (path !== MCP_PATH) return refuse(res, 404, `Not found: MCP is served at ${MCP_PATH}.`);
    if (req.method !== "POST") return refuse(res, 405, "Method not allowed: this server is stateless; POST JSON-RPC messages.", { allow: "POST" });

    const server = serverMembers(service.newServer());
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(`request failed: ${e instanceof Error ? e.name : "error"}`);
      if (!res.headersSent) refuse(res, 500, "Internal error.");
      else res.end();
    });
  });
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
    close: async () => {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      service.close();
    },
  };
}
