/**
 * The PostgreSQL journal as replicas use it: two journals (two pools, as two processes have) on one
 * database; its schema, versioned and migrated once; a URL that cannot be used named with its
 * password masked. The journal contract itself runs on PostgreSQL in journal.test.ts.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type ClaimRequest, JournalUnusableError } from "../../src/runtime/journal.js";
import { maskedUrl, PostgresJournal, POSTGRES_JOURNAL_SCHEMA } from "../../src/runtime/journal-postgres.js";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";

const postgres = await postgresAvailable();
afterAll(() => dropSchemas());

const ref = (key: string) => ({ operation: "create_customer", target: "https://api.example.test", key });
/** Call `claimant`'s claim: by its key when one is given, else by the parameters. */
const ask = (claimant: string, key: string | null = null): ClaimRequest => ({
  operation: "create_customer",
  target: "https://api.example.test",
  paramsHash: "hash-A",
  confirmHash: null,
  key,
  newKey: `new-${claimant}`,
  claimant,
  leaseMs: 60_000,
  replaySince: null,
  recoveredSince: 0,
});

describe("maskedUrl", () => {
  it("hides the password and password-like parameters, keeps the rest", () => {
    expect(maskedUrl("postgres://app:s3cret-pw@db.internal:5432/journal?sslmode=require&password=x")).toBe("postgres://app:***@db.internal:5432/journal?sslmode=require&password=***");
    expect(maskedUrl("postgresql://db/journal")).toBe("postgresql://db/journal");
    expect(maskedUrl("postgres://u:pw@[bad/x")).toBe("(a PostgreSQL URL that cannot be parsed)");
  });
});

describe("a URL that cannot be used", () => {
  it("is a JournalUnusableError naming the database, never the password, and nothing is written elsewhere", async () => {
    const journal = new PostgresJournal("postgres://app:hunter2-secret@127.0.0.1:1/journal");
    const error = await Promise.resolve(journal.claim(ask("a", "k"))).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JournalUnusableError);
    expect((error as Error).message).toContain("postgres://app:***@127.0.0.1:1/journal");
    expect((error as Error).message).toMatch(/nothing accepts connections there/);
    expect(JSON.stringify(error)).not.toContain("hunter2");
    expect((error as Error).message).not.toContain("hunter2");
    journal.close();
  });
});

describe.skipIf(!postgres)("two replicas on one PostgreSQL journal", () => {
  it("concurrent claims of one key from two replicas: exactly one records the intent and sends it", async () => {
    const url = await freshSchemaUrl();
    const [a, b] = [new PostgresJournal(url), new PostgresJournal(url)];
    try {
      const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).claim(ask(`c${i}`, "same-key"), 1000 + i)));
      expect(claims.filter((c) => c.kind === "send")).toHaveLength(1);
      expect(claims.filter((c) => c.kind === "wait")).toHaveLength(49);
      expect(new Set(claims.map((c) => c.entry.createdAt)).size).toBe(1);
    } finally {
      a.close();
      b.close();
    }
  });

  it("an intent recorded on one replica is found by the other (a retry after a lost response sends the same key)", async () => {
    const url = await freshSchemaUrl();
    const [a, b] = [new PostgresJournal(url), new PostgresJournal(url)];
    try {
      await a.claim(ask("on-a", "key-from-a"), 1000);
      await a.settle(ref("key-from-a"), "on-a", "unknown", { message: "the response was lost" }, 1001);
      expect(await b.claim(ask("on-b"), 1002)).toMatchObject({ kind: "send", entry: { key: "key-from-a", recovered: true } });
      await b.settle(ref("key-from-a"), "on-b", "completed", { id: "cus_1" }, 1003);
      expect(await a.get(ref("key-from-a"))).toMatchObject({ status: "completed", result: { id: "cus_1" } });
    } finally {
      a.close();
      b.close();
    }
  });

  it("the schema is versioned and created once, however many replicas start together; a newer schema is refused by name", async () => {
    const url = await freshSchemaUrl();
    const replicas = Array.from({ length: 5 }, () => new PostgresJournal(url));
    try {
      await Promise.all(replicas.map((j, i) => j.claim(ask(`c${i}`, `k${i}`), 1)));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        expect((await client.query("SELECT max(version) AS version FROM contractgen_journal_schema")).rows).toEqual([{ version: POSTGRES_JOURNAL_SCHEMA }]);
        await client.query("INSERT INTO contractgen_journal_schema (version) VALUES (99)");
      } finally {
        await client.end();
      }
      const newer = new PostgresJournal(url);
      const error = await Promise.resolve(newer.get(ref("k0"))).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(JournalUnusableError);
      expect((error as Error).message).toMatch(/journal schema is version 99, newer than this runtime's 2/);
      newer.close();
    } finally {
      for (const j of replicas) j.close();
    }
  });

  it("a journal of schema version 1 (before claims) is migrated to 2, keeping its entries; its sending intents are taken over", async () => {
    const url = await freshSchemaUrl();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE TABLE contractgen_journal_schema (version INTEGER NOT NULL); INSERT INTO contractgen_journal_schema VALUES (1);
        CREATE TABLE operation_journal (target TEXT NOT NULL, operation TEXT NOT NULL, key TEXT NOT NULL, params_hash TEXT NOT NULL, confirm_hash TEXT,
          status TEXT NOT NULL, result JSONB, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, seq BIGSERIAL, PRIMARY KEY (target, operation, key));
        INSERT INTO operation_journal (target, operation, key, params_hash, status, result, created_at, updated_at)
          VALUES ('https://api.example.test', 'create_customer', 'old-sending', 'hash-A', 'sending', NULL, 1, 1),
                 ('https://api.example.test', 'create_customer', 'old-done', 'hash-B', 'completed', '{"id":"cus_0"}', 1, 1)`);
    } finally {
      await client.end();
    }
    const j = new PostgresJournal(url);
    try {
      expect(await j.get(ref("old-done"))).toMatchObject({ status: "completed", result: { id: "cus_0" }, claimant: null, recovered: false });
      expect(await j.claim(ask("now"), 5)).toMatchObject({ kind: "send", entry: { key: "old-sending", claimant: "now", recovered: true } });
    } finally {
      j.close();
    }
  });
});
