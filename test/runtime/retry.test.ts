import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy, sleep } from "../../src/runtime/retry.js";

const noJitter = () => 0.5; // 2 * 0.5 - 1 = 0: the jitter term vanishes
const policy: RetryPolicy = { maxAttempts: 5, initialDelayMs: 100, maxDelayMs: 1000, jitter: 0.25 };

describe("DEFAULT_RETRY_POLICY", () => {
  it("is 3 attempts, 250 ms doubling to at most 8 s, ±25 % jitter", () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ maxAttempts: 3, initialDelayMs: 250, maxDelayMs: 8000, jitter: 0.25 });
  });
});

describe("backoffDelay", () => {
  it("doubles with every attempt, starting at initialDelayMs", () => {
    expect([1, 2, 3, 4].map((a) => backoffDelay(policy, a, null, noJitter))).toEqual([100, 200, 400, 800]);
  });

  it("is capped at maxDelayMs however many attempts were made", () => {
    expect(backoffDelay(policy, 5, null, noJitter)).toBe(1000);
    expect(backoffDelay(policy, 6, null, noJitter)).toBe(1000);
    expect(backoffDelay(policy, 60, null, noJitter)).toBe(1000);
    expect(backoffDelay(policy, 2000, null, noJitter)).toBe(1000); // 2 ** 1999 is Infinity: still capped
  });

  it("jitter stays within ±jitter of the (capped) exponential delay", () => {
    // random() in [0, 1): 0 gives the lowest delay, values close to 1 the highest.
    expect(backoffDelay(policy, 1, null, () => 0)).toBe(75);
    expect(backoffDelay(policy, 1, null, () => 0.999999)).toBe(125);
    expect(backoffDelay(policy, 3, null, () => 0)).toBe(300);
    expect(backoffDelay(policy, 3, null, () => 0.75)).toBe(450);
    expect(backoffDelay(policy, 10, null, () => 0)).toBe(750);
    expect(backoffDelay(policy, 10, null, () => 0.999999)).toBe(1000); // jitter never lifts it past maxDelayMs
    for (let attempt = 1; attempt <= 8; attempt++) {
      const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
      for (let i = 0; i <= 100; i++) {
        const r = Math.min(i / 100, 0.999999);
        const d = backoffDelay(policy, attempt, null, () => r);
        expect(d).toBeGreaterThanOrEqual(Math.floor(base * 0.75));
        expect(d).toBeLessThanOrEqual(Math.min(policy.maxDelayMs, Math.ceil(base * 1.25)));
      }
    }
  });

  it("uses the random source it is given (different values give different delays)", () => {
    expect(backoffDelay(policy, 2, null, () => 0.1)).not.toBe(backoffDelay(policy, 2, null, () => 0.9));
  });

  it("jitter 0 gives exact delays whatever random returns", () => {
    const exact = { ...policy, jitter: 0 };
    expect(backoffDelay(exact, 2, null, () => 0)).toBe(200);
    expect(backoffDelay(exact, 2, null, () => 0.99)).toBe(200);
  });

  it("never returns a negative delay, even with jitter > 1", () => {
    expect(backoffDelay({ ...policy, jitter: 2 }, 1, null, () => 0)).toBe(0);
  });

  it("honours Retry-After as a lower bound", () => {
    expect(backoffDelay(policy, 1, 5000, noJitter)).toBe(5000); // longer than the backoff (and than maxDelayMs)
    expect(backoffDelay(policy, 1, 5000, () => 0)).toBe(5000); // jitter never shortens it
    expect(backoffDelay(policy, 4, 10, noJitter)).toBe(800); // shorter than the backoff: backoff wins
    expect(backoffDelay(policy, 1, 0, noJitter)).toBe(100);
  });

  it("treats a null Retry-After as absent", () => {
    expect(backoffDelay(policy, 2, null, noJitter)).toBe(200);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);

  it("reads delta-seconds as milliseconds", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("1", now)).toBe(1000);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 3 ", now)).toBe(3000);
    expect(parseRetryAfter("0.25", now)).toBe(250);
  });

  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
  });

  it("clamps a date in the past to 0", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 11:59:00 GMT", now)).toBe(0);
  });

  it("returns null for absent, empty or unparseable values", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("   ", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});

describe("sleep", () => {
  it("resolves after roughly the given time", async () => {
    const start = Date.now();
    await sleep(30);
    expect(Date.now() - start).toBeGreaterThanOrEqual(25);
  });

  it("rejects with the signal's reason when aborted mid-sleep, without waiting the full time", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const start = Date.now();
    const pending = sleep(10_000, controller.signal);
    setTimeout(() => controller.abort(reason), 10);
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - start).toBeLessThan(2000);
  });

  it("rejects at once when the signal is already aborted", async () => {
    const reason = new Error("already");
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it("resolves normally with a signal that never aborts, and a later abort is harmless", async () => {
    const controller = new AbortController();
    await expect(sleep(5, controller.signal)).resolves.toBeUndefined();
    controller.abort(); // the listener was removed: no unhandled rejection
  });
});
