import { execFile, execFileSync, execSync, spawn } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { claimantGone, type ClaimRequest, type Intent, MemoryJournal, newClaimant, type OperationJournal, SqliteJournal } from "../../src/runtime/journal.js";
import { PostgresJournal } from "../../src/runtime/journal-postgres.js";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";

const tempDir = mkdtempSync(join(tmpdir(), "contractgen-journal-"));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));
let fileCounter = 0;
const tempDbPath = () => join(tempDir, `journal-${process.pid}-${++fileCounter}.sqlite`);

const intent = (over: Partial<Intent> = {}): Intent => ({
  operation: "create_customer",
  target: "https://api.example.test",
  key: "key-1",
  paramsHash: "hash-A",
  ...over,
});

/** A claim request of call `claimant`: keyless unless `key` is given; recovered outcomes count from time 0, replays never. */
const ask = (claimant: string, over: Partial<ClaimRequest> = {}): ClaimRequest => ({
  operation: "create_customer",
  target: "https://api.example.test",
  paramsHash: "hash-A",
  confirmHash: null,
  key: null,
  newKey: `new-key-of-${claimant}`,
  claimant,
  leaseMs: 1000,
  replaySince: null,
  recoveredSince: 0,
  ...over,
});

interface Factory {
  name: string;
  open(): OperationJournal | Promise<OperationJournal>;
  /** Another connection to the same journal (as another process has); the memory journal has only itself. */
  another(j: OperationJournal): OperationJournal;
}

const opened: OperationJournal[] = [];
afterEach(() => {
  for (const j of opened.splice(0)) j.close();
});

const postgres = await postgresAvailable();
afterAll(() => dropSchemas());

const pgUrls = new WeakMap<OperationJournal, string>();
const factories: Factory[] = [
  { name: "MemoryJournal", open: () => new MemoryJournal(), another: (j) => j },
  { name: "SqliteJournal", open: () => new SqliteJournal(tempDbPath()), another: (j) => new SqliteJournal((j as SqliteJournal).path) },
  // The shared store replicas use: the same contract, on a real server (each test its own schema).
  ...(postgres
    ? [
        {
          name: "PostgresJournal",
          open: async () => {
            const url = await freshSchemaUrl();
            const j = new PostgresJournal(url);
            pgUrls.set(j, url);
            return j;
          },
          another: (j: OperationJournal) => new PostgresJournal(pgUrls.get(j)!),
        },
      ]
    : []),
];

