/**
 * The HTTP server skeleton (`generate --server skeleton`): the contract's HTTP API served by the
 * contract host (copied as mcp/host/) running the handlers the platform team writes in
 * mcp/handlers/ — the same ones the skeleton MCP server runs, so one implementation answers both.
 * Files (regenerated): `server/server.ts` (startServer) and `server/main.ts` (the bin).
 */
import type { ContractModel } from "../../model/types.js";
import { serverBinName, serverDatabaseEnv, serverTokenEnv } from "../../model/naming.js";
import { generatedHeader, literal, literalBlock } from "../shared/literals.js";

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
  const info = {
    name: serverBinName(model.name),
    version: model.version,
    databaseEnv: serverDatabaseEnv(model.name),
    tokenEnv: needsToken(model) ? serverTokenEnv(model.name) : null,
  };
  return `#!/usr/bin/env node
${generatedHeader(model.name, model.version)}import { runHttpMain } from "../mcp/host/http-main.js";
import { startServer } from "./server.js";

await runHttpMain(${literalBlock(info, 0)}, startServer);
`;
}
