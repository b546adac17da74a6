// The contract test suite's fixture for bookshelf: fill in the TODOs (generated once, never overwritten).
import type { Fixture, Input } from "./runtime/harness.js";

export const fixture: Fixture = {
  baseUrl: process.env.CONTRACT_BASE_URL ?? "http://127.0.0.1:4030/v1",

  async reset(): Promise<void> {
    // TODO bring the implementation back to a known state (restart it, truncate and seed its store…).
  },

  sampleInput(operation: string, variant = 0): Input | undefined {
    // TODO variant 0: parameters that succeed; variant 1: other parameters that also succeed.
    // Without the operation key, dry-run flag or confirm token: the suite adds those. undefined skips the checks.
    if (variant !== 0) return undefined;
    switch (operation) {
      case "list_books":
        return undefined; // TODO parameters that succeed from the reset state
      case "create_book":
        return undefined; // TODO parameters that succeed from the reset state
      case "get_book":
        return undefined; // TODO parameters that succeed from the reset state
      case "rename_book":
        return undefined; // TODO parameters that succeed from the reset state
      case "delete_book":
        return undefined; // TODO parameters that succeed from the reset state
      default:
        return undefined;
    }
  },

  // TODO optional: a snapshot of the state operations change; without it "no effect" cannot be checked.
  // async observe() { return …; },

  // TODO optional: parameters that make an operation fail with a declared error code from the reset state
  // (e.g. an unknown id for a not_found code); undefined skips that code.
  // errorInput(operation: string, code: string): Input | undefined { return undefined; },

  // TODO optional: a credential with every scope except `scope`; without it permission errors are not checked.
  // tokenWithout(scope: string): string | undefined { return undefined; },
  // TODO optional: other states for the completeness checks of lists and counts (see runtime/harness.ts).
  // async resetWith({ dataset }) { …; return true; }, // "empty" or "mixed" records
};
