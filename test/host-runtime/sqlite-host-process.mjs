// One process of a platform whose contract host keeps its records in a SQLite file shared with other
// processes (sqlite-processes.test.ts). It runs the built host (dist/) and reads one JSON command a
// line on stdin — { id, operation, input, at } — and answers each on stdout — { id, status, body,
// replayed } — after spinning until the wall clock reaches `at`, so that processes told the same `at`
// call at the same moment. Commands run concurrently. After { hold: key, ms }, the next execution under
// `key` prints { holding: key } once its change is made, then keeps its transaction open `ms` longer.
//
// argv[2]: { file, retentionMs, keyWaitMs, busyTimeoutMs? } (busyTimeoutMs replaces better-sqlite3's 5 s).
import { createInterface } from "node:readline";

const config = JSON.parse(process.argv[2]);
const dist = new URL("../../dist/src/host-runtime/", import.meta.url);
const { openDatabase } = await import(new URL("sqlite.js", dist).href);
const { ContractHost } = await import(new URL("contract-host.js", dist).href);

const db = openDatabase(config.file);
if (config.busyTimeoutMs !== undefined) db.pragma(`busy_timeout = ${config.busyTimeoutMs}`);
db.exec("CREATE TABLE IF NOT EXISTS effects (key TEXT NOT NULL, pid INTEGER NOT NULL)");

const write = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** Executions to hold open, by key (ms). */
const holds = new Map();

async function effect(ctx, key, input) {
  ctx.db.prepare("INSERT INTO effects (key, pid) VALUES (?, ?)").run(key, process.pid);
  const hold = holds.get(key);
  if (hold !== undefined) {
    holds.delete(key);
    write({ holding: key });
    await new Promise((resolve) => setTimeout(resolve, hold));
  }
  return { pid: process.pid, label: input.label ?? null };
}

const common = { scopes: [], errors: [], preconditions: [], pagination: null, projection: null, task: null, output: { schema: { type: "object" } } };
const keyed = { keyField: "key", retentionMs: config.retentionMs, scope: "global", mismatchError: null };
const operations = [
  {
    ...common,
    names: { id: "create_thing" },
    http: { method: "POST", path: "/things", bindings: [], body: null, successStatus: 201 },
    effects: { kind: "mutating" },
    input: { schema: { type: "object", required: ["key"], properties: { key: { type: "string" }, label: { type: "string" } } } },
    idempotency: keyed,
    preview: null,
  },
  {
    ...common,
    names: { id: "delete_thing" },
    http: { method: "DELETE", path: "/things", bindings: [], body: null, successStatus: 200 },
    effects: { kind: "mutating" },
    input: { schema: { type: "object", required: ["thing"], properties: { thing: { type: "string" }, dry_run: { type: "boolean" }, confirm_token: { type: "string" } } } },
    idempotency: null,
    preview: { dryRunField: "dry_run", defaultDryRun: false, confirmTokenField: "confirm_token", ttlMs: 60_000, output: null, invalidTokenError: null, singleUse: true },
  },
];
const model = { name: "shared-file", version: "1", transport: { auth: { type: "none" } }, errors: [], operations };

const host = new ContractHost({
  model,
  db,
  credentials: new Map(),
  keyWaitMs: config.keyWaitMs,
  log: (line) => process.stderr.write(`[host ${process.pid}] ${line}\n`),
  handlers: {
    create_thing: (input, ctx) => effect(ctx, input.key, input),
    delete_thing: {
      preview: (input) => ({ would_delete: input.thing }),
      execute: (input, ctx) => effect(ctx, `deleted ${input.thing}`, input),
    },
  },
});
const caller = host.authenticate(null);
const byId = new Map(operations.map((op) => [op.names.id, op]));

write({ ready: true, pid: process.pid });
let requests = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const { id, operation, input, at, hold, ms } = JSON.parse(line);
  if (hold !== undefined) {
    holds.set(hold, ms);
    continue;
  }
  void (async () => {
    while (performance.timeOrigin + performance.now() < at); // the processes given one `at` call together
    const answer = await host.invoke({ operation: byId.get(operation), input, caller, requestId: `${process.pid}-${requests++}` });
    write({ id, status: answer.status, body: JSON.parse(answer.body || "null"), replayed: answer.headers["Idempotent-Replayed"] === "true" });
  })();
}
