// Journal overhead per keyed call, in a SQLite file and in PostgreSQL on loopback (and in memory):
// - the SDK's operation journal around one mutation (the atomic claim that finds or records the
//   intent, then the outcome);
// - the contract host's records around one keyed execution on the server side (claim the key, run
//   the execution in a transaction that records its response) and around a retry (the replay).
// Usage: npm run bench:journal (part of npm run bench). Rounds alternate the stores, so load on this
// shared machine hits them alike; the figure is the median per call over all rounds.
// PostgreSQL: CONTRACTGEN_TEST_PG_URL, else postgres://postgres@127.0.0.1:5432/postgres (a schema of
// its own, dropped at the end); the row is left out when no server answers.
// Writes bench/results/journal.json and journal.md.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { MemoryJournal, SqliteJournal } from "../dist/src/runtime/journal.js";
import { PostgresJournal } from "../dist/src/runtime/journal-postgres.js";
import { openDatabase } from "../dist/src/host-runtime/sqlite.js";
import { SqliteHostStore } from "../dist/src/host-runtime/store-sqlite.js";
import { PostgresHostStore } from "../dist/src/host-runtime/store-postgres.js";

const CALLS = Number(process.env.CALLS ?? 500);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const PG_URL = process.env.CONTRACTGEN_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const work = mkdtempSync(join(tmpdir(), "contractgen-bench-journal-"));

async function postgresSchemaUrl() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const name = `cg_bench_${process.pid}`;
    await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    await client.query(`CREATE SCHEMA ${name}`);
    const url = new URL(PG_URL);
    url.searchParams.set("options", `-c search_path=${name}`);
    return { url: url.toString(), drop: () => dropSchema(name) };
  } catch (e) {
    console.error(`no PostgreSQL at ${PG_URL.replace(/:[^:@/]*@/, ":***@")} (${e.code ?? e.message}): its row is left out`);
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function dropSchema(name) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  } finally {
    await client.end();
  }
}

const schema = await postgresSchemaUrl();
const stores = [
  { name: "memory", journal: new MemoryJournal() },
  { name: "SQLite file (WAL)", journal: new SqliteJournal(join(work, "journal.sqlite")) },
  ...(schema ? [{ name: "PostgreSQL (loopback)", journal: new PostgresJournal(schema.url) }] : []),
];

let serial = 0;
/** One keyed call's journal work, as src/runtime/client.ts does it around a mutation. */
async function keyedCall(journal) {
  const n = serial++;
  const now = Date.now();
  const request = {
    operation: "create_customer",
    target: "https://api.example.test",
    paramsHash: `hash-${n}`,
    confirmHash: null,
    key: null,
    newKey: `key-${n}`,
    claimant: `call-${n}`,
    leaseMs: 15_000,
    replaySince: null,
    recoveredSince: now - 60_000,
  };
  const claim = await journal.claim(request, now);
  if (claim.kind !== "send") throw new Error(`call ${n} was not sent: ${claim.kind}`);
  await journal.settle(claim.entry, request.claimant, "completed", { id: `cus_${n}`, email: "a@example.com", name: "A" });
}

const samples = new Map(stores.map((s) => [s.name, []]));
for (const s of stores) for (let i = 0; i < 50; i++) await keyedCall(s.journal); // warm-up (PostgreSQL: connect and migrate)
for (let r = 0; r < ROUNDS; r++) {
  for (const s of r % 2 === 0 ? stores : [...stores].reverse()) {
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      await keyedCall(s.journal);
      samples.get(s.name).push(performance.now() - t);
    }
  }
}
for (const s of stores) s.journal.close();

