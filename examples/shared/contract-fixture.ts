/**
 * What the reference platforms' contract-test fixtures share: each case gets a fresh platform (a new
 * in-memory database, seeded), and "observe" reads the platform's own tables, so an effect anywhere
 * in the data shows up and nothing else (idempotency journal, issued tokens) does.
 */
import type { Fixture, Input } from "../../src/tests-runtime/harness.js";
import { isSeededDefect, type RunningPlatform, type SeededDefect } from "./host.js";

export const CONTRACT_TEST_TOKEN = "contract-suite-token";

export interface PlatformFixtureOptions {
  readonly start: (options: { token: string; now: () => Date; defect?: SeededDefect }) => Promise<RunningPlatform>;
  /** The platform's own tables, compared in full by observe(). */
  readonly tables: readonly string[];
  readonly samples: (operation: string, variant: number) => Input | undefined;
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

export function platformFixture(options: PlatformFixtureOptions): Fixture {
  const defect = seededDefect();
  let running: RunningPlatform | undefined;
  // The platform's clock: real time plus what advanceTime added since the last reset.
  let offsetMs = 0;
  const now = (): Date => new Date(Date.now() + offsetMs);
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
      await running?.close();
      running = undefined;
      offsetMs = 0;
      running = await options.start({ token: CONTRACT_TEST_TOKEN, now, ...(defect ? { defect } : {}) });
    },
    async advanceTime(ms: number) {
      offsetMs += ms;
    },
    async stop() {
      await running?.close();
      running = undefined;
    },
    sampleInput: (operation, variant = 0) => options.samples(operation, variant),
    async observe() {
      const db = platform().db;
      return options.tables.map((t) => db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all());
    },
  };
}
