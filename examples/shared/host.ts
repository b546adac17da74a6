/**
 * Serve a contract over HTTP on 127.0.0.1: routing and request decoding per the contract's HTTP
 * binding (http-binding.ts), execution by the transport-agnostic ContractHost (contract-host.ts).
 * This module is the public entry point of the shared host; example platforms import from here.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { ContractModel } from "../../src/model/types.js";
import { parseContract } from "../../src/spec/parse.js";
import { openContract } from "../../src/import/open.js";
import { ContractHost, type Credential, type Faults, type Handlers, type HostResponse, newRequestId } from "../../src/host-runtime/contract-host.js";
import { SEEDED_DEFECT_IDS, type SeededDefect, isSeededDefect } from "../../src/host-runtime/seeded-defects.js";
import { compileRoutes, decodeInput, matchRoute } from "./http-binding.js";
import type { Database } from "./sqlite.js";

export {
  type Caller,
  type Confirmation,
  ContractHost,
  type Credential,
  type Faults,
  type HandlerContext,
  type HandlerFunction,
  type Handlers,
  type HostResponse,
  type Invocation,
  type OperationHandler,
  type PartialPageFault,
  type StagedHandler,
  paramsHash,
} from "../../src/host-runtime/contract-host.js";
export { PlatformError, type PlatformErrorOptions, codeForClass } from "../../src/host-runtime/errors.js";
export { SEEDED_DEFECT_IDS, SEEDED_DEFECTS, type SeededDefect, isSeededDefect } from "../../src/host-runtime/seeded-defects.js";

export interface PlatformOptions {
  /** Path of the contract document, or an already parsed model. */
  readonly spec: string | ContractModel;
  readonly handlers: Handlers;
  readonly db: Database;
  /** A token granting every scope. */
  readonly token?: string;
  /** More tokens, each with its own caller identity and scopes (e.g. a read-only caller). */
  readonly credentials?: Readonly<Record<string, Credential>>;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly now?: () => Date;
  readonly faults?: Faults;
  /** How long a request waits for a concurrent request with the same idempotency key. */
  readonly keyWaitMs?: number;
  readonly log?: (line: string) => void;
  /** One defect to seed on purpose (SEEDED_DEFECTS), to prove a test suite notices it; absent = correct platform. */
  readonly defect?: SeededDefect;
}

export interface RunningPlatform {
  /** Base URL, e.g. http://127.0.0.1:40123, with the contract's base path (http://127.0.0.1:40123/v1); no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly model: ContractModel;
  readonly db: Database;
  /** The live fault switches (the object passed in, or a fresh one). */
  readonly faults: Faults;
  readonly host: ContractHost;
  /** The defect this platform was seeded with, or null. */
  readonly defect: SeededDefect | null;
  /** Stop listening and drop open connections. The database stays open. */
  close(): Promise<void>;
}

/** Largest request body accepted. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Parse a contract and fail loudly if it has errors. */
export function loadContract(path: string): ContractModel {
  const result = parseContract(path);
  if (!result.model) {
    const errors = result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.location.file}:${d.location.line}:${d.location.col} ${d.message}`);
    throw new Error(`${path} is not a valid contract:\n${errors.join("\n")}`);
  }
  return result.model;
}

/**
 * Import an OpenAPI document with overlays (applied in order) in memory, as every command reads one,
 * and fail loudly if the result has errors. A contract path (without overlays) is read too.
 */
export async function loadOpenApiContract(path: string, overlays: readonly string[] = []): Promise<ContractModel> {
  const result = await openContract(path, { overlays: [...overlays] });
  if (!result.model) {
    const errors = result.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.location.file}:${d.location.line}:${d.location.col} ${d.message}`);
    const given = overlays.length > 0 ? ` with overlays ${overlays.join(", ")}` : "";
    throw new Error(`${path}${given} does not give a valid contract:\n${errors.join("\n")}`);
  }
  return result.model;
}

export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  if (options.defect !== undefined && !isSeededDefect(options.defect)) {
    throw new Error(`${String(options.defect)} is not a seeded defect; use one of ${SEEDED_DEFECT_IDS.join(", ")}.`);
  }
  const model = typeof options.spec === "string" ? loadContract(options.spec) : options.spec;
  const credentials = new Map<string, Credential>(Object.entries(options.credentials ?? {}));
  if (options.token !== undefined) credentials.set(options.token, { caller: "default", scopes: ["*"] });
  if (model.transport.auth.form !== "none" && credentials.size === 0) {
    throw new Error(`${model.name} requires ${model.transport.auth.form} auth: give a token.`);
  }
  const host = new ContractHost({
    model,
    handlers: options.handlers,
    db: options.db,
    credentials,
    faults: options.faults ?? {},
    ...(options.now ? { now: options.now } : {}),
    ...(options.keyWaitMs !== undefined ? { keyWaitMs: options.keyWaitMs } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.defect ? { seededDefect: options.defect } : {}),
  });
  const routes = compileRoutes(model.operations);
  const basePath = basePathOf(model.transport.baseUrl);
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
    const body = await readBody(req);
    if (body === null) return send(res, requestId, host.rejectRequest("PAYLOAD_TOO_LARGE", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`, requestId));
    const operation = match.route.operation;
    const decoded = decodeInput(operation, {
      rawPathValues: match.rawPathValues,
      query: new URLSearchParams(search),
      header: (name) => headerOf(req, name),
      body,
    });
    const response = await host.invoke({
      operation,
      input: decoded.input,
      decodeProblems: decoded.problems,
      caller: host.authenticate(credentialOf(req, model)),
      requestId,
    });
    send(res, requestId, response);
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) send(res, "", host.rejectRequest("INTERNAL", "The platform failed unexpectedly.", newRequestId()));
      else res.destroy();
    });
  });
  const port = await listen(server, options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    port,
    model,
    db: options.db,
    faults: host.faults,
    host,
    defect: options.defect ?? null,
    close: () => stop(server),
  };
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

function credentialOf(req: IncomingMessage, model: ContractModel): string | null {
  const auth = model.transport.auth;
  const single = auth.form === "apiKey" ? auth.schemes[0] : undefined;
  if (single?.type === "apiKey") return headerOf(req, single.paramName) ?? null;
  const header = headerOf(req, "authorization");
  const match = header ? /^Bearer[ ]+(\S+)\s*$/i.exec(header) : null;
  return match?.[1] ?? null;
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The body as text, or null when it exceeds the limit. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
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

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Keep-alive connections would hold close() open until they time out.
    server.closeAllConnections();
  });
}
