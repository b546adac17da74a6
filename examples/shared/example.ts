/**
 * What the three example platforms share beyond the host: opening and seeding their database and
 * starting the HTTP server on it.
 */
import { readFileSync } from "node:fs";
import { isOpenApi } from "../../src/import/open.js";
import { packagePath } from "../../src/package-root.js";
import type { ContractModel } from "../../src/model/types.js";
import type { Handlers } from "../../src/host-runtime/contract-host.js";
import { type PlatformOptions, type RunningPlatform, loadContract, loadOpenApiContract, startPlatform } from "./host.js";
import { type Database, openDatabase, seedOnce } from "./sqlite.js";

/** Options every example server takes: the platform's own, with a database path allowed. */
export interface ExampleServerOptions extends Omit<PlatformOptions, "spec" | "handlers" | "db"> {
  /** Database file, ":memory:" (the default), or an open database. */
  readonly db?: string | Database;
  /**
   * What serves the seeded platform (default startPlatform). A test passes another front end, e.g. a
   * generated server skeleton whose handlers delegate to the example's, to run the same platform through it.
   */
  readonly serve?: (options: PlatformOptions) => Promise<RunningPlatform>;
}

export interface ExamplePlatform {
  /** Contract (or OpenAPI document) path relative to the package root, e.g. specs/billing.v2.yaml. */
  readonly spec: string;
  /** Overlays applied to an OpenAPI `spec`, in order, relative to the package root. */
  readonly overlays?: readonly string[];
  /** CREATE TABLE IF NOT EXISTS … statements of the platform's own tables. */
  readonly schema: string;
  /** Which data set to seed (stored, so a database file is never seeded twice or with two sets). */
  readonly dataset: string;
  readonly seed: (db: Database) => void;
  readonly handlers: Handlers;
}

const models = new Map<string, ContractModel>();

/** The parsed contract of an example, read once per process. */
export function exampleContract(spec: string): ContractModel {
  let model = models.get(spec);
  if (!model) {
    model = loadContract(packagePath(spec));
    models.set(spec, model);
  }
  return model;
}

const imported = new Map<string, Promise<ContractModel>>();

/**
 * The model of an example, read once per process: an OpenAPI document with its overlays is imported
 * in memory (asynchronously, as every command reads one); a contract without overlays is parsed as
 * exampleContract() does.
 */
export function loadExampleContract(spec: string, overlays: readonly string[] = []): Promise<ContractModel> {
  if (overlays.length === 0 && !isOpenApi(readFileSync(packagePath(spec)))) return Promise.resolve(exampleContract(spec));
  const key = JSON.stringify([spec, ...overlays]);
  let model = imported.get(key);
  if (!model) {
    model = loadOpenApiContract(packagePath(spec), overlays.map((o) => packagePath(o)));
    imported.set(key, model);
    // A failed import is not cached: the next caller sees the error anew.
    model.catch(() => imported.delete(key));
  }
  return model;
}

/** Open and seed the database, then serve the contract. close() also closes a database it opened. */
export async function startExample(platform: ExamplePlatform, options: ExampleServerOptions): Promise<RunningPlatform> {
  const model = await loadExampleContract(platform.spec, platform.overlays);
  const ownsDatabase = typeof options.db !== "object";
  const db = typeof options.db === "object" ? options.db : openDatabase(options.db ?? ":memory:");
  try {
    db.exec(platform.schema);
    seedOnce(db, model.name, platform.dataset, () => platform.seed(db));
    const { serve = startPlatform, ...platformOptions } = options;
    const running = await serve({ ...platformOptions, spec: model, handlers: platform.handlers, db });
    return {
      ...running,
      close: async () => {
        await running.close();
        if (ownsDatabase) db.close();
      },
    };
  } catch (error) {
    if (ownsDatabase) db.close();
    throw error;
  }
}
