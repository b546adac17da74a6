/**
 * The generated contract suites (generated-examples/<name>/tests/) run as a user runs them — vitest
 * with the package's tests/vitest.config.ts, in a child process — against the reference platforms:
 * they pass against each correct platform, and fail, naming the check, against seeded faults.
 */
import { describe, expect, it } from "vitest";
import { type Outcome, runSuite } from "./run-suite.js";

/** A generated suite runs in a child process (runSuite stops it after 180 s); on a loaded machine one takes over a minute. */
const SUITE_RUN_MS = 180_000;

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
      // Each reference fixture provides every member the checks ask for: nothing is skipped.
      expect(outcome.skipped).toEqual([]);
    }, SUITE_RUN_MS);
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
      "list_customers the traversal ends: the cursor advances, the last page's cursor is null, no page is empty after the first",
      "list_customers each filter value: every item matches it, the total counts exactly the filtered items",
      "get_customer error taxonomy CUSTOMER_NOT_FOUND (not_found) arrives as declared and changes nothing",
      "update_customer error taxonomy EMAIL_TAKEN (conflict) arrives as declared and changes nothing",
      "refund_invoice error taxonomy REFUND_EXCEEDS_BALANCE (conflict) arrives as declared and changes nothing",
      "refund_invoice error taxonomy INVALID_FIELD (invalid_input) arrives as declared and changes nothing",
      "create_customer error taxonomy TOKEN_INVALID (unauthenticated) arrives as declared and changes nothing",
      "create_customer error taxonomy RATE_LIMITED (rate_limited) arrives as declared and changes nothing",
      "create_customer error taxonomy UPSTREAM_TIMEOUT (transient) arrives as declared and changes nothing",
      "create_customer error taxonomy a credential without billing.customers:write is refused as permission and changes nothing",
      "refund_invoice error taxonomy a credential without billing.refunds:write is refused as permission and changes nothing",
      "create_customer a response lost after commit, retried from a second process: one effect, the recorded outcome",
      "refund_invoice a response lost after commit, retried from a second process: one effect, the recorded outcome",
      "create_customer a key is scoped to its operation: a key used on another operation executes this one anew",
      "refund_invoice a key is scoped to its operation: a key used on another operation executes this one anew",
      "refund_invoice not-found at execution too: executing against a missing object is refused as not found",
      "refund_invoice an execution changes exactly what its preview said",
      "update_customer a near expected_revision (a case variant, an integer one off) fails with REVISION_CONFLICT and changes nothing",
      "refund_invoice a near expected_refunded_cents (a case variant, an integer one off) fails with INVOICE_CHANGED and changes nothing",
      "update_customer record revisions advance on every mutation",
      "create_customer a key is kept 24h (its retention): a retry just before then replays the recorded outcome",
      "create_customer a transient refusal after commit: the retry under the same key replays the recorded outcome, one effect",
      "refund_invoice dry_run omitted (preview.default true): a preview, nothing executed, with or without a confirm token",
      "refund_invoice expected_refunded_cents re-checked at execution: the target moved between preview and confirm, the confirm fails with INVOICE_CHANGED",
      "refund_invoice a refusal a preview gives (REFUND_EXCEEDS_BALANCE) is given at execution too when the state changed after the preview",
      "refund_invoice a preview with a credential without billing.refunds:write is refused as permission, no token issued",
      "refund_invoice a key is kept 24h (its retention): a retry just before then replays the recorded outcome",
      "refund_invoice a transient refusal after commit: the retry under the same key replays the recorded outcome, one effect",
      ...["create_customer", "get_customer", "list_customers", "update_customer", "get_invoice", "refund_invoice"].map(
        (op) => `${op} adapter parity: the generated SDK, CLI and MCP server agree (sample call, unseeded identifier, forbidden input)`,
      ),
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
        `${list} the traversal ends: the cursor advances, the last page's cursor is null, no page is empty after the first`,
        // Every filter of both lists says what it means, so its meaning judges it.
        `${list} each filter's meaning: values from the data select exactly the records that satisfy it, totals agree`,
      ]) {
        expect(outcome.passed).toContain(name);
      }
    }
    // Only incidents has a count declaring the same filters as its list.
    expect(reference("incidents", "incidents").passed).toContain("count_incidents the answer agrees with the list declaring the same filters, for each filter value");
  });

  it("incidents: projection, reversibility and every domain error ran, an expired count continuation included; nothing is skipped", () => {
    const outcome = reference("incidents", "incidents");
    for (const name of [
      "list_incidents a selection returns only the selected and identity properties",
      "list_incidents no selection returns every property",
      "assign_incident doing, then undoing with assign_incident, restores the observed state",
      "assign_incident error taxonomy UNKNOWN_TEAM (invalid_input) arrives as declared and changes nothing",
      "assign_incident error taxonomy INCIDENT_RESOLVED (conflict) arrives as declared and changes nothing",
      "assign_incident error taxonomy INCIDENT_NOT_FOUND (not_found) arrives as declared and changes nothing",
      "list_incidents error taxonomy CURSOR_EXPIRED (not_found) arrives as declared and changes nothing",
      // An incomplete count (the fixture restarts the platform with a per-call bound) whose continuation expired.
      "count_incidents error taxonomy CURSOR_EXPIRED (not_found) arrives as declared and changes nothing",
      "assign_incident error taxonomy a credential without incidents:write is refused as permission and changes nothing",
      "assign_incident a near expected_revision (a case variant, an integer one off) fails with REVISION_CONFLICT and changes nothing",
      "assign_incident a near expected_owner (a case variant, an integer one off) fails with REVISION_CONFLICT and changes nothing",
      "assign_incident record revisions advance on every mutation",
    ]) {
      expect(outcome.passed).toContain(name);
    }
    expect(outcome.skipped).toEqual([]);
  });
});

