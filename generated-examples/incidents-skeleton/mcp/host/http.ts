/**
 * The HTTP front end of the contract host: routing and request decoding per the contract's HTTP
 * binding (http-binding.ts), execution by the transport-agnostic ContractHost (contract-host.ts),
 * and a graceful stop (../mcp-runtime/drain.ts, shared with the MCP server): no new call starts and
 * no received request is reset, running calls finish (each outcome recorded) up to a deadline.
 * The example platforms and generated server skeletons (`generate --server skeleton`) both serve through it.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { drainableServer } from "../runtime/drain.js";
import { apiKeyHeader, type HostContract, hostAuthKind } from "./contract.js";
import { ContractHost, type Credential, type Handlers, type HostResponse, newRequestId } from "./contract-host.js";
import { compileRoutes, decodeInput, matchRoute, parseMultipart } from "./http-binding.js";
import type { Database } from "./sqlite.js";
import { type HostStore, openHostStore } from "./store.js";

/** Largest request body accepted. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpServeOptions {
  /** Interface to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Where failures of the front end itself are reported (never with credentials). */
  readonly log?: (line: string) => void;
}

export interface RunningHttpHost {
  /** Base URL with the contract's base path (e.g. http://127.0.0.1:40123/v1); no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Requests being answered now. */
  inFlight(): number;
  /**
   * Stop without resetting a request that has reached the server (../mcp-runtime/drain.ts): a
   * request arriving from now on, including one still in the listening backlog, gets 503 UNAVAILABLE
   * with `Retry-After`; running calls finish (their answers say `Connection: close`) for up to
   * `drainMs` (default 0); then stop listening and drop every connection. Resolves with the number
   * of calls cut short at the deadline.
   */
  close(drainMs?: number): Promise<number>;
}

/** Serve `host` over HTTP/1.1 on `options.host` (default 127.0.0.1). */
export async function serveHttp(host: ContractHost, options: HttpServeOptions = {}): Promise<RunningHttpHost> {
  const model = host.model;
  const routes = compileRoutes<(typeof model.operations)[number]>(model.operations);
  const basePath = basePathOf(model.transport.baseUrl ?? "");
  const keyHeader = apiKeyHeader(model.transport.auth);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = headerOf(req, "x-request-id") ?? newRequestId();
    const [requestPath = "/", search = ""] = (req.url ?? "/").split(/\?(.*)/s);
    // Operations live under the base URL's path (e.g. /v1): anything outside it is no route.
    const rawPath = underBasePath(basePath, requestPath);
    const match = rawPath === null ? ({ kind: "not_found" } as const) : matchRoute(routes, req.method ?? "GET", rawPath);
    if (match.kind === "not_found") return send(res, requestId, host.rejectRequest("ROUTE_NOT_FOUND", `No operation of ${model.name} is served at ${requestPath}.`, requestId));
    if (match.kind === "method_not_allowed") {
      const allowed = match.allowed.join(", ");
      return send(res, requestId, host.rejectRequest("METHOD_NOT_ALLOWED", `${requestPath} takes ${allowed}.`, requestId, { Allow: allowed }));
    }
    const bytes = await readBody(req);
    if (bytes === null) return send(res, requestId, host.rejectRequest("PAYLOAD_TOO_LARGE", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`, requestId));
    const operation = match.route.operation;
    const contentType = headerOf(req, "content-type") ?? "";
    const multipart = /^multipart\/form-data\s*;/i.test(contentType) ? await parseMultipart(bytes, contentType) : undefined;
    const decoded = decodeInput(operation, {
      rawPathValues: match.rawPathValues,
      query: new URLSearchParams(search),
      rawQuery: search,
      header: (name) => headerOf(req, name),
      body: multipart === undefined ? bytes.toString("utf8") : "",
      ...(multipart !== undefined ? { parts: multipart } : {}),
    });
    const response = await host.invoke({
      operation,
      input: decoded.input,
      decodeProblems: decoded.problems,
      caller: host.authenticate(credentialOf(req, keyHeader)),
      requestId,
    });
    send(res, requestId, response);
  }

  const drainable = drainableServer(
    (req, res) =>
      serve(req, res).catch((error: unknown) => {
        log(`request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (!res.headersSent) send(res, "", host.rejectRequest("INTERNAL", "The platform failed unexpectedly.", newRequestId()));
        else res.destroy();
      }),
    // While stopping: the contract's UNAVAILABLE (drain.ts adds Retry-After and Connection: close).
    (req, res) => {
      const requestId = headerOf(req, "x-request-id") ?? newRequestId();
      send(res, requestId, host.rejectRequest("UNAVAILABLE", `${model.name} is stopping; retry (another replica may answer).`, requestId));
    },
  );
  const server = drainable.server;
  const port = await listen(server, options.port ?? 0, options.host ?? "127.0.0.1");
  const shownHost = (options.host ?? "127.0.0.1").includes(":") ? `[${options.host}]` : (options.host ?? "127.0.0.1");
  return {
    url: `http://${shownHost}:${port}${basePath}`,
    port,
    inFlight: drainable.inFlight,
    close: (drainMs = 0) => drainable.drain(drainMs),
  };
}

