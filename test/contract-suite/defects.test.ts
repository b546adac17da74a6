/**
 * The suite must bite: each generated contract suite runs against a reference platform with one
 * seeded defect (SEEDED_DEFECTS, `$CONTRACT_DEFECT` in the reference fixtures) and must fail, naming
 * a check. The score is written to test-results/contract-suite-score.{json,md}.
 *
 * KNOWN_GAPS are defects today's suite does not catch yet; their tests use `it.fails`, so they turn
 * red the day the suite catches them (then the entry goes).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { SEEDED_DEFECTS, SEEDED_DEFECT_IDS, type SeededDefect } from "../../examples/shared/host.js";
import { type Outcome, runSuite } from "./run-suite.js";

/** Where each defect shows: the example whose contract declares the behaviour it breaks. */
const PLATFORM: Readonly<Record<SeededDefect, readonly [example: string, platform: string]>> = {
  "ignores-operation-key": ["billing.v2", "billing"],
  "replays-changed-parameters": ["billing.v2", "billing"],
  "executes-without-confirm-token": ["billing.v2", "billing"],
  "accepts-expired-token": ["billing.v2", "billing"],
  "reuses-single-use-token": ["billing.v2", "billing"],
  "ignores-expected-revision": ["billing.v2", "billing"],
  "precondition-only-at-execution": ["billing.v2", "billing"],
  "ignores-invalid-input": ["billing.v2", "billing"],
  "undeclared-error-code": ["billing.v2", "billing"],
  "permission-as-transient": ["billing.v2", "billing"],
  "stops-pagination-early": ["billing.v2", "billing"],
  "miscounts-total": ["billing.v2", "billing"],
  "leaks-unprojected-field": ["incidents", "incidents"],
  "drops-partial": ["incidents", "incidents"],
  "count-stops-early": ["incidents", "incidents"],
  "empty-last-page-cursor": ["incidents", "incidents"],
  "cursor-restarts": ["incidents", "incidents"],
  "total-ignores-filter": ["incidents", "incidents"],
  "count-ignores-filter": ["incidents", "incidents"],
  "filter-value-fails": ["incidents", "incidents"],
  "key-shared-across-operations": ["billing.v2", "billing"],
  "delete-missing-succeeds": ["bookshelf", "bookshelf"],
  "execution-exceeds-preview": ["billing.v2", "billing"],
  // incidents' assign_incident has the only string expectation (expected_owner) of the reference contracts.
  "precondition-case-insensitive": ["incidents", "incidents"],
  "revision-not-bumped": ["billing.v2", "billing"],
  // The one reference platform whose error format has a code member (body style, /code); problem+json is
  // shown in error-format.test.ts (the reference host) and independent.test.ts (the inventory server).
  "code-member-by-status": ["bookshelf", "bookshelf"],
  // Stateful promises (issue 39).
  "deleted-book-still-readable": ["bookshelf", "bookshelf"],
  "deleted-book-still-listed": ["bookshelf", "bookshelf"],
  "dry-run-default-ignored": ["billing.v2", "billing"],
  "token-without-flag-executes": ["billing.v2", "billing"],
  "precondition-not-rechecked-at-execution": ["billing.v2", "billing"],
  "balance-checked-at-preview-only": ["billing.v2", "billing"],
  "forgets-keys-early": ["billing.v2", "billing"],
  "preview-skips-scopes": ["billing.v2", "billing"],
  "transient-after-commit-not-replayed": ["billing.v2", "billing"],
  "transient-after-commit-executes-again": ["billing.v2", "billing"],
  // Filters that say what they mean (issue 39).
  "prefix-ignores-case": ["releases", "releases"],
  "prefix-matches-substring": ["releases", "releases"],
  "range-bound-inclusive": ["incidents", "incidents"],
  "count-range-inclusive": ["incidents", "incidents"],
};

/**
 * The check (the start of its full name) meant to catch each defect. Only that check runs against the
 * defect: it must fail there, so a defect caught by luck elsewhere does not hide a check gone blind.
 */