describe.each(factories)("$name (journal contract)", ({ open, another }) => {
  let j: OperationJournal;
  const fresh = async () => {
    j = await open();
    opened.push(j);
    return j;
  };
  /** Record an intent under `key` begun at `at` by call `by`, and settle it when `status` says so. */
  const recorded = async (key: string, at: number, status?: "completed" | "rejected" | "unknown", over: Partial<ClaimRequest> = {}, result: unknown = { id: key }) => {
    const claim = await j.claim(ask(`c-${key}`, { key, ...over }), at);
    expect(claim.kind).toBe("send");
    if (status) await j.settle(intent({ key, operation: over.operation ?? "create_customer", target: over.target ?? "https://api.example.test" }), `c-${key}`, status, result, at + 1);
  };

  it("a keyless call of a new intent records it under the new key, claimed by the call, with its lease", async () => {
    await fresh();
    const claim = await j.claim(ask("A"), 1000);
    const entry = { ...intent({ key: "new-key-of-A" }), confirmHash: null, status: "sending", result: null, createdAt: 1000, updatedAt: 1000, claimant: "A", leaseUntil: 2000, recovered: false };
    expect(claim).toEqual({ kind: "send", entry });
    expect(await j.get(intent({ key: "new-key-of-A" }))).toEqual(entry);
  });

  it("an identical keyless call while the sender's claim is live waits for it, and records nothing", async () => {
    await fresh();
    await j.claim(ask("A"), 1000);
    const claim = await j.claim(ask("B"), 1500);
    expect(claim).toMatchObject({ kind: "wait", entry: { key: "new-key-of-A", claimant: "A" } });
    expect(await j.get(intent({ key: "new-key-of-B" }))).toBeUndefined();
  });

  it("an intent whose outcome is unknown is taken over by the next identical call: the same key, marked recovered", async () => {
    await fresh();
    await j.claim(ask("A"), 1000);
    await j.settle(intent({ key: "new-key-of-A" }), "A", "unknown", { code: "CLIENT_NO_RESPONSE" }, 1100);
    const claim = await j.claim(ask("B"), 1200);
    expect(claim).toMatchObject({ kind: "send", entry: { key: "new-key-of-A", claimant: "B", leaseUntil: 2200, status: "sending", result: null, createdAt: 1000, recovered: true } });
    // Taken: a third call waits for B.
    expect(await j.claim(ask("C"), 1300)).toMatchObject({ kind: "wait", entry: { claimant: "B" } });
  });

  it("a claim whose lease ran out (its sender is gone) is taken over; one renewed in time is not", async () => {
    await fresh();
    await j.claim(ask("A"), 1000); // lease until 2000
    expect(await j.renew(intent({ key: "new-key-of-A" }), "A", 2500)).toBe(true);
    expect(await j.claim(ask("B"), 2200)).toMatchObject({ kind: "wait" });
    expect(await j.claim(ask("B"), 2500)).toMatchObject({ kind: "send", entry: { key: "new-key-of-A", claimant: "B", recovered: true } });
    // A no longer holds it: its renewal and its settle are refused.
    expect(await j.renew(intent({ key: "new-key-of-A" }), "A", 9000)).toBe(false);
    await j.settle(intent({ key: "new-key-of-A" }), "A", "completed", { id: "from-A" }, 2600);
    expect(await j.get(intent({ key: "new-key-of-A" }))).toMatchObject({ status: "sending", claimant: "B" });
    await j.settle(intent({ key: "new-key-of-A" }), "B", "completed", { id: "from-B" }, 2700);
    expect(await j.get(intent({ key: "new-key-of-A" }))).toMatchObject({ status: "completed", result: { id: "from-B" }, claimant: null, leaseUntil: null, updatedAt: 2700 });
  });

  it("a recovered outcome is every identical keyless call's within the recovery window, and a new call's after it", async () => {
    await fresh();
    await j.claim(ask("A"), 1000);
    await j.settle(intent({ key: "new-key-of-A" }), "A", "unknown", null, 1100);
    await j.claim(ask("B"), 1200);
    await j.settle(intent({ key: "new-key-of-A" }), "B", "completed", { id: "cus_1" }, 1300);
    // C started while the outcome was not yet known to it: it gets the recovered outcome.
    expect(await j.claim(ask("C", { recoveredSince: 1300 }), 1400)).toMatchObject({ kind: "recorded", entry: { key: "new-key-of-A", result: { id: "cus_1" } } });
    // D's window starts after the recovery: a new intent.
    expect(await j.claim(ask("D", { recoveredSince: 1301 }), 61_400)).toMatchObject({ kind: "send", entry: { key: "new-key-of-D", recovered: false } });
    // A recovery that ended in a rejection is recorded too.
    await j.claim(ask("E", { paramsHash: "hash-B" }), 2000);
    await j.settle(intent({ key: "new-key-of-E" }), "E", "unknown", null, 2001);
    await j.claim(ask("F", { paramsHash: "hash-B" }), 2002);
    await j.settle(intent({ key: "new-key-of-E" }), "F", "rejected", { code: "EMAIL_TAKEN" }, 2003);
    expect(await j.claim(ask("G", { paramsHash: "hash-B", recoveredSince: 0 }), 2004)).toMatchObject({ kind: "recorded", entry: { status: "rejected", result: { code: "EMAIL_TAKEN" } } });
    // Another confirm token (a new preview, a new decision) is not the lost call's retry.
    await j.claim(ask("T", { paramsHash: "hash-C", confirmHash: "tok-1" }), 3000);
    await j.settle(intent({ key: "new-key-of-T" }), "T", "unknown", null, 3001);
    await j.claim(ask("U", { paramsHash: "hash-C", confirmHash: "tok-1" }), 3002);
    await j.settle(intent({ key: "new-key-of-T" }), "U", "completed", { id: "re_1" }, 3003);
    expect(await j.claim(ask("V", { paramsHash: "hash-C", confirmHash: "tok-1" }), 3004)).toMatchObject({ kind: "recorded", entry: { key: "new-key-of-T" } });
    expect(await j.claim(ask("W", { paramsHash: "hash-C", confirmHash: "tok-2" }), 3005)).toMatchObject({ kind: "send", entry: { key: "new-key-of-W" } });
    // recoveredSince null: no recovered outcome is handed out.
    expect(await j.claim(ask("H", { paramsHash: "hash-B", recoveredSince: null }), 2005)).toMatchObject({ kind: "send", entry: { key: "new-key-of-H" } });
  });

  it("an intent that completed without a recovery is not repeated: an identical keyless call is a new intent", async () => {
    await fresh();
    await j.claim(ask("A"), 1000);
    await j.settle(intent({ key: "new-key-of-A" }), "A", "completed", { id: "cus_1" }, 1100);
    expect(await j.claim(ask("B"), 1200)).toMatchObject({ kind: "send", entry: { key: "new-key-of-B" } });
  });

  it("the caller's key: new, recorded, of other parameters, re-bound after a rejection, taken over when unknown, waited for while sent", async () => {
    await fresh();
    expect(await j.claim(ask("A", { key: "k" }), 1000)).toMatchObject({ kind: "send", entry: { key: "k", claimant: "A" } });
    expect(await j.claim(ask("B", { key: "k" }), 1100)).toMatchObject({ kind: "wait", entry: { claimant: "A" } });
    expect(await j.claim(ask("B", { key: "k", paramsHash: "hash-B" }), 1100)).toMatchObject({ kind: "mismatch", entry: { paramsHash: "hash-A" } });
    await j.settle(intent({ key: "k" }), "A", "unknown", null, 1200);
    expect(await j.claim(ask("B", { key: "k" }), 1300)).toMatchObject({ kind: "send", entry: { claimant: "B", recovered: true, createdAt: 1000 } });
    await j.settle(intent({ key: "k" }), "B", "completed", { id: "cus_1" }, 1400);
    expect(await j.claim(ask("C", { key: "k" }), 1500)).toMatchObject({ kind: "recorded", entry: { status: "completed", result: { id: "cus_1" } } });
    expect(await j.claim(ask("C", { key: "k", paramsHash: "hash-B" }), 1500)).toMatchObject({ kind: "mismatch" });
    // Rejected (nothing executed): the key is free again, bound to the new parameters and begun anew.
    await recorded("r", 2000, "rejected");
    const rebound = await j.claim(ask("D", { key: "r", paramsHash: "hash-B" }), 3000);
    expect(rebound).toMatchObject({ kind: "send", entry: { key: "r", paramsHash: "hash-B", status: "sending", result: null, createdAt: 3000, claimant: "D", recovered: false } });
  });

  it("a recorded result that no longer passes `usable` is taken over and sent again under its key", async () => {
    await fresh();
    await recorded("k", 1000, "completed", {}, { stale: true });
    const usable = (r: unknown) => !(r as { stale?: boolean }).stale;
    expect(await j.claim(ask("B", { key: "k", usable }), 2000)).toMatchObject({ kind: "send", entry: { key: "k", claimant: "B", recovered: false } });
  });

  it("a completed intent under the same confirm token is replayed within retention; other tokens, parameters or older intents are not", async () => {
    await fresh();
    await recorded("spent", 1000, "completed", { confirmHash: "tok-1" }, { id: "r1" });
    await recorded("other-token", 2000, "completed", { confirmHash: "tok-2" }, { id: "r2" });
    await recorded("rejected", 3000, "rejected", { confirmHash: "tok-4" });
    const replay = async (claimant: string, confirmHash: string, replaySince = 0, paramsHash = "hash-A") => {
      const claim = await j.claim(ask(claimant, { confirmHash, replaySince, paramsHash }), 5000);
      // A new intent is settled at once, so that it is not the unfinished one the next call repeats.
      if (claim.kind === "send") await j.settle(claim.entry, claimant, "completed", { id: claimant }, 5001);
      return claim;
    };
    expect(await replay("a", "tok-1")).toMatchObject({ kind: "recorded", entry: { key: "spent", result: { id: "r1" }, confirmHash: "tok-1" } });
    expect(await replay("b", "tok-2")).toMatchObject({ kind: "recorded", entry: { key: "other-token" } });
    expect(await replay("c", "tok-4")).toMatchObject({ kind: "send", entry: { key: "new-key-of-c" } });
    expect(await replay("d", "tok-1", 0, "hash-B")).toMatchObject({ kind: "send", entry: { key: "new-key-of-d" } });
    // Begun before the retention window: the platform has forgotten the key.
    expect(await replay("e", "tok-2", 2500)).toMatchObject({ kind: "send", entry: { key: "new-key-of-e" } });
  });

  it("keys and intents are scoped by operation and target", async () => {
    await fresh();
    await recorded("k", 1, "unknown");
    expect(await j.claim(ask("a", { operation: "refund" }), 2)).toMatchObject({ kind: "send", entry: { key: "new-key-of-a", operation: "refund" } });
    expect(await j.claim(ask("b", { target: "https://other.test" }), 2)).toMatchObject({ kind: "send", entry: { key: "new-key-of-b" } });
    expect(await j.claim(ask("c", { key: "k", operation: "refund" }), 2)).toMatchObject({ kind: "send", entry: { key: "k", operation: "refund" } });
    expect(await j.get(intent({ key: "k" }))).toMatchObject({ status: "unknown" });
  });

  it("the newest unfinished intent is repeated; on a tie, the one recorded last", async () => {
    await fresh();
    await recorded("old", 1000, "unknown");
    await recorded("new", 2000, "unknown");
    await recorded("tie-1", 5000, "unknown", { paramsHash: "hash-B" });
    await recorded("tie-2", 5000, "unknown", { paramsHash: "hash-B" });
    expect(await j.claim(ask("a"), 9000)).toMatchObject({ kind: "send", entry: { key: "new" } });
    expect(await j.claim(ask("b", { paramsHash: "hash-B" }), 9000)).toMatchObject({ kind: "send", entry: { key: "tie-2" } });
  });

  it("a re-bound key counts as begun when it was re-bound", async () => {
    await fresh();
    await recorded("A", 1000, "rejected");
    await recorded("B", 2000, "unknown");
    await recorded("A", 3000, "unknown");
    expect(await j.claim(ask("x"), 9000)).toMatchObject({ kind: "send", entry: { key: "A", createdAt: 3000 } });
  });

  it("settle and renew of a key never claimed change nothing", async () => {
    await fresh();
    await j.settle(intent({ key: "never" }), "x", "completed", {}, 1);
    expect(await j.renew(intent({ key: "never" }), "x", 5)).toBe(false);
    expect(await j.get(intent({ key: "never" }))).toBeUndefined();
  });

  it("uses the current time when no time is given", async () => {
    await fresh();
    const before = Date.now();
    const { entry } = await j.claim(ask("A"));
    await j.settle(entry, "A", "completed", { ok: true });
    const after = Date.now();
    expect(entry.createdAt).toBeGreaterThanOrEqual(before);
    expect(entry.createdAt).toBeLessThanOrEqual(after);
    const settled = (await j.get(entry))!;
    expect(settled.updatedAt).toBeGreaterThanOrEqual(entry.createdAt);
    expect(settled.updatedAt).toBeLessThanOrEqual(after);
  });

  it("50 concurrent claims of one intent on two connections: one sends, the others wait; recovered, one sends again; settled, all get it", async () => {
    const a = await fresh();
    const b = another(a);
    if (b !== a) opened.push(b);
    const all = (at: number) => Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).claim(ask(`call-${at}-${i}`), at)));
    const first = await all(1000);
    expect(first.filter((c) => c.kind === "send")).toHaveLength(1);
    const sender = first.find((c) => c.kind === "send")!.entry;
    expect(first.filter((c) => c.kind === "wait").every((c) => c.entry.key === sender.key)).toBe(true);
    await a.settle(sender, sender.claimant!, "unknown", null, 1100);
    const recovering = await all(1200);
    expect(recovering.filter((c) => c.kind === "send")).toHaveLength(1);
    expect(new Set(recovering.map((c) => c.entry.key))).toEqual(new Set([sender.key]));
    const recoverer = recovering.find((c) => c.kind === "send")!.entry;
    await b.settle(recoverer, recoverer.claimant!, "completed", { id: "cus_1" }, 1300);
    const late = await all(1400);
    expect(late.every((c) => c.kind === "recorded" && c.entry.key === sender.key)).toBe(true);
  });
});

