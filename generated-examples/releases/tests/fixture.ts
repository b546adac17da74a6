// The contract test suite's fixture for releases: fill in the TODOs (generated once, never overwritten).
import type { Fixture, Input } from "./runtime/harness.js";

export const fixture: Fixture = {
  baseUrl: process.env.CONTRACT_BASE_URL ?? "http://127.0.0.1:4030",
  // The credential the suite sends (bearer token).
  token: process.env.CONTRACT_TOKEN ?? process.env["RELEASES_TOKEN"],

  async reset(): Promise<void> {
    // TODO bring the implementation back to a known state (restart it, truncate and seed its store…).
  },

  sampleInput(operation: string, variant = 0): Input | undefined {
    // TODO variant 0: parameters that succeed; variant 1: other parameters that also succeed.
    // Without the operation key, dry-run flag or confirm token: the suite adds those. undefined skips the checks.
    if (variant !== 0) return undefined;
    switch (operation) {
      case "list_releases":
        return undefined; // TODO parameters that succeed from the reset state
      case "count_stable_releases":
        return undefined; // TODO parameters that succeed from the reset state
      case "get_release":
        return undefined; // TODO parameters that succeed from the reset state
      default:
        return undefined;
    }
  },

  // TODO optional: a snapshot of the state operations change; without it "no effect" cannot be checked.
  // async observe() { return …; },
  // TODO optional: other states for the completeness checks of lists and counts (see runtime/harness.ts).
  // async resetWith({ dataset, maxExaminedPerCall }) { …; return true; }, // "empty" or "mixed" records, a lower per-call bound
  // async degrade(operation) { …; return true; }, // a failing shard: its pages must say they are partial
};
