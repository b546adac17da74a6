/**
 * Defects a reference platform can be started with, one at a time, to prove that a contract test
 * suite notices when an implementation breaks a promise of the contract ("the suite must bite").
 * Each is a small guarded branch at the one place the behaviour lives; with no defect (the default,
 * and always in a generated server) none of them is reachable.
 */

/** Every seeded defect: its id, the promise it breaks, and where it lives (and what shows it). */
export const SEEDED_DEFECTS = {
  "ignores-operation-key":
    "Idempotency: every keyed request executes anew, so a retry under one key makes a second effect (journal: the key is forgotten at once).",
  "replays-changed-parameters":
    "Idempotency: a key reused with other parameters replays the first outcome instead of being refused (journal).",
  "executes-without-confirm-token": "Preview/confirm: an execution that carries no confirm token is performed (confirm tokens).",
  "accepts-expired-token": "Preview/confirm: a confirm token past its expiry still authorises the execution (confirm tokens).",
  "reuses-single-use-token": "Preview/confirm: a single-use confirm token authorises a second execution (confirm tokens).",
  "ignores-expected-revision": "Preconditions: a stale expected revision or value is not checked, the change is applied (host).",
  "precondition-only-at-execution":
    "Preconditions: a preview does not check them and issues a token; only the execution refuses (host).",
  "ignores-invalid-input": "Validation: input that breaks the contract's input schema reaches the handler instead of being refused (host).",
  "undeclared-error-code": "Error taxonomy: a not_found failure is answered with the code NOT_FOUND, which the taxonomy does not declare (host envelope).",
  "permission-as-transient":
    "Error taxonomy: a missing scope is answered with the transient class's code (retry) instead of the permission one (host).",
  "leaks-unprojected-field": "Projection: each record also carries one property outside the requested projection (host).",
  "stops-pagination-early":
    "Pagination: the page before the last answers next_cursor null, so the last page is never served while the total still counts it; shows on a traversal of 2+ pages (paging).",
  "drops-partial":
    "Pagination: a page missing records says partial=false with no errors; shows only with the partialPages fault (paging).",
  "miscounts-total": "Pagination: the declared total is one more than the records the traversal holds (paging).",
  "empty-last-page-cursor":
    "Pagination: the page holding the last records still answers a next_cursor, so the traversal ends on an empty page whose predecessor said more follow (paging).",
  "cursor-restarts":
    "Pagination: the cursor after page 2 points back to page 1, so the traversal never advances past page 2 and never ends; shows on a traversal of 3+ pages (paging).",
  "total-ignores-filter":
    "Pagination: the declared total counts every record regardless of the filters, so a filtered traversal returns fewer items than its total; shows only with a filter (paging).",
  "count-ignores-filter":
    "Task-level count: count_incidents ignores its severity filter, so it disagrees with list_incidents for the same filter values (incidents server).",
  "filter-value-fails":
    "Filters: list_incidents answers 500 for one enum value of a filter (severity P4); shows only when that value is sent (incidents server).",
  "count-stops-early":
    "Task-level count: the first call reports complete=true with no continuation although records remain unexamined; shows when the per-call bound is below the data set (paging).",
  "key-shared-across-operations":
    "Idempotency: one key space for every operation, so a key used on one keyed operation is found again on another, which is refused (or replayed) instead of executed (host: the journal key).",
  "delete-missing-succeeds":
    "Not found: executing a delete of a book that is no longer there answers 200 as if it had deleted it; previews still answer not found (bookshelf delete_book target).",
  "execution-exceeds-preview":
    "Preview/confirm: a refund's execution also resets the invoice's status to open, an effect its preview did not announce (billing refund_invoice handler).",
  "precondition-case-insensitive":
    "Preconditions: a string expectation is compared ignoring case, so a stale value differing only in case passes (host).",
  "revision-not-bumped": "Revisions: a customer update changes the record but leaves its revision where it was (billing update_customer handler).",
  "code-member-by-status":
    "Error format: every error carries the generic code `error` in the format's code member (a problem's type or `code`, a body's code pointer), so only its status still matches the declared error; shows with an error format other than the envelope (host).",
  // Stateful promises (issue 39): each caught by the check of tests-runtime/checks-stateful.ts named after it.
  "deleted-book-still-readable":
    "Use after delete: get_book answers from a read cache a delete does not clear, so a deleted book is still read back (bookshelf handlers).",
  "deleted-book-still-listed":
    "Use after delete: a delete only marks the book deleted and list_books forgets to leave such books out, so the deleted book is still listed (bookshelf handlers).",
  "dry-run-default-ignored":
    "Preview/confirm: a call without the dry-run flag is taken as an execution although preview.default is true (so it is refused for its missing key or token) (host).",
  "token-without-flag-executes":
    "Preview/confirm: a call carrying a confirm token but no dry-run flag is executed, although preview.default is true (host).",
  "precondition-not-rechecked-at-execution":
    "Preconditions: a previewable operation's execution trusts its confirm token and skips the preconditions, so a target changed since the preview is changed again (host).",
  "balance-checked-at-preview-only":
    "Conflicts: a refund's execution does not check the refundable balance its preview checked, so a balance used up since the preview is refunded past its total (billing refund_invoice handler).",
  "forgets-keys-early":
    "Idempotency: the journal forgets a key after one hour instead of its declared retention (24 h), so a later retry under it executes anew (journal).",
  "preview-skips-scopes":
    "Permission: a preview is answered (with a confirm token) for a credential lacking the scope its execution needs (host).",
  "transient-after-commit-not-replayed":
    "Idempotency: after a transient failure answered past the commit (the transientAfterCommitOnce fault), a retry under the same key is answered with that failure again instead of the recorded outcome (host).",
  "transient-after-commit-executes-again":
    "Idempotency: after a transient failure answered past the commit (the transientAfterCommitOnce fault), a retry under the same key executes anew, a second effect (host).",
  // Filters that say what they mean (issue 39): each caught by tests-runtime/checks-paging.ts filterMeanings or taskAgreesWithList.
  "prefix-ignores-case":
    "Filters: list_releases compares tag_prefix with tag_name ignoring case, although the contract declares a case-sensitive prefix (releases server).",
  "prefix-matches-substring":
    "Filters: list_releases matches tag_prefix anywhere in tag_name instead of at its start (releases server).",
  "range-bound-inclusive":
    "Filters: list_incidents treats opened_after as inclusive, so the incident opened exactly at that instant is listed although the bound is exclusive (incidents server).",
  "count-range-inclusive":
    "Task-level count: count_incidents counts the incident opened exactly at opened_after (an exclusive bound), so it disagrees with list_incidents for that value (incidents server).",
} as const satisfies Readonly<Record<string, string>>;

export type SeededDefect = keyof typeof SEEDED_DEFECTS;

/** The ids, in the order above. */
export const SEEDED_DEFECT_IDS = Object.keys(SEEDED_DEFECTS) as readonly SeededDefect[];

export function isSeededDefect(value: unknown): value is SeededDefect {
  return typeof value === "string" && Object.hasOwn(SEEDED_DEFECTS, value);
}