describe("a sender that died on this machine", () => {
  it("claimantGone: a process here that has exited is gone; this process, a live one, one elsewhere or a malformed id are not", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    expect(claimantGone(`${hostname()}/${child.pid}/x`)).toBe(false);
    child.kill("SIGKILL");
    await exited;
    expect(claimantGone(`${hostname()}/${child.pid}/x`)).toBe(true);
    expect(claimantGone(`${hostname()}/${process.pid}/x`)).toBe(false);
    expect(claimantGone(`another-machine.example/${child.pid}/x`)).toBe(false);
    expect(claimantGone("no slashes")).toBe(false);
    expect(claimantGone(`${hostname()}/-1/x`)).toBe(false);
    expect(newClaimant()).toMatch(new RegExp(`^${hostname().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/${process.pid}/[0-9a-f-]{36}$`));
  });

  it("its live claim is taken over at once (not when its lease runs out) by a call that can tell", () => {
    const j = new MemoryJournal();
    j.claim(ask("dead-process", { key: "k" }), 1000);
    expect(j.claim(ask("B"), 1001)).toMatchObject({ kind: "wait" });
    expect(j.claim({ ...ask("B"), senderGone: (c) => c === "dead-process" }, 1001)).toMatchObject({ kind: "send", entry: { key: "k", claimant: "B", recovered: true } });
  });
});

