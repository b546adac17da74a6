/**
 * What the three example platforms share beyond the host: opening and seeding their database and
 * starting the HTTP server on it.
 */
import { packagePath } from "../../src/package-root.js";
import type { ContractModel } from "../../src/model/types.js";
import type { Handlers } from "../../src/host-runtime/contract-host.js";
import { type PlatformOptions, type RunningPlatform, loadContract, startPlatform } from "./host.js";
import { type Database, openDatabase, seedOnce } from "./sqlite.js";

/** Options every example server takes: the platform's own, with a database path allowed. */
export interface ExampleServerOptions extends Omit<PlatformOptions, "spec" | "handlers" | "db"> {
  /** Database file, ":memory:" (the default), or an open database. */
  readonly db?: string | Database;
}

export interface ExamplePlatform {
  /** Contract path relative to the package root, e.g. specs/billing.v2.yaml. */
  readonly spec: string;
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

/** Open and seed the database, then serve the contract. close() also closes a database it opened. */
export async function startExample(platform: ExamplePlatform, options: ExampleServerOptions): Promise<RunningPlatform> {
  const ownsDatabase = typeof options.db !== "object";
  const db = typeof options.db === "object" ? options.db : openDatabase(options.db ?? ":memory:");
  try {
    db.exec(platform.schema);
    const model = exampleContract(platform.spec);
    seedOnce(db, model.name, platform.dataset, () => platform.seed(db));
    const running = await startPlatform({ ...options, spec: model, handlers: platform.handlers, db });
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