export interface HttpServerOptions extends HttpServeOptions {
  /**
   * Where the host keeps its records: a postgres:// URL that replicas share, a SQLite file,
   * ":memory:" (the default: nothing survives a restart), an open SQLite database or a store.
   */
  readonly database?: string | Database | HostStore;
  /** A token granting every scope, as the caller "default". */
  readonly token?: string;
  /** More accepted tokens, each with its caller identity and scopes. */
  readonly credentials?: ReadonlyMap<string, Credential>;
  /** The platform clock (tests move it to expire tokens and keys). */
  readonly now?: () => Date;
  /** How long a request waits for a concurrent request holding the same idempotency key (default 30 s). */
  readonly keyWaitMs?: number;
}

export interface RunningHttpServer extends RunningHttpHost {
  readonly host: ContractHost;
  readonly store: HostStore;
  /** The SQLite database handlers reach as ctx.db, or null on PostgreSQL. */
  readonly db: Database | null;
}

/**
 * A contract's HTTP server: the host running `handlers` with the contract's behaviour around them,
 * its records in the store `options.database` names (opened, and for PostgreSQL migrated, before
 * the first request is accepted, so a bad URL fails the start), served by serveHttp.
 */
export async function startHttpServer(contract: HostContract, handlers: Handlers, options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const credentials = new Map(options.credentials ?? []);
  if (options.token !== undefined) credentials.set(options.token, { caller: "default", scopes: ["*"] });
  if (hostAuthKind(contract.transport.auth) !== "none" && credentials.size === 0) {
    throw new Error(`${contract.name} requires credentials: give a token callers present.`);
  }
  const opened = openHostStore(options.database ?? ":memory:");
  try {
    const host = new ContractHost({
      model: contract,
      handlers,
      store: opened.store,
      credentials,
      ...(options.now ? { now: options.now } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.keyWaitMs !== undefined ? { keyWaitMs: options.keyWaitMs } : {}),
    });
    await opened.store.cursorSecret();
    const http = await serveHttp(host, options);
    return {
      ...http,
      host,
      store: opened.store,
      db: opened.db,
      close: async (drainMs) => {
        const cut = await http.close(drainMs);
        await opened.close();
        return cut;
      },
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** The path of a base URL without its trailing slash: "" for http://host:port, "/v1" for http://host:port/v1/. */
export function basePathOf(baseUrl: string): string {
  let path: string;
  try {
    path = new URL(baseUrl).pathname;
  } catch {
    return "";
  }
  return path.replace(/\/+$/, "");
}

/** The request path relative to the base path, or null when it lies outside it. */
function underBasePath(basePath: string, path: string): string | null {
  if (basePath === "") return path;
  if (path === basePath) return "/";
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : null;
}

function credentialOf(req: IncomingMessage, keyHeader: string | null): string | null {
  if (keyHeader !== null) return headerOf(req, keyHeader) ?? null;
  const header = headerOf(req, "authorization");
  const match = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The body's bytes, or null when it exceeds the limit. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, requestId: string, response: HostResponse): void {
  res.writeHead(response.status, {
    "Content-Type": "application/json; charset=utf-8",
    // A 204 carries neither a body nor Content-Length (RFC 9110 §8.6).
    ...(response.status === 204 ? {} : { "Content-Length": Buffer.byteLength(response.body) }),
    ...(requestId ? { "X-Request-Id": requestId } : {}),
    ...response.headers,
  });
  res.end(response.body);
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
