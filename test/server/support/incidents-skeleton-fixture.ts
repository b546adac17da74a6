/**
 * The generated contract suite's fixture for a generated incidents server skeleton: the reference
 * platform's fixture (same data, samples and provocations), with the platform served by the skeleton
 * (`$SKELETON_SERVER`, its server/server.ts) whose handlers delegate to the reference handlers.
 */
import { pathToFileURL } from "node:url";
import { INCIDENTS_FIXTURE } from "../../../examples/incidents/contract-fixture.js";
import { startIncidentsServer } from "../../../examples/incidents/server.js";
import { platformFixture } from "../../../examples/shared/contract-fixture.js";
import type { PlatformOptions, RunningPlatform } from "../../../examples/shared/host.js";
import type { ContractModel } from "../../../src/model/types.js";
import { useHandlers } from "./delegating-handlers.js";

type StartServer = (options: Record<string, unknown>) => Promise<{ url: string; port: number; host: { faults: RunningPlatform["faults"] }; close(drainMs?: number): Promise<number> }>;

async function serveBySkeleton(options: PlatformOptions): Promise<RunningPlatform> {
  const module = process.env["SKELETON_SERVER"];
  if (!module) throw new Error("SKELETON_SERVER names the generated server/server.ts");
  useHandlers(options.handlers);
  const { startServer } = (await import(pathToFileURL(module).href)) as { startServer: StartServer };
  const credentials = new Map(Object.entries(options.credentials ?? {}));
  const server = await startServer({ port: 0, database: options.db, token: options.token, credentials, ...(options.now ? { now: options.now } : {}) });
  return {
    url: server.url,
    port: server.port,
    model: options.spec as ContractModel,
    db: options.db,
    faults: server.host.faults,
    host: server.host as unknown as RunningPlatform["host"],
    defect: null,
    close: async () => void (await server.close()),
  };
}

export const fixture = platformFixture({ ...INCIDENTS_FIXTURE, start: (options) => startIncidentsServer({ ...options, serve: serveBySkeleton }) });
