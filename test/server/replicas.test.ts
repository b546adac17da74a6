/**
 * Two replicas of a generated HTTP server skeleton (billing, handlers a team would write on PostgreSQL
 * through ctx.sql, asynchronous) on one PostgreSQL database, each a process of the built bin:
 * - a response lost on replica A, retried on replica B: one effect, B replays A's answer;
 * - 50 concurrent calls with one key spread over both: one effect, one answer;
 * - replica A killed with SIGKILL mid-call, the retry on B: one effect and the recorded outcome;
 * - a confirm token spent on A is refused on B;
 * - SIGTERM with calls in flight: they finish (and are recorded) before the process exits 0;
 * and two replicas of the same package's skeleton MCP server (the same handlers and host) on the
 * same database: 50 concurrent calls with one key over both ⇒ one effect.
 * Skipped, saying so, where no PostgreSQL answers (CI requires one: CONTRACTGEN_REQUIRE_POSTGRES=1).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dropSchemas, freshSchemaUrl, postgresAvailable } from "../support/postgres.js";
import { copyPackageData } from "../support/sdk-data.js";

const BIN = resolve("bin/contractgen.js");
const TSC = resolve("node_modules/typescript/bin/tsc");
const PKG = resolve("test-results/server-replicas/billing");
const TOKEN = "replica-test-token-0123456789abcdef";

// -- the billing handlers, as a team writes them on PostgreSQL ----------------------------------

const HANDLERS: Record<string, string> = {
  "store.ts": `// Shared by the handlers: the platform's tables live in the PostgreSQL database the host uses.
import type { HandlerContext } from "../handler-types.js";
import type { SqlClient } from "../host/contract-host.js";
import { PlatformError } from "../host/errors.js";
import type { Customer, Invoice } from "../../sdk/types.js";

export function sql(ctx: HandlerContext): SqlClient {
  if (!ctx.sql) throw new Error("this platform keeps its data in PostgreSQL");
  return ctx.sql;
}

/** A pause inside the call (after its change, before its answer), for tests that stop a replica mid-call. */
export async function slowDown(): Promise<void> {
  const ms = Number(process.env["BILLING_TEST_SLOW_MS"] ?? 0);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

interface CustomerRow { seq: number; email: string; name: string; revision: number; created_at: string }
export const customerOf = (r: CustomerRow): Customer => ({ id: "cus_" + r.seq, email: r.email, name: r.name, revision: r.revision, created_at: r.created_at });

export async function customer(ctx: HandlerContext, id: string): Promise<Customer> {
  const seq = /^cus_(\\d+)$/.exec(id)?.[1];
  const { rows } = seq === undefined ? { rows: [] } : await sql(ctx).query<CustomerRow>("SELECT * FROM customers WHERE seq = $1", [Number(seq)]);
  if (!rows[0]) throw new PlatformError("CUSTOMER_NOT_FOUND", "No customer " + id);
  return customerOf(rows[0]);
}

export async function invoice(ctx: HandlerContext, id: string, lock = false): Promise<Invoice> {
  const { rows } = await sql(ctx).query<Invoice>("SELECT * FROM invoices WHERE id = $1" + (lock ? " FOR UPDATE" : ""), [id]);
  if (!rows[0]) throw new PlatformError("INVOICE_NOT_FOUND", "No invoice " + id);
  return rows[0];
}
`,
  "create-customer.ts": `import type { CreateCustomerHandler } from "../handler-types.js";
import { customerOf, slowDown, sql } from "./store.js";

export const handler: CreateCustomerHandler = async (input, ctx) => {
  const { rows } = await sql(ctx).query<Parameters<typeof customerOf>[0]>(
    "INSERT INTO customers (email, name, revision, created_at) VALUES ($1, $2, 1, $3) RETURNING *",
    [input.email, input.name, ctx.now().toISOString()],
  );
  await slowDown();
  return customerOf(rows[0]!);
};
`,
  "get-customer.ts": `import type { GetCustomerHandler } from "../handler-types.js";
import { customer } from "./store.js";

export const handler: GetCustomerHandler = (input, ctx) => customer(ctx, input.customer_id);
`,
  "list-customers.ts": `import type { ListCustomersHandler } from "../handler-types.js";
import { customerOf, sql } from "./store.js";

export const handler: ListCustomersHandler = async (input, ctx) => {
  const { rows } = await sql(ctx).query<Parameters<typeof customerOf>[0]>("SELECT * FROM customers WHERE $1::text IS NULL OR email = $1 ORDER BY seq", [input.email ?? null]);
  return { customers: rows.map(customerOf), next_cursor: null, total_count: rows.length };
};
`,
  "update-customer.ts": `import type { UpdateCustomerHandler } from "../handler-types.js";
import type { Customer } from "../../sdk/types.js";
import { customer, sql } from "./store.js";

export const handler: UpdateCustomerHandler<Customer> = {
  target: (input, ctx) => customer(ctx, input.customer_id),
  async execute(input, ctx, current) {
    const next = { ...current, email: input.email ?? current.email, name: input.name ?? current.name, revision: current.revision + 1 };
    await sql(ctx).query("UPDATE customers SET email = $1, name = $2, revision = $3 WHERE seq = $4", [next.email, next.name, next.revision, Number(current.id.slice(4))]);
    return next;
  },
};
`,
  "get-invoice.ts": `import type { GetInvoiceHandler } from "../handler-types.js";
import { invoice } from "./store.js";

export const handler: GetInvoiceHandler = (input, ctx) => invoice(ctx, input.invoice_id);
`,
  "refund-invoice.ts": `import type { RefundInvoiceHandler } from "../handler-types.js";
import type { Invoice } from "../../sdk/types.js";
import { PlatformError } from "../host/errors.js";
import { invoice, slowDown, sql } from "./store.js";

const balance = (inv: Invoice) => inv.total_cents - inv.refunded_cents;

export const handler: RefundInvoiceHandler<Invoice> = {
  // Inside the execution's transaction: the row stays locked until the refund commits.
  target: (input, ctx) => invoice(ctx, input.invoice_id, ctx.operation.names.id === "refund_invoice" && input.dry_run === false),
  async preview(input, ctx, confirmation) {
    const inv = await invoice(ctx, input.invoice_id);
    if (input.amount > balance(inv)) throw new PlatformError("REFUND_EXCEEDS_BALANCE", "Too much", { details: { refundable_cents: balance(inv) } });
    return { invoice_id: inv.id, amount: input.amount, balance_after_cents: balance(inv) - input.amount, expires_at: confirmation.expiresAt };
  },
  async execute(input, ctx, inv) {
    if (input.amount > balance(inv)) throw new PlatformError("REFUND_EXCEEDS_BALANCE", "Too much", { details: { refundable_cents: balance(inv) } });
    await sql(ctx).query("UPDATE invoices SET refunded_cents = refunded_cents + $1 WHERE id = $2", [input.amount, inv.id]);
    const { rows } = await sql(ctx).query<{ seq: number }>("INSERT INTO refunds (invoice_id, amount) VALUES ($1, $2) RETURNING seq", [inv.id, input.amount]);
    await slowDown();
    return { id: "re_" + rows[0]!.seq, invoice_id: inv.id, amount: input.amount, status: "succeeded" };
  },
};
`,
};

const TABLES = `
  CREATE TABLE customers (seq SERIAL PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL, revision INTEGER NOT NULL, created_at TEXT NOT NULL);
  CREATE TABLE invoices (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, status TEXT NOT NULL, total_cents INTEGER NOT NULL, refunded_cents INTEGER NOT NULL, currency TEXT NOT NULL);
  CREATE TABLE refunds (seq SERIAL PRIMARY KEY, invoice_id TEXT NOT NULL, amount INTEGER NOT NULL);
  INSERT INTO invoices VALUES ('inv_1', 'cus_1', 'failed', 500000, 0, 'EUR');
`;

// -- replicas -----------------------------------------------------------------------------------

interface Replica {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
}

const available = await postgresAvailable();
let databaseUrl = "";
let admin: pg.Client;
const replicas: Replica[] = [];

function startReplica(env: Record<string, string> = {}): Promise<Replica> {
  const child = spawn(process.execPath, [join(PKG, "dist/server/main.js"), "--port", "0", "--database", databaseUrl, "--drain-timeout", "10"], {
    env: { ...process.env, BILLING_SERVER_TOKEN: TOKEN, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  return new Promise((resolvePromise, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /serving at (\S+);/.exec(stderr)?.[1];
      if (url) {
        const replica = { child, url, stderr: () => stderr };
        replicas.push(replica);
        resolvePromise(replica);
      }
    });
    child.on("exit", (code) => reject(new Error(`replica exited (${code}) before serving:\n${stderr}`)));
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((done) => (child.exitCode !== null || child.signalCode !== null ? done(child.exitCode) : child.once("exit", (code) => done(code))));

async function call(replica: Replica, method: string, path: string, body: unknown, key?: string): Promise<{ status: number; replayed: boolean; body: any }> {
  const response = await fetch(`${replica.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", ...(key ? { "idempotency-key": key } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, replayed: response.headers.get("idempotent-replayed") === "true", body: await response.json() };
}

const count = async (table: string) => Number((await admin.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

describe.skipIf(!available)("server skeleton replicas on one PostgreSQL", () => {
  beforeAll(async () => {
    rmSync(PKG, { recursive: true, force: true });
    const generated = spawnSync(process.execPath, [BIN, "generate", "specs/billing.v2.yaml", "-o", PKG, "--server", "skeleton"], { encoding: "utf8" });
    expect(generated.status, generated.stderr).toBe(0);
    for (const [file, text] of Object.entries(HANDLERS)) writeFileSync(join(PKG, "mcp/handlers", file), text);
    const built = spawnSync(process.execPath, [TSC, "-p", join(PKG, "tsconfig.json")], { encoding: "utf8" });
    expect(built.stdout + built.stderr).toBe("");
    copyPackageData(PKG, join(PKG, "dist"));
  }, 120_000);

  // Each test: a fresh schema (the platform's tables, and the host's, created by the first replica).
  beforeEach(async () => {
    databaseUrl = await freshSchemaUrl();
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(TABLES);
  });

  afterEach(async () => {
    for (const replica of replicas.splice(0)) {
      if (replica.child.exitCode === null && replica.child.signalCode === null) {
        replica.child.kill("SIGKILL");
        await exited(replica.child);
      }
    }
    await admin.end();
  });

  afterAll(async () => {
    rmSync(PKG, { recursive: true, force: true });
    await dropSchemas();
  });

  it("a response lost on A, retried on B: one customer; B answers with A's recorded response", async () => {
    const [a, b] = [await startReplica(), await startReplica()];
    const key = randomUUID();
    const input = { email: "lost@example.com", name: "Lost Response" };
    const first = await call(a, "POST", "/customers", input, key);
    expect(first.status).toBe(201);
    // The client never saw `first`: it retries, and the load balancer picks B.
    const retry = await call(b, "POST", "/customers", input, key);
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe(true);
    expect(retry.body).toEqual(first.body);
    expect(await count("customers")).toBe(1);
    // Other parameters under the key are refused on either replica.
    expect((await call(b, "POST", "/customers", { ...input, name: "Other" }, key)).body.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("50 concurrent calls with one key, spread over A and B: one customer, one answer", async () => {
    const [a, b] = [await startReplica(), await startReplica()];
    const key = randomUUID();
    const input = { email: "race@example.com", name: "Race" };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => call(i % 2 === 0 ? a : b, "POST", "/customers", input, key)));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(answers.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(await count("customers")).toBe(1);
  });

  it("A killed with SIGKILL mid-call: the retry on B executes once and its outcome is recorded", async () => {
    const a = await startReplica({ BILLING_TEST_SLOW_MS: "60000" });
    const b = await startReplica();
    const key = randomUUID();
    const input = { email: "killed@example.com", name: "Killed Mid-Call" };
    const lost = call(a, "POST", "/customers", input, key).catch((e: Error) => e);
    // A has claimed the key (committed) and is inside its execution (the insert not yet committed).
    for (let i = 0; i < 500 && Number((await admin.query("SELECT count(*) AS n FROM host_idempotency WHERE key = $1 AND state = 'in_progress'", [key])).rows[0].n) === 0; i++) await sleep(20);
    await sleep(200);
    a.child.kill("SIGKILL");
    await exited(a.child);
    expect(await lost).toBeInstanceOf(Error);
    const retry = await call(b, "POST", "/customers", input, key);
    expect(retry.status).toBe(201);
    expect(retry.replayed).toBe(false);
    expect(await count("customers")).toBe(1);
    const recorded = await admin.query("SELECT state, response_body FROM host_idempotency WHERE key = $1", [key]);
    expect(recorded.rows).toEqual([{ state: "done", response_body: JSON.stringify(retry.body) }]);
    const again = await call(b, "POST", "/customers", input, key);
    expect(again.replayed).toBe(true);
    expect(again.body).toEqual(retry.body);
  });

  it("a confirm token spent on A is refused on B; the refund happened once", async () => {
    const [a, b] = [await startReplica(), await startReplica()];
    const preview = await call(a, "POST", "/invoices/inv_1/refunds", { amount: 700, dry_run: true });
    expect(preview.status).toBe(200);
    const token = preview.body.confirm_token as string;
    const executed = await call(a, "POST", "/invoices/inv_1/refunds", { amount: 700, dry_run: false, confirm_token: token }, randomUUID());
    expect(executed.status).toBe(200);
    const reused = await call(b, "POST", "/invoices/inv_1/refunds", { amount: 700, dry_run: false, confirm_token: token }, randomUUID());
    expect(reused.body.error.code).toBe("CONFIRMATION_REQUIRED");
    expect(reused.body.error.details).toEqual({ reason: "used" });
    expect(await count("refunds")).toBe(1);
    expect((await admin.query("SELECT refunded_cents FROM invoices WHERE id = 'inv_1'")).rows[0].refunded_cents).toBe(700);
  });

  it("two skeleton MCP server replicas on the same database: 50 concurrent create_customer calls with one key make one customer", async () => {
    const [a, b] = [await startMcpReplica(), await startMcpReplica()];
    const clients = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const client = new Client({ name: "replicas", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL((i % 2 === 0 ? a : b).url)));
        return client;
      }),
    );
    try {
      const args = { email: "mcp-replicas@example.com", name: "Fifty MCP Calls", idempotency_key: randomUUID() };
      const results = (await Promise.all(Array.from({ length: 50 }, (_, i) => clients[i % clients.length]!.callTool({ name: "create_customer", arguments: args })))) as CallToolResult[];
      for (const r of results) expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
      expect(new Set(results.map((r) => JSON.stringify(r.structuredContent))).size).toBe(1);
      expect(await count("customers")).toBe(1);
    } finally {
      for (const c of clients) await c.close();
    }
  });

  it("SIGTERM with calls in flight: they finish and are recorded, new requests get 503, the process exits 0", async () => {
    const a = await startReplica({ BILLING_TEST_SLOW_MS: "800" });
    const keys = Array.from({ length: 10 }, () => randomUUID());
    const inFlight = keys.map((key, i) => call(a, "POST", "/customers", { email: `drain${i}@example.com`, name: "Drain" }, key));
    for (let i = 0; i < 500 && Number((await admin.query("SELECT count(*) AS n FROM host_idempotency WHERE state = 'in_progress'")).rows[0].n) < keys.length; i++) await sleep(20);
    a.child.kill("SIGTERM");
    await sleep(100);
    // The server keeps listening while it drains: a new request gets 503 with Retry-After, never a reset.
    const late = await fetch(`${a.url}/customers`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => [r.status, r.headers.get("retry-after")], (e: unknown) => String(e));
    expect(late).toEqual([503, "1"]);
    const answers = await Promise.all(inFlight);
    expect(answers.map((r) => r.status)).toEqual(Array(keys.length).fill(201));
    expect(await exited(a.child)).toBe(0);
    expect(await count("customers")).toBe(keys.length);
    expect(Number((await admin.query("SELECT count(*) AS n FROM host_idempotency WHERE state = 'done'")).rows[0].n)).toBe(keys.length);
  });
});

/** A replica of the package's skeleton MCP server over Streamable HTTP, its records in `databaseUrl`. */
function startMcpReplica(): Promise<Replica> {
  const child = spawn(process.execPath, [join(PKG, "dist/mcp/main.js"), "--http", "--port", "0"], {
    env: { ...process.env, BILLING_MCP_DATABASE: databaseUrl },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  return new Promise((resolvePromise, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /serving MCP over Streamable HTTP at (\S+)/.exec(stderr)?.[1];
      if (url) {
        const replica = { child, url, stderr: () => stderr };
        replicas.push(replica);
        resolvePromise(replica);
      }
    });
    child.on("exit", (code) => reject(new Error(`MCP replica exited (${code}) before serving:\n${stderr}`)));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
