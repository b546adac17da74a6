/**
 * What the reference platforms' contract-test fixtures share: each case gets a fresh platform (a new
 * in-memory database, seeded), and "observe" reads the platform's own tables, so an effect anywhere
 * in the data shows up and nothing else (idempotency journal, issued tokens) does.
 */
import type { Fixture, Input } from "../../src/tests-runtime/harness.js";
import type { RunningPlatform } from "./host.js";

export const CONTRACT_TEST_TOKEN = "contract-suite-token";

export interface PlatformFixtureOptions {
  readonly start: (options: { token: string; now: () => Date }) => Promise<RunningPlatform>;
  /** The platform's own tables, compared in full by observe(). */
  readonly tables: readonly string[];
  readonly samples: (operation: string, variant: number) => Input | undefined;
}

export function platformFixture(options: PlatformFixtureOptions): Fixture {
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
      running = await options.start({ token: CONTRACT_TEST_TOKEN, now });
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
