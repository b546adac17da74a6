/**
 * Exactly-once when several processes recover one lost call at the same time (issue 38). The
 * billing platform commits `POST /customers` and a proxy drops the answer; then N recoverers — each a
 * process of its own with its own journal connection, started with the jitter of processes launched
 * together — send the same input through the same journal without an operation key. Every repetition
 * must give one customer, and every recoverer must get that customer.
 *
 * Before recovery was one atomic step (`OperationJournal.claim`), looking for the unfinished intent and
 * recording a new one were two steps: a recoverer that looked after another had settled the intent
 * found nothing and created a second customer. On that code (main at 2eb5af5, 2026-12-07) the stress
 * configurations failed in 16/25 (2 recoverers), 25/25 (5) and 24/25 (20) repetitions over SQLite
 * and 22/25, 25/25 and 25/25 over PostgreSQL, so 25 repetitions make a regression show with near
 * certainty; the reported scenario (five fresh processes, no jitter but their own start-up) failed
 * 3/10 repetitions, as reported (3/10 and 4/10).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";
import { startLossyProxy } from "./lossy-proxy.js";

const SDK = resolve("test-results/sdk/billing.v2/sdk/index.js");
const TOKEN = "e2e-recovery-stress-token";
type Sdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");
/** Repetitions of each configuration (CONTRACTGEN_STRESS_REPS raises it for a longer soak). */
const REPS = Number(process.env.CONTRACTGEN_STRESS_REPS ?? 25);
/** Recoverers start within this many ms of each other, as processes launched together do. */
const JITTER_MS = 60;
const SIZES = [2, 5, 20] as const;
/** Repetitions of the reported scenario, each five process start-ups. */
const REPORTED_REPS = Number(process.env.CONTRACTGEN_STRESS_REPORTED_REPS ?? 4);

type Answer = { id: number; ok: boolean; result?: { id: string }; error?: Record<string, unknown> };

/** Long-lived recovering processes (recoverer.mjs), so that many repetitions cost no process start-ups. */
class Recoverers {
  private readonly waiting = new Map<number, (a: Answer) => void>();
  private next = 0;
  private constructor(private readonly children: ChildProcess[]) {}

  static async start(count: number): Promise<Recoverers> {
    const children = Array.from({ length: count }, () =>
      spawn(process.execPath, [resolve("test/e2e/recoverer.mjs"), JSON.stringify({ sdk: SDK, clientClass: "BillingClient" })], { stdio: ["pipe", "pipe", "inherit"] }),
    );
    const pool = new Recoverers(children);
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((ready, failed) => {
            child.once("exit", (code) => failed(new Error(`a recoverer exited (${code}) before it was ready`)));
            createInterface({ input: child.stdout! }).on("line", (line) => {
              const answer = JSON.parse(line) as Answer & { ready?: boolean };
              if (answer.ready) return ready();
              pool.waiting.get(answer.id)?.(answer);
              pool.waiting.delete(answer.id);
            });
          }),
      ),
    );
    return pool;
  }

  /** One call in recoverer `i`, after `delayMs`. */
  call(i: number, method: string, input: unknown, options: Record<string, unknown>, delayMs: number): Promise<Answer> {
    const id = this.next++;
    return new Promise((answered) => {
      this.waiting.set(id, answered);
      this.children[i]!.stdin!.write(`${JSON.stringify({ id, method, input, options, delayMs })}\n`);
    });
  }

  stop(): void {
    for (const child of this.children) child.kill();
  }
}

let sdk: Sdk;
let platform: RunningPlatform;
let recoverers: Recoverers;
const postgres = await postgresAvailable();
const dir = mkdtempSync(join(tmpdir(), "contractgen-recovery-stress-"));
let emails = 0;

beforeAll(async () => {
  sdk = (await import(SDK)) as Sdk;
  platform = await startBillingServer({ token: TOKEN });
  recoverers = await Recoverers.start(Math.max(...SIZES));
}, 120_000);
afterAll(async () => {
  recoverers?.stop();
  await platform?.close();
  await dropSchemas();
});

async function customersWithEmail(email: string): Promise<string[]> {
  const c = new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal: false });
  const { items, complete } = await c.listCustomersAll({ email }, { maxPages: 5 }).collect();
  expect(complete).toBe(true);
  return items.map((c) => c.id);
}

/**
 * One repetition: the lost call, then `n` recoverers at once. Returns what went wrong (empty: one
 * customer, and every recoverer got it).
 */
