import { execFileSync, execSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Intent, MemoryJournal, type OperationJournal, SqliteJournal } from "../../src/runtime/journal.js";
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

interface Factory {
  name: string;
  open(): OperationJournal | Promise<OperationJournal>;
}

const opened: OperationJournal[] = [];
afterEach(() => {
  for (const j of opened.splice(0)) j.close();
});

const postgres = await postgresAvailable();
afterAll(() => dropSchemas());

const factories: Factory[] = [
  { name: "MemoryJournal", open: () => new MemoryJournal() },
  { name: "SqliteJournal", open: () => new SqliteJournal(tempDbPath()) },
  // The shared store replicas use: the same contract, on a real server (each test its own schema).
  ...(postgres ? [{ name: "PostgresJournal", open: async () => new PostgresJournal(await freshSchemaUrl()) }] : []),
];

describe.each(factories)("$name (journal contract)", ({ open }) => {
  let j: OperationJournal;
  const fresh = async () => {
    j = await open();
    opened.push(j);
    return j;
  };

  it("begin creates an entry once, in status sending with no result", async () => {
    await fresh();
    const { entry, created } = await j.begin(intent(), 1000);
    expect(created).toBe(true);
    expect(entry).toEqual({ ...intent(), confirmHash: null, status: "sending", result: null, createdAt: 1000, updatedAt: 1000 });
    expect(await j.get(intent())).toEqual(entry);
  });

  it("a second begin with the same key returns the existing entry, not created", async () => {
    await fresh();
    await j.begin(intent(), 1000);
    const again = await j.begin(intent({ paramsHash: "hash-B" }), 2000);
    expect(again.created).toBe(false);
    // The stored entry is returned as it was: its params hash, status and timestamps are untouched.
    expect(again.entry).toEqual({ ...intent(), confirmHash: null, status: "sending", result: null, createdAt: 1000, updatedAt: 1000 });
    expect((await j.get(intent()))?.paramsHash).toBe("hash-A");
  });

  it("a second begin of an unknown or completed entry does not re-bind it", async () => {
    await fresh();
    await j.begin(intent({ key: "u" }), 1);
    await j.settle(intent({ key: "u" }), "unknown", { message: "timed out" }, 2);
    await j.begin(intent({ key: "c" }), 1);
    await j.settle(intent({ key: "c" }), "completed", { id: "cus_1" }, 2);
    const u = await j.begin(intent({ key: "u", paramsHash: "other" }), 3);
    const c = await j.begin(intent({ key: "c" }), 3);
    expect(u).toMatchObject({ created: false, entry: { status: "unknown", paramsHash: "hash-A", result: { message: "timed out" } } });
    expect(c).toMatchObject({ created: false, entry: { status: "completed", result: { id: "cus_1" } } });
  });

  it("keys are scoped by operation and target", async () => {
    await fresh();
    expect((await j.begin(intent(), 1)).created).toBe(true);
    expect((await j.begin(intent({ operation: "refund" }), 1)).created).toBe(true);
    expect((await j.begin(intent({ target: "https://other.test" }), 1)).created).toBe(true);
    expect((await j.begin(intent(), 1)).created).toBe(false);
    await j.settle(intent({ operation: "refund" }), "completed", { ok: 1 }, 2);
    expect((await j.get(intent()))?.status).toBe("sending");
    expect((await j.get(intent({ target: "https://other.test" })))?.status).toBe("sending");
  });

  it("settle records status, result and updatedAt, keeping createdAt", async () => {
    await fresh();
    await j.begin(intent(), 1000);
    await j.settle(intent(), "completed", { id: "cus_1", nested: { list: [1, 2] } }, 1500);
    expect(await j.get(intent())).toEqual({
      ...intent(),
      confirmHash: null,
      status: "completed",
      result: { id: "cus_1", nested: { list: [1, 2] } },
      createdAt: 1000,
      updatedAt: 1500,
    });
  });

  it("settle of an unknown key records nothing", async () => {
    await fresh();
    await j.settle(intent({ key: "never-begun" }), "completed", {}, 1);
    expect(await j.get(intent({ key: "never-begun" }))).toBeUndefined();
  });

  it("get of an unknown key is undefined", async () => {
    await fresh();
    expect(await j.get(intent())).toBeUndefined();
  });

  it("a rejected entry is re-bound by begin (possibly to new parameters)", async () => {
    await fresh();
    await j.begin(intent(), 1000);
    await j.settle(intent(), "rejected", { code: "INVALID" }, 1100);
    const { entry, created } = await j.begin(intent({ paramsHash: "hash-B" }), 1200);
    expect(created).toBe(true);
    expect(entry).toMatchObject({ key: "key-1", paramsHash: "hash-B", status: "sending", result: null, updatedAt: 1200 });
    expect(await j.get(intent())).toEqual(entry);
    // Once re-bound it is taken again.
    expect(await j.begin(intent({ paramsHash: "hash-C" }), 1300)).toMatchObject({ created: false, entry: { paramsHash: "hash-B" } });
  });

  it("findUnfinished returns the newest unfinished entry with the same operation, target and params", async () => {
    await fresh();
    await j.begin(intent({ key: "old" }), 1000);
    await j.begin(intent({ key: "new" }), 2000);
    await j.begin(intent({ key: "other-params", paramsHash: "hash-B" }), 3000);
    await j.begin(intent({ key: "other-op", operation: "refund" }), 4000);
    await j.begin(intent({ key: "other-target", target: "https://other.test" }), 5000);
    expect((await j.findUnfinished("create_customer", "https://api.example.test", "hash-A"))?.key).toBe("new");
    expect((await j.findUnfinished("create_customer", "https://api.example.test", "hash-B"))?.key).toBe("other-params");
    expect((await j.findUnfinished("refund", "https://api.example.test", "hash-A"))?.key).toBe("other-op");
    expect((await j.findUnfinished("create_customer", "https://other.test", "hash-A"))?.key).toBe("other-target");
    expect(await j.findUnfinished("create_customer", "https://api.example.test", "hash-Z")).toBeUndefined();
  });

  it("findCompleted returns the newest completed entry with the same parameters and confirm token, within retention", async () => {
    await fresh();
    await j.begin(intent({ key: "spent", confirmHash: "tok-1" }), 1000);
    await j.settle(intent({ key: "spent" }), "completed", { id: "r1" }, 1001);
    await j.begin(intent({ key: "other-token", confirmHash: "tok-2" }), 2000);
    await j.settle(intent({ key: "other-token" }), "completed", { id: "r2" }, 2001);
    await j.begin(intent({ key: "unfinished", confirmHash: "tok-3" }), 3000);
    await j.begin(intent({ key: "rejected", confirmHash: "tok-4" }), 4000);
    await j.settle(intent({ key: "rejected" }), "rejected", null, 4001);
    expect(await j.findCompleted("create_customer", "https://api.example.test", "hash-A", "tok-1", 0)).toMatchObject({ key: "spent", result: { id: "r1" }, confirmHash: "tok-1" });
    expect((await j.findCompleted("create_customer", "https://api.example.test", "hash-A", "tok-2", 0))?.key).toBe("other-token");
    expect(await j.findCompleted("create_customer", "https://api.example.test", "hash-A", "tok-3", 0)).toBeUndefined();
    expect(await j.findCompleted("create_customer", "https://api.example.test", "hash-A", "tok-4", 0)).toBeUndefined();
    expect(await j.findCompleted("create_customer", "https://api.example.test", "hash-B", "tok-1", 0)).toBeUndefined();
    // Begun before the retention window: the platform has forgotten the key.
    expect(await j.findCompleted("create_customer", "https://api.example.test", "hash-A", "tok-1", 1500)).toBeUndefined();
  });

  it("findUnfinished counts sending and unknown entries, never completed or rejected ones", async () => {
    await fresh();
    await j.begin(intent({ key: "a" }), 1000);
    await j.settle(intent({ key: "a" }), "unknown", null, 1001);
    await j.begin(intent({ key: "b" }), 2000);
    await j.settle(intent({ key: "b" }), "completed", { id: 1 }, 2001);
    await j.begin(intent({ key: "c" }), 3000);
    await j.settle(intent({ key: "c" }), "rejected", null, 3001);
    expect(await j.findUnfinished("create_customer", "https://api.example.test", "hash-A")).toMatchObject({ key: "a", status: "unknown" });
    await j.settle(intent({ key: "a" }), "completed", { id: 2 }, 4000);
    expect(await j.findUnfinished("create_customer", "https://api.example.test", "hash-A")).toBeUndefined();
  });

  it("findUnfinished breaks a createdAt tie in favour of the entry begun last", async () => {
    await fresh();
    await j.begin(intent({ key: "first" }), 1000);
    await j.begin(intent({ key: "second" }), 1000);
    expect((await j.findUnfinished("create_customer", "https://api.example.test", "hash-A"))?.key).toBe("second");
  });

  it("a re-bound entry counts as begun at the time it was re-bound", async () => {
    await fresh();
    await j.begin(intent({ key: "A" }), 1000);
    await j.settle(intent({ key: "A" }), "rejected", null, 1001);
    await j.begin(intent({ key: "B" }), 2000);
    const rebound = await j.begin(intent({ key: "A" }), 3000);
    expect(rebound.entry.createdAt).toBe(3000);
    expect((await j.findUnfinished("create_customer", "https://api.example.test", "hash-A"))?.key).toBe("A");
  });

  it("uses the current time when no time is given", async () => {
    await fresh();
    const before = Date.now();
    const { entry } = await j.begin(intent());
    await j.settle(intent(), "completed", { ok: true });
    const after = Date.now();
    expect(entry.createdAt).toBeGreaterThanOrEqual(before);
    expect(entry.createdAt).toBeLessThanOrEqual(after);
    const settled = (await j.get(intent()))!;
    expect(settled.updatedAt).toBeGreaterThanOrEqual(entry.createdAt);
    expect(settled.updatedAt).toBeLessThanOrEqual(after);
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
    a.begin(intent(), 1000); // committed by begin itself: no explicit flush or close
    expect(b.get(intent())).toMatchObject({ status: "sending", paramsHash: "hash-A" });
    expect(b.begin(intent(), 2000).created).toBe(false);
    expect(b.findUnfinished("create_customer", "https://api.example.test", "hash-A")?.key).toBe("key-1");
    b.settle(intent(), "completed", { id: "cus_1" }, 3000);
    expect(a.get(intent())).toMatchObject({ status: "completed", result: { id: "cus_1" }, updatedAt: 3000 });
  });

  it("entries survive closing and reopening the file", () => {
    const path = tempDbPath();
    const a = new SqliteJournal(path);
    a.begin(intent(), 1000);
    a.settle(intent(), "unknown", { code: "CLIENT_NO_RESPONSE" }, 1001);
    a.close();
    const b = new SqliteJournal(path);
    opened.push(b);
    expect(b.get(intent())).toMatchObject({ status: "unknown", result: { code: "CLIENT_NO_RESPONSE" } });
    expect(b.findUnfinished("create_customer", "https://api.example.test", "hash-A")?.key).toBe("key-1");
  });

  it("a separate process sees an entry begun here while this connection stays open, and vice versa", () => {
    const path = tempDbPath();
    const j = new SqliteJournal(path);
    opened.push(j);
    j.begin(intent(), 1000);

    const seen = child(
      `const e = j.get({ operation: "create_customer", target: "https://api.example.test", key: "key-1" });
       const again = j.begin({ operation: "create_customer", target: "https://api.example.test", key: "key-1", paramsHash: "hash-A" }, 2000);
       const other = j.begin({ operation: "create_customer", target: "https://api.example.test", key: "key-2", paramsHash: "hash-A" }, 3000);
       console.log(JSON.stringify({ status: e?.status, created: again.created, otherCreated: other.created }));`,
      path,
    );
    expect(JSON.parse(seen)).toEqual({ status: "sending", created: false, otherCreated: true });

    // The child's row is visible here, and it is now the newest unfinished intent with these params.
    expect(j.get(intent({ key: "key-2" }))).toMatchObject({ status: "sending", createdAt: 3000 });
    expect(j.findUnfinished("create_customer", "https://api.example.test", "hash-A")?.key).toBe("key-2");

    // A settle by the child is visible here too.
    child(`j.settle({ operation: "create_customer", target: "https://api.example.test", key: "key-1" }, "completed", { id: "cus_9" }, 4000);`, path);
    expect(j.get(intent())).toMatchObject({ status: "completed", result: { id: "cus_9" } });
  });
});

describe("SqliteJournal written by an earlier version", () => {
  it("gets the confirm_hash column when opened, keeping its entries", async () => {
    const path = tempDbPath();
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(path);
    db.exec(`CREATE TABLE operation_journal (target TEXT NOT NULL, operation TEXT NOT NULL, key TEXT NOT NULL, params_hash TEXT NOT NULL,
      status TEXT NOT NULL, result TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (target, operation, key))`);
    db.prepare("INSERT INTO operation_journal VALUES ('t', 'op', 'k', 'h', 'completed', '{}', 1, 1)").run();
    db.close();
    const j = new SqliteJournal(path);
    opened.push(j);
    expect(j.get({ target: "t", operation: "op", key: "k" })).toMatchObject({ status: "completed", confirmHash: null });
    j.begin({ target: "t", operation: "op", key: "k2", paramsHash: "h", confirmHash: "c" }, 5);
    j.settle({ target: "t", operation: "op", key: "k2" }, "completed", {}, 6);
    expect(j.findCompleted("op", "t", "h", "c", 0)?.key).toBe("k2");
    // A second process opening the migrated file changes nothing.
    opened.push(new SqliteJournal(path));
  });
});
