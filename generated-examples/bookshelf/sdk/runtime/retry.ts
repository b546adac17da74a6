/**
 * Bounded retries with exponential backoff and jitter, for transient and rate-limited failures only.
 * Defaults: 3 attempts in all, delays from 250 ms doubling to at most 8 s, ±25 % jitter; a
 * Retry-After from the platform is honoured (and never shortened by jitter).
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. 1 disables retries. */
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Fraction of the delay added or removed at random (0.25 = ±25 %). */
  readonly jitter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, initialDelayMs: 250, maxDelayMs: 8000, jitter: 0.25 };

/** Delay before attempt `attempt + 1` (attempt counts from 1). */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs: number | null, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
  const jittered = exponential * (1 + policy.jitter * (2 * random() - 1));
  // The cap holds after jitter too: "at most maxDelayMs" is what the generated README promises.
  const delay = Math.max(0, Math.min(policy.maxDelayMs, Math.round(jittered)));
  return retryAfterMs !== null ? Math.max(retryAfterMs, delay) : delay;
}

/** Sleep that ends early (rejecting with the signal's reason) when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Parse a Retry-After header (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
