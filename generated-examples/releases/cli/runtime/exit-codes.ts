/**
 * Exit codes of generated CLIs: one per error class, so a script can branch on what to do next
 * without parsing text. An unknown outcome is distinct from every failure: it may have taken effect.
 */
import { ContractError, type ErrorClass, UnknownOutcomeError } from "../../sdk/runtime/errors.js";

export const EXIT_CODES = {
  success: 0,
  internal: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  permission: 5,
  unauthenticated: 6,
  transient: 7,
  rateLimited: 8,
  unknownOutcome: 9,
  incomplete: 10,
} as const;

/** Rows for --help and the generated README: code, meaning, what to do. */
export const EXIT_CODE_TABLE: ReadonlyArray<readonly [number, string, string]> = [
  [EXIT_CODES.success, "success", "the result is on stdout"],
  [EXIT_CODES.internal, "internal error, an answer outside the contract, nothing listening, or a stub", "stop and report"],
  [EXIT_CODES.usage, "usage error or invalid input (class invalid_input)", "fix the named flag or field"],
  [EXIT_CODES.notFound, "not found", "verify the identifier"],
  [EXIT_CODES.conflict, "conflict or stale precondition", "re-read, then decide again"],
  [EXIT_CODES.permission, "permission denied", "stop and ask for access"],
  [EXIT_CODES.unauthenticated, "missing or rejected credential", "set or renew the token"],
  [EXIT_CODES.transient, "transient failure (retries exhausted)", "retry later with the same operation key"],
  [EXIT_CODES.rateLimited, "rate limited (retries exhausted)", "wait for Retry-After, then retry"],
  [EXIT_CODES.unknownOutcome, "unknown outcome: a mutation was sent but no answer came", "re-run the same command (same key) or reconcile"],
  [EXIT_CODES.incomplete, "incomplete traversal (--all stopped by a bound, or partial pages)", "continue from `continuation` or raise the bounds"],
];

const BY_CLASS: Record<ErrorClass, number> = {
  invalid_input: EXIT_CODES.usage,
  not_found: EXIT_CODES.notFound,
  conflict: EXIT_CODES.conflict,
  permission: EXIT_CODES.permission,
  unauthenticated: EXIT_CODES.unauthenticated,
  transient: EXIT_CODES.transient,
  rate_limited: EXIT_CODES.rateLimited,
  internal: EXIT_CODES.internal,
};

export function exitCodeFor(error: unknown): number {
  if (error instanceof UnknownOutcomeError || (error instanceof ContractError && error.outcome === "unknown")) return EXIT_CODES.unknownOutcome;
  if (error instanceof ContractError) return BY_CLASS[error.errorClass];
  return EXIT_CODES.internal;
}

export function exitCodeHelp(): string {
  const width = Math.max(...EXIT_CODE_TABLE.map(([, meaning]) => meaning.length));
  return ["Exit codes:", ...EXIT_CODE_TABLE.map(([code, meaning, action]) => `  ${String(code).padStart(2)}  ${meaning.padEnd(width)}  ${action}`)].join("\n");
}
