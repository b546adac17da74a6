/**
 * The HTTP server skeleton (`generate --server skeleton`): the contract's HTTP API served by the
 * contract host (copied as mcp/host/) running the handlers the platform team writes in
 * mcp/handlers/ — the same ones the skeleton MCP server runs, so one implementation answers both.
 * Files (regenerated): `server/server.ts` (startServer) and `server/main.ts` (the bin).
 */
import type { ContractModel } from "../../model/types.js";
import { baseUrlEnvOf, serverBinName, serverDatabaseEnv, serverTokenEnv } from "../../model/naming.js";
import { generatedHeader, literal, literalBlock } from "../shared/literals.js";
import { FALLBACK_LISTEN } from "../../host-runtime/http-main.js";

/**
 * Where the generated server listens without --host and --port: the host and port of the contract's
 * base URL when it is an http URL on a loopback host (127.x.x.x, localhost, [::1]) with an explicit
 * port, so the package's CLI, SDK and tests, which default to that URL, reach it as generated; else
 * 127.0.0.1:8080 (a production base URL is not this machine, and a port below 1024 needs privileges).
 */
export function serverListenDefault(model: ContractModel): { readonly host: string; readonly port: number; readonly url: string; readonly fromBaseUrl: boolean } {
  let url: URL;
  try {
    url = new URL(model.transport.baseUrl);
  } catch {
    url = new URL(`http://${FALLBACK_LISTEN.host}:${FALLBACK_LISTEN.port}`);
  }
  // The server serves the contract's routes under the base URL's path, wherever it listens.
  const path = url.pathname.replace(/\/+$/, "");
  const host = url.hostname === "[::1]" ? "::1" : url.hostname;
  const loopback = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === "localhost" || host === "::1";
  if (url.protocol !== "http:" || !loopback || url.port === "") return { ...FALLBACK_LISTEN, url: `http://${FALLBACK_LISTEN.host}:${FALLBACK_LISTEN.port}${path}`, fromBaseUrl: false };
  return { host, port: Number(url.port), url: `http://${url.host}${path}`, fromBaseUrl: true };
}

/** Whether callers must present a credential to the server. */
function needsToken(model: ContractModel): boolean {
  const auth = model.transport.auth;
  return auth.form === "schemes" ? auth.require.length > 0 : auth.form !== "none";
}

/** `server/server.ts`: start the HTTP server with the contract and the handlers. */
export function emitHttpServer(model: ContractModel): string {
  const env = serverDatabaseEnv(model.name);
  return `${generatedHeader(model.name, model.version)}import { CONTRACT } from "../mcp/contract.js";
import { HANDLERS } from "../mcp/handlers.js";
import { type HttpServerOptions, type RunningHttpServer, startHttpServer } from "../mcp/host/http.js";

export type { HttpServerOptions, RunningHttpServer };

/**
 * Serve the contract's HTTP API: each request runs its handler in mcp/handlers/ through the contract
 * host, which keeps idempotency keys, recorded responses and confirm tokens in \`options.database\`
 * (a SQLite file or a postgres:// URL replicas share), else in ${env}, else in memory.
 */
export function startServer(options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  return startHttpServer(CONTRACT, HANDLERS, { database: process.env[${literal(env)}] || ":memory:", ...options });
}
`;
}

/** `server/main.ts`: the bin (`<contract>-server`). */
export function emitHttpServerMain(model: ContractModel): string {
  const listen = serverListenDefault(model);
  const info = {
    name: serverBinName(model.name),
    version: model.version,
    databaseEnv: serverDatabaseEnv(model.name),
    tokenEnv: needsToken(model) ? serverTokenEnv(model.name) : null,
    listen: { host: listen.host, port: listen.port },
    clients: { baseUrl: model.transport.baseUrl, baseUrlEnv: baseUrlEnvOf(model.name, model.transport.baseUrlEnv) },
  };
  return `#!/usr/bin/env node
${generatedHeader(model.name, model.version)}import { runHttpMain } from "../mcp/host/http-main.js";
import { startServer } from "./server.js";

await runHttpMain(${literalBlock(info, 0)}, startServer);
`;
}
