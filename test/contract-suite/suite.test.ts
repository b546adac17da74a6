/**
 * The generated contract suites (generated-examples/<name>/tests/) run as a user runs them — vitest
 * with the package's tests/vitest.config.ts, in a child process — against the reference platforms:
 * they pass against each correct platform, and fail, naming the check, against seeded faults.
 */
import { describe, expect, it } from "vitest";
import { type Outcome, runSuite } from "./run-suite.js";

const referenceRuns = new Map<string, Outcome>();
/** One run per reference platform, shared by the tests that read it. */
function reference(example: string, platform: string): Outcome {
  let outcome = referenceRuns.get(example);
  if (!outcome) {
    outcome = runSuite(example, `examples/${platform}/contract-fixture.ts`);
    referenceRuns.set(example, outcome);
  }
  return outcome;
}

describe("generated contract suites pass against the reference platforms", () => {
  for (const [example, platform, min] of [
    ["billing.v2", "billing", 50],
    ["incidents", "incidents", 25],
    ["releases", "releases", 15],
  ] as const) {
    it(example, () => {
      const outcome = reference(example, platform);
      expect(outcome.failed).toEqual([]);
      expect(outcome.passed.length).toBeGreaterThanOrEqual(min);
    });
  }

  it("every kind of check ran on billing (none skipped)", () => {
    const outcome = reference("billing.v2", "billing");
    expect(outcome.skipped).toEqual([]);
    for (const name of [
      "create_customer schema conformance of a successful call",
      "refund_invoice negative inputs amount above maximum 500000",
      "list_customers negative inputs limit above maximum 100",
      "update_customer negative inputs an extra property",
      "refund_invoice a preview has no effect",
      "refund_invoice an execution without a confirm token is refused",
      "refund_invoice a token from a preview of other parameters is refused",
      "update_customer a stale expected_revision fails with REVISION_CONFLICT and changes nothing",
      "refund_invoice a stale expected_refunded_cents fails with INVOICE_CHANGED and changes nothing",
      "create_customer the same key twice: one effect, the first outcome replayed",
      "create_customer changed parameters under a used key are refused",
      "create_customer distinct keys with equal parameters: two effects",
      "create_customer concurrent calls under one key: one effect, one outcome",
      "refund_invoice concurrent calls under one key: one effect, one outcome",
      "refund_invoice a used single-use confirm token is refused",
      "refund_invoice an expired confirm token is refused",
      "list_customers multi-page traversal: totals match, last cursor null",
    ]) {
      expect(outcome.passed).toContain(name);
    }
  });

  it("the completeness checks ran on incidents and releases (none skipped)", () => {
    for (const [example, platform, list, count] of [
      ["incidents", "incidents", "list_incidents", "count_incidents"],
      ["releases", "releases", "list_releases", "count_stable_releases"],
    ] as const) {
      const outcome = reference(example, platform);
      for (const name of [
        `${list} the empty data set: one empty, final page`,
        `${list} the mixed data set: small pages give every record once, totals match`,
        `${list} a full page of a larger set carries a next cursor`,
        `${list} a degraded store: partial pages say so, a clean last page does not complete the traversal`,
        `${count} the empty data set: the task completes at once, nothing examined`,
        `${count} over the per-call bound: no early complete, continuations reach the full answer`,
      ]) {
        expect(outcome.passed).toContain(name);
      }
    }
  });
});

describe("the generated suite bites: each seeded fault fails the check that guards it", () => {
  const cases: Array<[fault: string, failing: string, message: RegExp]> = [
    ["early-end", "list_customers multi-page traversal: totals match, last cursor null", /received 2 items but the pages declare total_count 3/],
    ["undeclared-code", "refund_invoice an execution without a confirm token is refused", /undeclared error code/],
    ["drops-output-field", "get_customer schema conformance of a successful call", /does not match the declared output schema/],
    ["unmarked-replay", "create_customer the same key twice: one effect, the first outcome replayed", /Idempotent-Replayed/],
    ["ignores-key", "create_customer concurrent calls under one key: one effect, one outcome", /same outcome|one effect/],
    ["ignores-key", "create_customer the same key twice: one effect, the first outcome replayed", /replay/],
    ["accepts-expired-token", "refund_invoice an expired confirm token is refused", /expired confirm token must be refused/],
    ["invalid-input-without-field", "create_customer negative inputs missing required email", /must name the field email/],
  ];
  for (const [fault, failing, message] of cases) {
    it(`${fault}: ${failing}`, () => {
      const outcome = runSuite("billing.v2", "test/contract-suite/faulty-billing-fixture.ts", { CONTRACT_FAULT: fault });
      const caught = outcome.failed.find((f) => f.name === failing);
      expect(caught, `${failing} should fail; failed: ${outcome.failed.map((f) => f.name).join(", ")}`).toBeDefined();
      expect(caught!.message).toMatch(message);
    });
  }
});