describe("SqliteJournal across connections and processes", () => {
  const distJournal = resolve("dist/src/runtime/journal.js");
  const srcJournal = resolve("src/runtime/journal.ts");

  beforeAll(() => {
    const stale = !existsSync(distJournal) || statSync(distJournal).mtimeMs < statSync(srcJournal).mtimeMs;
    if (stale) {
      try {
        execSync("npx tsc -p .", { stdio: "pipe" });
      } catch {
        // Type errors elsewhere in the project (other work in progress) still emit JavaScript.
      }
    }
    expect(existsSync(distJournal), `${distJournal} must exist (npx tsc -p .)`).toBe(true);
  }, 120_000);

  /** Run a module script in a separate Node process with `SqliteJournal` imported from dist/. */
  function child(script: string, path: string): string {
    const code = `import { SqliteJournal } from ${JSON.stringify(pathToFileURL(distJournal).href)};
const j = new SqliteJournal(process.env.JOURNAL_PATH);
try { ${script} } finally { j.close(); }`;
    return execFileSync(process.execPath, ["--input-type=module", "-e", code], {
      env: { ...process.env, JOURNAL_PATH: path },
      encoding: "utf8",
    });
  }

  it("two instances on one file see each other's entries at once", () => {
    const path = tempDbPath();
    const a = new SqliteJournal(path);
    const b = new SqliteJournal(path);
    opened.push(a, b);
    a.claim(ask("A", { key: "key-1" }), 1000); // committed by claim itself: no explicit flush or close
    expect(b.get(intent())).toMatchObject({ status: "sending", paramsHash: "hash-A", claimant: "A" });
    expect(b.claim(ask("B"), 1500)).toMatchObject({ kind: "wait", entry: { key: "key-1" } });
    expect(b.claim(ask("B"), 2500)).toMatchObject({ kind: "send", entry: { key: "key-1", claimant: "B" } });
    b.settle(intent(), "B", "completed", { id: "cus_1" }, 3000);
    expect(a.get(intent())).toMatchObject({ status: "completed", result: { id: "cus_1" }, updatedAt: 3000 });
  });

  it("entries survive closing and reopening the file", () => {
    const path = tempDbPath();
    const a = new SqliteJournal(path);
    a.claim(ask("A", { key: "key-1" }), 1000);
    a.settle(intent(), "A", "unknown", { code: "CLIENT_NO_RESPONSE" }, 1001);
    a.close();
    const b = new SqliteJournal(path);
    opened.push(b);
    expect(b.get(intent())).toMatchObject({ status: "unknown", result: { code: "CLIENT_NO_RESPONSE" } });
    expect(b.claim(ask("B"), 1002)).toMatchObject({ kind: "send", entry: { key: "key-1", recovered: true } });
  });

  it("a separate process sees an entry claimed here while this connection stays open, and vice versa", () => {
    const path = tempDbPath();
    const j = new SqliteJournal(path);
    opened.push(j);
    j.claim(ask("A", { key: "key-1" }), 1000);

    const seen = child(
      `const ask = (claimant, over) => ({ operation: "create_customer", target: "https://api.example.test", paramsHash: "hash-A", confirmHash: null, key: null, newKey: "key-2", claimant, leaseMs: 1000, replaySince: null, recoveredSince: 0, ...over });
       const e = j.get({ operation: "create_customer", target: "https://api.example.test", key: "key-1" });
       const again = j.claim(ask("child", { key: "key-1" }), 1500);
       const other = j.claim(ask("child", { paramsHash: "hash-B" }), 3000);
       console.log(JSON.stringify({ status: e?.status, again: again.kind, other: other.kind }));`,
      path,
    );
    expect(JSON.parse(seen)).toEqual({ status: "sending", again: "wait", other: "send" });

    // The child's row is visible here.
    expect(j.get(intent({ key: "key-2" }))).toMatchObject({ status: "sending", createdAt: 3000, paramsHash: "hash-B" });
    // A settle by the child is visible here too.
    child(`j.settle({ operation: "create_customer", target: "https://api.example.test", key: "key-2" }, "child", "completed", { id: "cus_9" }, 4000);`, path);
    expect(j.get(intent({ key: "key-2" }))).toMatchObject({ status: "completed", result: { id: "cus_9" } });
  });

  it("20 processes claiming one unknown intent at once: exactly one takes it over, the rest wait for it", async () => {
    const path = tempDbPath();
    const j = new SqliteJournal(path);
    opened.push(j);
    j.claim(ask("lost", { key: "key-1" }), 1000);
    j.settle(intent(), "lost", "unknown", null, 1001);
    const code = `import { SqliteJournal } from ${JSON.stringify(pathToFileURL(distJournal).href)};
const j = new SqliteJournal(process.env.JOURNAL_PATH);
const claim = j.claim({ operation: "create_customer", target: "https://api.example.test", paramsHash: "hash-A", confirmHash: null, key: null, newKey: "new-" + process.pid, claimant: "p" + process.pid, leaseMs: 60000, replaySince: null, recoveredSince: 0 });
j.close();
console.log(JSON.stringify({ kind: claim.kind, key: claim.entry.key }));`;
    const run = promisify(execFile);
    const claims = await Promise.all(
      Array.from({ length: 20 }, async () => JSON.parse((await run(process.execPath, ["--input-type=module", "-e", code], { env: { ...process.env, JOURNAL_PATH: path } })).stdout) as { kind: string; key: string }),
    );
    expect(claims.filter((c) => c.kind === "send")).toHaveLength(1);
    expect(claims.filter((c) => c.kind === "wait")).toHaveLength(19);
    expect(new Set(claims.map((c) => c.key))).toEqual(new Set(["key-1"]));
  });
});