// The host's records (server side): a keyed execution, then its retry.
const hostDb = openDatabase(join(work, "host.sqlite"));
const hosts = [
  { name: "SQLite file (WAL)", store: new SqliteHostStore(hostDb) },
  ...(schema ? [{ name: "PostgreSQL (loopback)", store: new PostgresHostStore(schema.url) }] : []),
];
const answer = JSON.stringify({ id: "cus_1", email: "a@example.com", name: "A", revision: 1, created_at: "2026-12-03T00:00:00.000Z" });
async function hostExecution(store, n) {
  const claim = await store.claimKey({ operation: "create_customer", scope: "caller", key: `key-${n}` }, `hash-${n}`, 86_400_000, Date.now(), null);
  if (claim.kind !== "claimed") throw new Error(`key-${n} was not claimed: ${claim.kind}`);
  await claim.lease.execute(201, async () => answer);
}
async function hostReplay(store, n) {
  const claim = await store.claimKey({ operation: "create_customer", scope: "caller", key: `key-${n}` }, `hash-${n}`, 86_400_000, Date.now(), null);
  if (claim.kind !== "replay") throw new Error(`key-${n} was not replayed: ${claim.kind}`);
}
const hostSamples = new Map(hosts.flatMap((h) => [[`${h.name} execute`, []], [`${h.name} replay`, []]]));
for (const h of hosts) for (let i = 0; i < 50; i++) await hostExecution(h.store, serial++);
for (let r = 0; r < ROUNDS; r++) {
  for (const h of r % 2 === 0 ? hosts : [...hosts].reverse()) {
    const first = serial;
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      await hostExecution(h.store, serial++);
      hostSamples.get(`${h.name} execute`).push(performance.now() - t);
    }
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      await hostReplay(h.store, first + i);
      hostSamples.get(`${h.name} replay`).push(performance.now() - t);
    }
  }
}
for (const h of hosts) await h.store.close();
hostDb.close();
await schema?.drop();
rmSync(work, { recursive: true, force: true });

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const rows = stores.map((s) => ({ store: s.name, p50Ms: pct(samples.get(s.name), 50), p99Ms: pct(samples.get(s.name), 99) }));
const sqlite = rows.find((r) => r.store.startsWith("SQLite"));
const hostRows = [...hostSamples].map(([what, xs]) => ({ what, p50Ms: pct(xs, 50), p99Ms: pct(xs, 99) }));
const report = { date: new Date().toISOString(), node: process.version, callsPerRound: CALLS, rounds: ROUNDS, rows, hostRows, loadAverage: loadavg() };
writeFileSync("bench/results/journal.json", `${JSON.stringify(report, null, 2)}\n`);
const md = [
  "# Journal overhead per keyed call",
  "",
  `Node ${process.version}. One keyed call's journal work as the SDK does it (one atomic claim that finds the intent the call repeats or records a new one before sending, then the outcome), ${CALLS} calls per round, ${ROUNDS} rounds alternating the stores, after 50 warm-up calls each. PostgreSQL runs on this machine (loopback), as in the tests.`,
  "",
  "| store | p50 per call (ms) | p99 per call (ms) | p50 vs SQLite |",
  "|---|---:|---:|---:|",
  ...rows.map((r) => `| ${r.store} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} | ${(r.p50Ms / sqlite.p50Ms).toFixed(2)} |`),
  "",
  "## The host's records per keyed call (server side)",
  "",
  `What the contract host adds around one keyed execution (claim the key under its lock, then run the execution in one transaction that records its response; the handler itself does nothing here) and around its retry (the recorded answer replayed), ${CALLS} of each per round. On PostgreSQL the claim is one short transaction and the execution another, on one connection that holds the key until it commits; on SQLite the claim is part of the execution's transaction (BEGIN IMMEDIATE), so a replay takes the write lock too.`,
  "",
  "| store, step | p50 per call (ms) | p99 per call (ms) |",
  "|---|---:|---:|",
  ...hostRows.map((r) => `| ${r.what} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} |`),
  "",
  `Load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(", ")} (shared 2-core machine).`,
  "",
];
writeFileSync("bench/results/journal.md", md.join("\n"));
console.log(md.join("\n"));