async function repetition(n: number, journal: string): Promise<string[]> {
  const input = { email: `stress.${process.pid}.${++emails}@example.com`, name: "Lost Then Recovered" };
  let dropped = false;
  const proxy = await startLossyProxy(platform.url, (req) => {
    if (dropped || req.method !== "POST") return false;
    return (dropped = true);
  });
  try {
    const first = new sdk.BillingClient({ baseUrl: proxy.url, token: TOKEN, journal, retry: { maxAttempts: 1 } });
    const lost = await first.createCustomer(input).then(
      () => null,
      (e: unknown) => e,
    );
    first.close();
    if (!(lost instanceof sdk.UnknownOutcomeError)) return [`the first call was to end with an unknown outcome, got ${String(lost)}`];
    const options = { baseUrl: proxy.url, token: TOKEN, journal };
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => recoverers.call(i, "createCustomer", input, options, Math.floor(Math.random() * JITTER_MS))));
    const customers = await customersWithEmail(input.email);
    const problems: string[] = [];
    if (customers.length !== 1) problems.push(`effects: ${customers.length}`);
    const failures = answers.filter((a) => !a.ok);
    if (failures.length > 0) problems.push(`${failures.length} recoverer(s) failed, e.g. ${String(failures[0]!.error?.code)}: ${String(failures[0]!.error?.message).slice(0, 200)}`);
    const others = answers.filter((a) => a.ok && (customers.length !== 1 || a.result?.id !== customers[0]));
    if (others.length > 0) problems.push(`${others.length} recoverer(s) got another customer than the one lost call's`);
    return problems;
  } finally {
    await proxy.close();
  }
}

async function stress(n: number, journal: () => Promise<string>): Promise<void> {
  const failed: string[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const problems = await repetition(n, await journal());
    if (problems.length > 0) failed.push(`repetition ${rep + 1}: ${problems.join("; ")}`);
  }
  expect(failed.slice(0, 5), `${failed.length}/${REPS} repetitions broke exactly-once with ${n} concurrent recoverers`).toEqual([]);
}

/** One SDK call in a new process (sdk-call.mjs), as the reporter's scripts ran it. */
async function inNewProcess(input: unknown, options: Record<string, unknown>): Promise<Answer> {
  const args = [resolve("test/e2e/sdk-call.mjs"), JSON.stringify({ sdk: SDK, clientClass: "BillingClient", method: "createCustomer", input, options })];
  const { stdout } = await promisify(execFile)(process.execPath, args, { encoding: "utf8" });
  return JSON.parse(stdout) as Answer;
}

describe("the reported scenario: five new processes at once after a lost response", () => {
  it(`${REPORTED_REPS} repetitions, one SQLite journal file: one customer, every process gets it`, async () => {
    const failed: string[] = [];
    for (let rep = 0; rep < REPORTED_REPS; rep++) {
      const journal = join(dir, "reported.sqlite");
      const input = { email: `reported.${process.pid}.${rep}@example.com`, name: "Reported Scenario" };
      let dropped = false;
      const proxy = await startLossyProxy(platform.url, (req) => !dropped && req.method === "POST" && (dropped = true));
      try {
        const first = new sdk.BillingClient({ baseUrl: proxy.url, token: TOKEN, journal, retry: { maxAttempts: 1 } });
        expect(await first.createCustomer(input).catch((e: unknown) => e)).toBeInstanceOf(sdk.UnknownOutcomeError);
        first.close();
        const answers = await Promise.all(Array.from({ length: 5 }, () => inNewProcess(input, { baseUrl: proxy.url, token: TOKEN, journal })));
        const customers = await customersWithEmail(input.email);
        const got = answers.map((a) => (a.ok ? a.result?.id : String(a.error?.code)));
        if (customers.length !== 1 || got.some((id) => id !== customers[0])) failed.push(`repetition ${rep + 1}: ${customers.length} customers, the processes got ${got.join(", ")}`);
      } finally {
        await proxy.close();
      }
    }
    expect(failed, `${failed.length}/${REPORTED_REPS} repetitions broke exactly-once`).toEqual([]);
  }, 300_000);
});

describe("lost-response recovery by concurrent processes, one SQLite journal file", () => {
  for (const n of SIZES) {
    it(`${n} recoverers, ${REPS} repetitions: one effect, and every recoverer gets it`, async () => {
      const journal = join(dir, `sqlite-${n}.sqlite`);
      await stress(n, async () => journal);
    }, 600_000);
  }
});

describe.skipIf(!postgres)("lost-response recovery by concurrent processes, one PostgreSQL journal", () => {
  for (const n of SIZES) {
    it(`${n} recoverers, ${REPS} repetitions: one effect, and every recoverer gets it`, async () => {
      const journal = await freshSchemaUrl();
      await stress(n, async () => journal);
    }, 600_000);
  }
});