const CAUGHT_BY: Readonly<Record<SeededDefect, string>> = {
  "ignores-operation-key": "create_customer the same key twice: one effect, the first outcome replayed",
  "replays-changed-parameters": "create_customer changed parameters under a used key are refused",
  "executes-without-confirm-token": "refund_invoice an execution without a confirm token is refused",
  "accepts-expired-token": "refund_invoice an expired confirm token is refused",
  "reuses-single-use-token": "refund_invoice a used single-use confirm token is refused",
  "ignores-expected-revision": "update_customer a stale expected_revision fails with REVISION_CONFLICT",
  "precondition-only-at-execution": "refund_invoice a stale expected_refunded_cents fails with INVOICE_CHANGED",
  "ignores-invalid-input": "create_customer negative inputs missing required email",
  "undeclared-error-code": "get_customer error taxonomy CUSTOMER_NOT_FOUND (not_found)",
  "permission-as-transient": "create_customer error taxonomy a credential without billing.customers:write is refused as permission",
  "leaks-unprojected-field": "list_incidents a selection returns only the selected and identity properties",
  "stops-pagination-early": "list_customers the traversal ends",
  "drops-partial": "list_incidents a degraded store: partial pages say so",
  "miscounts-total": "list_customers multi-page traversal: totals match",
  "count-stops-early": "count_incidents over the per-call bound: no early complete",
  // The one reference platform whose error format has a code member: every error-judging check sees it.
  "code-member-by-status": "list_books error taxonomy",
  "empty-last-page-cursor": "the traversal ends: the cursor advances, the last page's cursor is null, no page is empty after the first",
  "cursor-restarts": "the traversal ends: the cursor advances, the last page's cursor is null, no page is empty after the first",
  // Every filter of list_incidents says what it means: the meaning check judges its totals too.
  "total-ignores-filter": "list_incidents each filter's meaning: values from the data select exactly the records that satisfy it, totals agree",
  "count-ignores-filter": "the answer agrees with the list declaring the same filters, for each filter value",
  // The derived-value check runs first and tries every enum value, P4 included (--bail stops at it).
  "filter-value-fails": "list_incidents every enum value, bound and projectable property the input declares is answered as declared",
  "key-shared-across-operations": "a key is scoped to its operation",
  "delete-missing-succeeds": "delete_book not-found at execution too",
  "execution-exceeds-preview": "refund_invoice an execution changes exactly what its preview said",
  "precondition-case-insensitive": "assign_incident a near expected_owner",
  "revision-not-bumped": "update_customer record revisions advance on every mutation",
  // Stateful promises (issue 39): tests/runtime/checks-stateful.ts.
  "deleted-book-still-readable": "delete_book use after delete",
  "deleted-book-still-listed": "delete_book use after delete",
  "dry-run-default-ignored": "refund_invoice dry_run omitted (preview.default true)",
  "token-without-flag-executes": "refund_invoice dry_run omitted (preview.default true)",
  "precondition-not-rechecked-at-execution": "refund_invoice expected_refunded_cents re-checked at execution",
  "balance-checked-at-preview-only": "refund_invoice a refusal a preview gives (REFUND_EXCEEDS_BALANCE) is given at execution too",
  "forgets-keys-early": "create_customer a key is kept 24h (its retention)",
  "preview-skips-scopes": "refund_invoice a preview with a credential without billing.refunds:write is refused as permission",
  "transient-after-commit-not-replayed": "create_customer a transient refusal after commit",
  "transient-after-commit-executes-again": "create_customer a transient refusal after commit",
  // Filters that say what they mean (issue 39): tests/runtime/checks-paging.ts filterMeanings, taskAgreesWithList.
  "prefix-ignores-case": "list_releases each filter's meaning",
  "prefix-matches-substring": "list_releases each filter's meaning",
  "range-bound-inclusive": "list_incidents each filter's meaning",
  "count-range-inclusive": "count_incidents the answer agrees with the list declaring the same filters",
};

/**
 * What the first failure must say, for a defect every check judging an error can see (the first one
 * to meet an error catches it, whichever that is).
 */
const CAUGHT_SAYING: Readonly<Partial<Record<SeededDefect, RegExp>>> = {
  "code-member-by-status": /the error format puts the code at \/code: this [A-Z_]+ \(status \d+\) must carry "[A-Z_]+" there, but the error carries "error" there; only its status matches/,
};

/** What the suite cannot provoke yet (issue 11 leftovers), and why. */
const KNOWN_GAPS: ReadonlyMap<SeededDefect, string> = new Map([
]);

const runs = new Map<SeededDefect, Outcome>();
function run(defect: SeededDefect): Outcome {
  let outcome = runs.get(defect);
  if (!outcome) {
    const [example, platform] = PLATFORM[defect];
    // Adapter parity is left out: every adapter talks to the same faulty platform, so it cannot show a platform's defect.
    const meant = CAUGHT_BY[defect].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    outcome = runSuite(example, `examples/${platform}/contract-fixture.ts`, { CONTRACT_DEFECT: defect }, ["-t", `^(?!.*adapter parity).*${meant}`, "--bail=1"]);
    runs.set(defect, outcome);
  }
  return outcome;
}

afterAll(() => {
  const rows = SEEDED_DEFECT_IDS.filter((d) => runs.has(d)).map((d) => ({
    defect: d,
    promise: SEEDED_DEFECTS[d],
    example: PLATFORM[d][0],
    caught: runs.get(d)!.failed.length > 0,
    checks: runs.get(d)!.failed.map((f) => f.name),
  }));
  const caught = rows.filter((r) => r.caught).length;
  mkdirSync("test-results", { recursive: true });
  writeFileSync("test-results/contract-suite-score.json", `${JSON.stringify({ caught, seeded: rows.length, rows }, null, 2)}\n`);
  writeFileSync(
    "test-results/contract-suite-score.md",
    [
      `# Contract suite vs seeded defects: ${caught} / ${rows.length} caught`,
      "",
      "| defect | example | caught | first failing check |",
      "|---|---|---|---|",
      ...rows.map((r) => `| ${r.defect} | ${r.example} | ${r.caught ? "yes" : "no"} | ${r.checks[0] ?? (KNOWN_GAPS.get(r.defect) ?? "")} |`),
      "",
    ].join("\n"),
  );
});

describe("the generated suite fails, naming a check, against each seeded defect", () => {
  it("every seeded defect has a platform here", () => {
    expect(Object.keys(PLATFORM).sort()).toEqual([...SEEDED_DEFECT_IDS].sort());
  });
  for (const defect of SEEDED_DEFECT_IDS) {
    const gap = KNOWN_GAPS.get(defect);
    (gap ? it.fails : it)(gap ? `${defect} (known gap: ${gap})` : defect, () => {
      const outcome = run(defect);
      expect(outcome.failed.length).toBeGreaterThan(0);
      for (const f of outcome.failed) expect(f.name.length).toBeGreaterThan(0);
      expect(outcome.failed.map((f) => f.name)).toContainEqual(expect.stringContaining(CAUGHT_BY[defect]));
      const saying = CAUGHT_SAYING[defect];
      if (saying !== undefined) expect(outcome.failed[0]!.message).toMatch(saying);
    }, 180_000);
  }
});