describe("SqliteJournal written by an earlier version", () => {
  it("gets the confirm_hash and claim columns when opened, keeping its entries", async () => {
    const path = tempDbPath();
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(path);
    db.exec(`CREATE TABLE operation_journal (target TEXT NOT NULL, operation TEXT NOT NULL, key TEXT NOT NULL, params_hash TEXT NOT NULL,
      status TEXT NOT NULL, result TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (target, operation, key))`);
    db.prepare("INSERT INTO operation_journal VALUES ('t', 'op', 'k', 'h', 'completed', '{}', 1, 1)").run();
    // An intent an earlier runtime left sending (it kept no claim): taken over at once.
    db.prepare("INSERT INTO operation_journal VALUES ('t', 'op', 'old', 'h2', 'sending', NULL, 1, 1)").run();
    db.close();
    const j = new SqliteJournal(path);
    opened.push(j);
    expect(j.get({ target: "t", operation: "op", key: "k" })).toMatchObject({ status: "completed", confirmHash: null, claimant: null, recovered: false });
    expect(j.claim(ask("A", { target: "t", operation: "op", paramsHash: "h2" }), 5)).toMatchObject({ kind: "send", entry: { key: "old", claimant: "A", recovered: true } });
    j.claim(ask("B", { target: "t", operation: "op", key: "k2", paramsHash: "h", confirmHash: "c" }), 5);
    j.settle({ target: "t", operation: "op", key: "k2" }, "B", "completed", {}, 6);
    expect(j.claim(ask("C", { target: "t", operation: "op", paramsHash: "h", confirmHash: "c", replaySince: 0 }), 7)).toMatchObject({ kind: "recorded", entry: { key: "k2" } });
    // A second process opening the migrated file changes nothing.
    opened.push(new SqliteJournal(path));
  });
});
