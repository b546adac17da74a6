/**
 * What the reference platforms' contract-test fixtures share: each case gets a fresh platform (a new
 * in-memory database, seeded), and "observe" reads the platform's own tables, so an effect anywhere
 * in the data shows up and nothing else (idempotency journal, issued tokens) does.
 */
import type { DataSet, Fixture, Input, ResetOptions } from "../../src/tests-runtime/harness.js";
import { isSeededDefect, type PartialPageFault, type RunningPlatform, type SeededDefect } from "./host.js";

export const CONTRACT_TEST_TOKEN = "contract-suite-token";

/** What a platform is started with; `dataset` and `countMaxExamined` only when the suite asks (resetWith). */
export interface PlatformStart<D extends string> {
  readonly token: string;
  readonly now: () => Date;
  readonly defect?: SeededDefect;
  readonly dataset?: D;
  readonly countMaxExamined?: number;
}

export interface PlatformFixtureOptions<D extends string = never> {
  readonly start: (options: PlatformStart<D>) => Promise<RunningPlatform>;
  /** The platform's own tables, compared in full by observe(). */
  readonly tables: readonly string[];
  readonly samples: (operation: string, variant: number) => Input | undefined;
  /** The platform's data set for each data set of the suite it can provide (the default one is always there). */
  readonly datasets?: Readonly<Partial<Record<Exclude<DataSet, "default">, D>>>;
  /** Whether the platform takes `countMaxExamined`, the per-call bound of its task operations. */
  readonly boundedTasks?: boolean;
  /**
   * The page error a failing register shard reports (a PageError of the contract). With it, degrade()
   * makes the first page of every traversal of an operation miss its last record and say so.
   */
  readonly shardFailure?: PartialPageFault["error"];
  /** What complete runs of task operations give on the default data set (Fixture.taskResult). */
  readonly taskResults?: Fixture["taskResult"];
}

/**
 * The defect seeded into every platform the fixture starts: `$CONTRACT_DEFECT` (one of
 * SEEDED_DEFECT_IDS), so a test can run the generated suite against a faulty platform.
 */
function seededDefect(): SeededDefect | undefined {
  const id = process.env["CONTRACT_DEFECT"];
  if (id === undefined || id === "") return undefined;
  if (!isSeededDefect(id)) throw new Error(`CONTRACT_DEFECT must be a seeded defect id, not ${JSON.stringify(id)}`);
  return id;
}

export function platformFixture<D extends string = never>(options: PlatformFixtureOptions<D>): Fixture {
  const defect = seededDefect();
  let running: RunningPlatform | undefined;
  // The platform's clock: real time plus what advanceTime added since the last reset.
  let offsetMs = 0;
  const now = (): Date => new Date(Date.now() + offsetMs);
  // A fresh platform (new in-memory database, no faults), started as `extra` says.
  const restart = async (extra: Pick<PlatformStart<D>, "dataset" | "countMaxExamined"> = {}): Promise<void> => {
    await running?.close();
    running = undefined;
    offsetMs = 0;
    running = await options.start({ token: CONTRACT_TEST_TOKEN, now, ...(defect ? { defect } : {}), ...extra });
  };
  const platform = (): RunningPlatform => {
    if (!running) throw new Error("the platform is not running: reset() starts it");
    return running;
  };
  return {
    get baseUrl() {
      return platform().url;
    },
    token: CONTRACT_TEST_TOKEN,
    async reset() {
      await restart();
    },
    async resetWith(state: ResetOptions) {
      const dataset = state.dataset === undefined || state.dataset === "default" ? undefined : options.datasets?.[state.dataset];
      if (state.dataset !== undefined && state.dataset !== "default" && dataset === undefined) return false;
      if (state.maxExaminedPerCall !== undefined && !options.boundedTasks) return false;
      await restart({ ...(dataset !== undefined ? { dataset } : {}), ...(state.maxExaminedPerCall !== undefined ? { countMaxExamined: state.maxExaminedPerCall } : {}) });
      return true;
    },
    async degrade(operation: string) {
      const pagination = platform().model.operations.find((op) => op.names.id === operation)?.pagination;
      // The platform's pages report a shard failure through their partial field (examples/shared/paging.ts).
      if (!options.shardFailure || !pagination || pagination.partialField === null) return false;
      const faults = platform().faults;
      faults.partialPages = [...(faults.partialPages ?? []), { operation, page: 1, missing: 1, error: options.shardFailure }];
      return true;
    },
    async advanceTime(ms: number) {
      offsetMs += ms;
    },
    async stop() {
      await running?.close();
      running = undefined;
    },
    sampleInput: (operation, variant = 0) => options.samples(operation, variant),
    ...(options.taskResults ? { taskResult: options.taskResults } : {}),
    async observe() {
      const db = platform().db;
      return options.tables.map((t) => db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all());
    },
  };
}