describe("the reversibility check bites", () => {
  it("an undo that leaves the owner in place fails it, naming what was not restored", () => {
    const outcome = runSuite("incidents", "test/contract-suite/faulty-incidents-fixture.ts", { CONTRACT_FAULT: "sticky-owner" });
    const failing = "assign_incident doing, then undoing with assign_incident, restores the observed state";
    const caught = outcome.failed.find((f) => f.name === failing);
    expect(caught, `failed: ${outcome.failed.map((f) => f.name).join(", ")}`).toBeDefined();
    expect(outcome.failed.filter((f) => !f.name.startsWith("assign_incident"))).toEqual([]);
    expect(caught!.message).toMatch(/must undo it, but the target read with get_incident is not restored: \/owner/);
  }, SUITE_RUN_MS);
});

describe("a response lost after commit, retried from a second process", () => {
  it("fails against a platform that ignores the operation key: a second effect, no recorded outcome", () => {
    const lost = "a response lost after commit, retried from a second process: one effect, the recorded outcome";
    const outcome = runSuite("billing.v2", "examples/billing/contract-fixture.ts", { CONTRACT_DEFECT: "ignores-operation-key" }, ["-t", "lost after commit"]);
    expect(outcome.passed).toEqual([]);
    const failed = new Map(outcome.failed.map((f) => [f.name, f.message]));
    expect([...failed.keys()].sort()).toEqual([`create_customer ${lost}`, `refund_invoice ${lost}`]);
    // A new customer instead of the recorded one; a refund whose single-use token the lost call used.
    expect(failed.get(`create_customer ${lost}`)).toMatch(/retry from a second process under the same key must be answered from the record, with Idempotent-Replayed: true/);
    expect(failed.get(`refund_invoice ${lost}`)).toMatch(/expected the recorded outcome \(a retry from a second process after a lost response\)/);
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
      // Only the guarding check runs (the reference runs above show every other check passing on the same suite).
      const only = `^${failing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
      const outcome = runSuite("billing.v2", "test/contract-suite/faulty-billing-fixture.ts", { CONTRACT_FAULT: fault }, ["-t", only]);
      const caught = outcome.failed.find((f) => f.name === failing);
      expect(caught, `${failing} should fail; failed: ${outcome.failed.map((f) => f.name).join(", ")}`).toBeDefined();
      expect(caught!.message).toMatch(message);
    }, SUITE_RUN_MS);
  }
});
