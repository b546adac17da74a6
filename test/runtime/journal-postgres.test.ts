/**
 * The PostgreSQL journal as replicas use it: two journals (two pools, as two processes have) on one
 * database; its schema, versioned and migrated once; a URL that cannot be used named with its
 * password masked. The journal contract itself runs on PostgreSQL in journal.test.ts.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { JournalUnusableError } from "../../src/runtime/journal.js";
import { maskedUrl, PostgresJournal, POSTGRES_JOURNAL_SCHEMA } from "../../src/runtime/journal-postgres.js";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";

const postgres = await postgresAvailable();
afterAll(() => dropSchemas());

const intent = (key: string, paramsHash = "hash-A") => ({ operation: "create_customer", target: "https://api.example.test", key, paramsHash });

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
    const error = await Promise.resolve(journal.begin(intent("k"))).then(
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
  it("concurrent begins of one key from two replicas: exactly one records the intent", async () => {
    const url = await freshSchemaUrl();
    const [a, b] = [new PostgresJournal(url), new PostgresJournal(url)];
    try {
      const begins = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).begin(intent("same-key"), 1000 + i)));
      expect(begins.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(begins.map((r) => r.entry.createdAt)).size).toBe(1);
    } finally {
      a.close();
      b.close();
    }
  });

  it("an intent recorded on one replica is found by the other (a retry after a lost response sends the same key)", async () => {
    const url = await freshSchemaUrl();
    const [a, b] = [new PostgresJournal(url), new PostgresJournal(url)];
    try {
      await a.begin(intent("key-from-a"), 1000);
      await a.settle(intent("key-from-a"), "unknown", { message: "the response was lost" }, 1001);
      expect((await b.findUnfinished("create_customer", "https://api.example.test", "hash-A"))?.key).toBe("key-from-a");
      await b.settle(intent("key-from-a"), "completed", { id: "cus_1" }, 1002);
      expect(await a.get(intent("key-from-a"))).toMatchObject({ status: "completed", result: { id: "cus_1" } });
    } finally {
      a.close();
      b.close();
    }
  });

  it("the schema is versioned and created once, however many replicas start together; a newer schema is refused by name", async () => {
    const url = await freshSchemaUrl();
    const replicas = Array.from({ length: 5 }, () => new PostgresJournal(url));
    try {
      await Promise.all(replicas.map((j, i) => j.begin(intent(`k${i}`), 1)));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        expect((await client.query("SELECT version FROM contractgen_journal_schema")).rows).toEqual([{ version: POSTGRES_JOURNAL_SCHEMA }]);
        await client.query("INSERT INTO contractgen_journal_schema (version) VALUES (99)");
      } finally {
        await client.end();
      }
      const newer = new PostgresJournal(url);
      const error = await Promise.resolve(newer.get(intent("k0"))).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(JournalUnusableError);
      expect((error as Error).message).toMatch(/journal schema is version 99, newer than this runtime's 1/);
      newer.close();
    } finally {
      for (const j of replicas) j.close();
    }
  });
});
