/**
 * A COMMIT whose acknowledgement is lost (the PostgreSQL connection drops after the server received
 * it): the execution may have taken effect with its recorded answer, so the host must not answer
 * "rejected, nothing was changed" — a client would then free the key and a retry without it would
 * execute a second time. The host answers with an unknown outcome, and the retry under the key gets
 * the recorded answer. Before CommitUnconfirmedError the answer was 500 with outcome "rejected".
 */
import { afterAll, describe, expect, it } from "vitest";
import { ContractHost } from "../../src/host-runtime/contract-host.js";
import { CommitUnconfirmedError } from "../../src/host-runtime/store.js";
import { PostgresHostStore } from "../../src/host-runtime/store-postgres.js";
import type { PgClient, PgPool } from "../../src/runtime/postgres.js";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";

const postgres = await postgresAvailable();
afterAll(() => dropSchemas());

/** A store whose next execution's COMMIT reaches the server and commits, and then reports the connection lost. */
class CommitAckLost extends PostgresHostStore {
  armed = false;

  override async pool(): Promise<PgPool> {
    const pool = await super.pool();
    const store = this;
    const wrap = (client: PgClient): PgClient => {
      // The execution's transaction records its answer before it commits (a claim's COMMIT is not the one).
      let recordsAnswer = false;
      return new Proxy(client, {
        get(target, name) {
          if (name !== "query") return Reflect.get(target, name, target);
          return async (text: string, values?: readonly unknown[]) => {
            const result = await target.query(text, values);
            if (text.includes("SET state = 'done'")) recordsAnswer = true;
            if (text === "COMMIT" && recordsAnswer && store.armed) {
              store.armed = false;
              throw Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
            }
            return result;
          };
        },
      });
    };
    return new Proxy(pool, {
      get(target, name) {
        if (name === "connect") return async () => wrap(await target.connect());
        const member = Reflect.get(target, name, target) as unknown;
        return typeof member === "function" ? member.bind(target) : member;
      },
    });
  }
}

const operation = {
  names: { id: "create_thing" },
  scopes: [],
  errors: [],
  preconditions: [],
  pagination: null,
  projection: null,
  task: null,
  http: { method: "POST", path: "/things", bindings: [], body: null, successStatus: 201 },
  effects: { kind: "mutating" },
  input: { schema: { type: "object", required: ["key"], properties: { key: { type: "string" }, label: { type: "string" } } } },
  output: { schema: { type: "object" } },
  idempotency: { keyField: "key", retentionMs: 86_400_000, scope: "global", mismatchError: null, keyRequired: true },
  preview: null,
};

describe.skipIf(!postgres)("a COMMIT whose acknowledgement is lost", () => {
  it("the store says the commit is unconfirmed; the host answers outcome unknown; the retry under the key replays the committed answer, one effect", async () => {
    const store = new CommitAckLost(await freshSchemaUrl());
    const logged: string[] = [];
    try {
      await store.read(({ sql }) => sql!.query("CREATE TABLE things (label TEXT NOT NULL)"));
      const host = new ContractHost({
        model: { name: "things", version: "1", transport: { auth: { type: "none" } }, errors: [], operations: [operation] } as never,
        store,
        credentials: new Map(),
        log: (line) => logged.push(line),
        handlers: {
          create_thing: async (input: { label?: string }, ctx: { sql: { query(text: string, values: unknown[]): Promise<unknown> } | null }) => {
            await ctx.sql!.query("INSERT INTO things (label) VALUES ($1)", [input.label ?? "x"]);
            return { label: input.label ?? "x" };
          },
        } as never,
      });
      const caller = host.authenticate(null)!;
      const call = () => host.invoke({ operation: operation as never, input: { key: "k-1", label: "one" }, caller, requestId: "r" });

      store.armed = true;
      const lost = await call();
      expect(lost.status).toBe(500);
      expect(JSON.parse(lost.body).error).toMatchObject({ outcome: "unknown", message: expect.stringMatching(/may have taken effect/) });
      expect(logged.join("\n")).toMatch(/lost while the execution was being committed/);

      const retry = await call();
      expect(retry.status).toBe(201);
      expect(retry.headers["Idempotent-Replayed"]).toBe("true");
      expect(JSON.parse(retry.body)).toEqual({ label: "one" });
      expect(await store.read(async ({ sql }) => (await sql!.query<{ n: string }>("SELECT count(*) AS n FROM things")).rows[0]!.n)).toBe("1");
    } finally {
      await store.close();
    }
  });

  it("the error the store raises names the loss, and keeps the driver's error as its cause", () => {
    const cause = Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
    const error = new CommitUnconfirmedError(cause);
    expect(error.message).toMatch(/connection was lost while the execution was being committed/);
    expect(error.cause).toBe(cause);
  });
});
