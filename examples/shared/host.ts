/**
 * Serve a contract over HTTP on 127.0.0.1 through the contract host's HTTP front end
 * (src/host-runtime/http.ts), as a generated server skeleton does, with the example platforms' extras:
 * faults, seeded defects, a model parsed from the contract file.
 * This module is the public entry point of the shared host; example platforms import from here.
 */
import type { ContractModel } from "../../src/model/types.js";
import { parseContract } from "../../src/contract/parse.js";
import { openContract } from "../../src/import/open.js";
import { ContractHost, type Credential, type Faults, type Handlers } from "../../src/host-runtime/contract-host.js";
import { serveHttp } from "../../src/host-runtime/http.js";
import { SEEDED_DEFECT_IDS, type SeededDefect, isSeededDefect } from "../../src/host-runtime/seeded-defects.js";
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
export { basePathOf } from "../../src/host-runtime/http.js";
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
  const http = await serveHttp(host, { port: options.port ?? 0, ...(options.log ? { log: options.log } : {}) });
  return {
    url: http.url,
    port: http.port,
    model,
    db: options.db,
    faults: host.faults,
    host,
    defect: options.defect ?? null,
    close: async () => void (await http.close()),
  };
}
