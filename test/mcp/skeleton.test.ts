/**
 * Skeleton mode (`generate --mcp skeleton`): handler stubs a platform team fills in, served through
 * the contract host. Generated with the real CLI, compiled with the package's own tsconfig (strict),
 * then driven through a real MCP Client in memory: stubs answer NOT_IMPLEMENTED; filled-in handlers
 * get the journal, confirm tokens and preconditions from the host; regeneration keeps them.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsM from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { copyPackageData } from "../support/sdk-data.js";

const BIN = resolve("bin/contractgen.js");
const TSC = resolve("node_modules/typescript/bin/tsc");
// Inside the repository, so the generated packages resolve their dependencies from its node_modules.
const WORK = resolve("test-results/skeleton");
const BILLING = join(WORK, "billing");
const INCIDENTS = join(WORK, "incidents");

function contractgen(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
}

/** Compile a generated package with its own tsconfig (strict) into `outDir`; tsc's output, empty when clean. */
function build(dir: string, outDir: string): string {
  const r = spawnSync(process.execPath, [TSC, "-p", join(dir, "tsconfig.json"), "--outDir", join(dir, outDir)], { encoding: "utf8" });
  // As the package's build script does: the precompiled validators and the contract data are copied, not compiled.
  if (r.status === 0) copyPackageData(dir, join(dir, outDir));
  return r.stdout + r.stderr + (r.status === 0 ? "" : `exit ${r.status}`);
}

type ServerModule = { createServer(options?: Record<string, unknown>, serve?: Record<string, unknown>): { connect(t: unknown): Promise<void>; close(): Promise<void> } };

async function connect(serverJs: string, options: Record<string, unknown> = {}, serve: Record<string, unknown> = {}) {
  const mod = (await import(pathToFileURL(serverJs).href)) as ServerModule;
  const server = mod.createServer(options, serve);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const ajv = new Ajv2020({ strict: false });
  (addFormatsM as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  const client = new Client({ name: "skeleton-test", version: "1.0.0" }, { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv as never) });
  await client.connect(clientSide);
  await client.listTools(); // later results are validated against the listed output schemas
  return {
    call: async (tool: string, args: Record<string, unknown>) => (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Operation keys are UUIDs in the billing contract. */
const key = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const json = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text) as Record<string, any>;
const errorOf = (r: CallToolResult) => {
  expect(r.isError, JSON.stringify(r.content)).toBe(true);
  return json(r).error as Record<string, any>;
};
const resultOf = (r: CallToolResult) => {
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  return r.structuredContent as Record<string, any>;
};

// -- a tiny billing implementation, as a platform team would write it ---------------------------------

const STORE = `// Shared by the handlers: tables in the host's database, and a count of handler executions.
import type { HandlerContext } from "../handler-types.js";
import { PlatformError } from "../host/errors.js";
import type { Customer, Invoice } from "../../sdk/types.js";

export const executions = new Map<string, number>();
export function executed(op: string): void {
  executions.set(op, (executions.get(op) ?? 0) + 1);
}

export function db(ctx: HandlerContext) {
  ctx.db.exec("CREATE TABLE IF NOT EXISTS customers (id TEXT PRIMARY KEY, body TEXT NOT NULL)");
  ctx.db.exec("CREATE TABLE IF NOT EXISTS invoices (id TEXT PRIMARY KEY, body TEXT NOT NULL)");
  const seed: Invoice = { id: "inv_1", customer_id: "cus_0", status: "failed", total_cents: 5000, refunded_cents: 0, currency: "EUR" };
  ctx.db.prepare("INSERT OR IGNORE INTO invoices (id, body) VALUES (?, ?)").run(seed.id, JSON.stringify(seed));
  return ctx.db;
}

export function customer(ctx: HandlerContext, id: string): Customer {
  const row = db(ctx).prepare("SELECT body FROM customers WHERE id = ?").get(id) as { body: string } | undefined;
  if (!row) throw new PlatformError("CUSTOMER_NOT_FOUND", "No customer " + id);
  return JSON.parse(row.body) as Customer;
}

export function invoice(ctx: HandlerContext, id: string): Invoice {
  const row = db(ctx).prepare("SELECT body FROM invoices WHERE id = ?").get(id) as { body: string } | undefined;
  if (!row) throw new PlatformError("INVOICE_NOT_FOUND", "No invoice " + id);
  return JSON.parse(row.body) as Invoice;
}
`;

const FILLED: Record<string, string> = {
  "create-customer.ts": `import type { CreateCustomerHandler } from "../handler-types.js";
import { db, executed } from "./store.js";

export const handler: CreateCustomerHandler = (input, ctx) => {
  executed("create_customer");
  const count = (db(ctx).prepare("SELECT COUNT(*) AS n FROM customers").get() as { n: number }).n;
  const customer = { id: "cus_" + (count + 1), email: input.email, name: input.name, revision: 1, created_at: "2026-01-01T00:00:00Z" };
  db(ctx).prepare("INSERT INTO customers (id, body) VALUES (?, ?)").run(customer.id, JSON.stringify(customer));
  return customer;
};
`,
  "get-customer.ts": `import type { GetCustomerHandler } from "../handler-types.js";
import { customer } from "./store.js";

export const handler: GetCustomerHandler = (input, ctx) => customer(ctx, input.customer_id);
`,
  "list-customers.ts": `import type { ListCustomersHandler } from "../handler-types.js";
import type { Customer } from "../../sdk/types.js";
import { db } from "./store.js";

export const handler: ListCustomersHandler = (input, ctx) => {
  const rows = db(ctx).prepare("SELECT body FROM customers ORDER BY id").all() as Array<{ body: string }>;
  const customers = rows.map((r) => JSON.parse(r.body) as Customer).filter((c) => input.email === undefined || c.email === input.email);
  return { customers, next_cursor: null, total_count: customers.length };
};
`,
  "update-customer.ts": `import type { UpdateCustomerHandler } from "../handler-types.js";
import type { Customer } from "../../sdk/types.js";
import { customer, db, executed } from "./store.js";

export const handler: UpdateCustomerHandler<Customer> = {
  target: (input, ctx) => customer(ctx, input.customer_id),
  execute(input, ctx, current) {
    executed("update_customer");
    const next = { ...current, email: input.email ?? current.email, name: input.name ?? current.name, revision: current.revision + 1 };
    db(ctx).prepare("UPDATE customers SET body = ? WHERE id = ?").run(JSON.stringify(next), next.id);
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
import { db, executed, invoice } from "./store.js";

function balance(inv: Invoice): number {
  return inv.total_cents - inv.refunded_cents;
}

export const handler: RefundInvoiceHandler<Invoice> = {
  target: (input, ctx) => invoice(ctx, input.invoice_id),
  preview(input, ctx, confirmation) {
    const inv = invoice(ctx, input.invoice_id);
    if (input.amount > balance(inv)) throw new PlatformError("REFUND_EXCEEDS_BALANCE", "Too much", { details: { refundable_cents: balance(inv) } });
    return { invoice_id: inv.id, amount: input.amount, balance_after_cents: balance(inv) - input.amount, expires_at: confirmation.expiresAt };
  },
  execute(input, ctx, inv) {
    executed("refund_invoice");
    if (input.amount > balance(inv)) throw new PlatformError("REFUND_EXCEEDS_BALANCE", "Too much", { details: { refundable_cents: balance(inv) } });
    const next = { ...inv, refunded_cents: inv.refunded_cents + input.amount };
    db(ctx).prepare("UPDATE invoices SET body = ? WHERE id = ?").run(JSON.stringify(next), inv.id);
    return { id: "re_" + next.refunded_cents, invoice_id: inv.id, amount: input.amount, status: "succeeded" };
  },
};
`,
};

let stubs: Map<string, string>;

beforeAll(() => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  for (const [spec, dir] of [["specs/billing.v2.yaml", BILLING], ["specs/incidents.yaml", INCIDENTS]] as const) {
    const r = contractgen("generate", spec, "-o", dir, "--mcp", "skeleton");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  }
  stubs = new Map(Object.keys(FILLED).map((f) => [f, readFileSync(join(BILLING, "mcp/handlers", f), "utf8")]));
}, 60_000);

describe("skeleton: generated stubs", () => {
  it("one typed handler file per operation, wired by a regenerated index; the manifest marks them write-once", () => {
    expect([...stubs.keys()].every((f) => existsSync(join(BILLING, "mcp/handlers", f)))).toBe(true);
    const refund = stubs.get("refund-invoice.ts")!;
    expect(refund).toContain("export const handler: RefundInvoiceHandler = {");
    expect(refund).toContain("Refund a failed or disputed invoice, once.");
    expect(refund).toContain("throw new NotImplementedError(");
    expect(readFileSync(join(BILLING, "mcp/handler-types.ts"), "utf8")).toContain("preview(input: T.RefundInvoiceInput, ctx: HandlerContext, confirmation: Confirmation): Omit<T.RefundInvoicePreview, \"confirm_token\"> | Promise<Omit<T.RefundInvoicePreview, \"confirm_token\">>;");
    expect(readFileSync(join(BILLING, "mcp/handlers.ts"), "utf8")).toContain('REGISTERED.set("refund_invoice", refundInvoice);');
    const manifest = JSON.parse(readFileSync(join(BILLING, ".contractgen.json"), "utf8")) as { files: Record<string, string>; writeOnce: string[] };
    expect(manifest.writeOnce).toContain("mcp/handlers/refund-invoice.ts");
    expect(Object.keys(manifest.files)).not.toContain("mcp/handlers/refund-invoice.ts");
    expect(Object.keys(manifest.files)).toContain("mcp/handlers.ts");
  });

  it.each([
    ["billing", BILLING, "get_customer", { customer_id: "cus_1" }],
    ["incidents", INCIDENTS, "list_incidents", {}],
  ])("%s compiles under tsc --strict, and a stub answers isError NOT_IMPLEMENTED (class internal, nothing executed)", async (_name, dir, tool, args) => {
    expect(build(dir, "dist-stubs")).toBe("");
    const c = await connect(join(dir, "dist-stubs/mcp/server.js"));
    try {
      const error = errorOf(await c.call(tool, args));
      expect(error).toMatchObject({ code: "NOT_IMPLEMENTED", class: "internal", action: "stop_and_surface", outcome: "rejected" });
      expect(error.message).toContain("not implemented");
    } finally {
      await c.close();
    }
  }, 120_000);
});

describe("skeleton: filled-in handlers behind the contract host", () => {
  let serverJs: string;
  let store: { executions: Map<string, number> };
  const database = () => join(WORK, `host-${Math.random().toString(36).slice(2)}.sqlite`);

  beforeAll(async () => {
    writeFileSync(join(BILLING, "mcp/handlers/store.ts"), STORE);
    for (const [file, text] of Object.entries(FILLED)) writeFileSync(join(BILLING, "mcp/handlers", file), text);
    expect(build(BILLING, "dist-filled")).toBe("");
    serverJs = join(BILLING, "dist-filled/mcp/server.js");
    store = (await import(pathToFileURL(join(BILLING, "dist-filled/mcp/handlers/store.js")).href)) as typeof store;
  }, 120_000);

  it("a retry with the same key returns the recorded outcome with one effect, also from a new server on the same database; other parameters under the key are refused", async () => {
    const file = database();
    const before = store.executions.get("create_customer") ?? 0;
    const first = await connect(serverJs, { database: file });
    const args = { email: "ada@example.com", name: "Ada", idempotency_key: key(1) };
    let created: Record<string, any>;
    try {
      created = resultOf(await first.call("create_customer", args));
      expect(resultOf(await first.call("create_customer", args))).toEqual(created);
      const refused = errorOf(await first.call("create_customer", { ...args, name: "Grace" }));
      expect(refused).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", class: "conflict", outcome: "rejected" });
    } finally {
      await first.close();
    }
    // A new server (as after a restart) sharing the host's database replays the same outcome.
    const second = await connect(serverJs, { database: file });
    try {
      expect(resultOf(await second.call("create_customer", args))).toEqual(created);
      expect(resultOf(await second.call("list_customers", {})).total_count).toBe(1);
    } finally {
      await second.close();
    }
    expect((store.executions.get("create_customer") ?? 0) - before).toBe(1);
  }, 30_000);

  it("preview then confirm executes once; a missing, foreign or spent token is refused and changes nothing", async () => {
    const c = await connect(serverJs, { database: database() });
    const before = store.executions.get("refund_invoice") ?? 0;
    try {
      const preview = resultOf(await c.call("refund_invoice", { invoice_id: "inv_1", amount: 1200 }));
      expect(preview).toMatchObject({ invoice_id: "inv_1", amount: 1200, balance_after_cents: 3800 });
      expect(typeof preview.confirm_token).toBe("string");
      const other = resultOf(await c.call("refund_invoice", { invoice_id: "inv_1", amount: 100, dry_run: true }));

      const missing = errorOf(await c.call("refund_invoice", { invoice_id: "inv_1", amount: 1200, dry_run: false, idempotency_key: key(11) }));
      expect(missing).toMatchObject({ code: "CONFIRMATION_REQUIRED", class: "conflict", details: { reason: "missing" } });
      const foreign = errorOf(await c.call("refund_invoice", { invoice_id: "inv_1", amount: 1200, dry_run: false, confirm_token: other.confirm_token, idempotency_key: key(12) }));
      expect(foreign).toMatchObject({ code: "CONFIRMATION_REQUIRED", details: { reason: "other_parameters" } });
      expect(store.executions.get("refund_invoice") ?? 0).toBe(before);

      const refund = resultOf(await c.call("refund_invoice", { invoice_id: "inv_1", amount: 1200, dry_run: false, confirm_token: preview.confirm_token, idempotency_key: key(13) }));
      expect(refund).toMatchObject({ invoice_id: "inv_1", amount: 1200, status: "succeeded" });
      const spent = errorOf(await c.call("refund_invoice", { invoice_id: "inv_1", amount: 1200, dry_run: false, confirm_token: preview.confirm_token, idempotency_key: key(14) }));
      expect(spent).toMatchObject({ code: "CONFIRMATION_REQUIRED", details: { reason: "used" } });
      expect((store.executions.get("refund_invoice") ?? 0) - before).toBe(1);
      expect(resultOf(await c.call("get_invoice", { invoice_id: "inv_1" })).refunded_cents).toBe(1200);
    } finally {
      await c.close();
    }
  }, 30_000);

  it("code mode runs programs against the host's handlers: a keyed create re-run is one effect, a traversal is complete, a preview is confirmed only in a later execute", async () => {
    const c = await connect(serverJs, { database: database() }, { code: true });
    const creates = store.executions.get("create_customer") ?? 0;
    const refunds = store.executions.get("refund_invoice") ?? 0;
    // An execute's answer is text (the program's result), not a tool's structured content.
    const ran = (r: CallToolResult) => {
      expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
      return json(r).result as Record<string, any>;
    };
    try {
      const create = `return await client.createCustomer({ email: "code@example.com", name: "Code", idempotency_key: ${JSON.stringify(key(30))} });`;
      const created = ran(await c.call("execute", { code: create }));
      expect(ran(await c.call("execute", { code: create }))).toEqual(created);
      expect((store.executions.get("create_customer") ?? 0) - creates).toBe(1);
      const listed = ran(await c.call("execute", { code: `const r = await client.listCustomersAll({}, { maxPages: 5 }).collect(); return { ids: r.items.map((x) => x.id), complete: r.complete };` }));
      expect(listed).toEqual({ ids: [created.id], complete: true });

      const oneGo = errorOf(await c.call("execute", { code: `const p = await client.previewRefundInvoice({ invoice_id: "inv_1", amount: 300 });\nreturn await client.refundInvoice({ invoice_id: "inv_1", amount: 300, confirm_token: p.confirm_token });` }));
      expect(oneGo).toMatchObject({ code: "CODE_THREW", thrown: { code: "CODE_CONFIRM_SAME_PROGRAM" } });
      expect(store.executions.get("refund_invoice") ?? 0).toBe(refunds);
      const preview = ran(await c.call("execute", { code: `return await client.previewRefundInvoice({ invoice_id: "inv_1", amount: 300 });` }));
      const done = ran(await c.call("execute", { code: `return await client.refundInvoice({ invoice_id: "inv_1", amount: 300, confirm_token: ${JSON.stringify(preview.confirm_token)}, idempotency_key: ${JSON.stringify(key(31))} });` }));
      expect(done).toMatchObject({ invoice_id: "inv_1", amount: 300, status: "succeeded" });
      expect((store.executions.get("refund_invoice") ?? 0) - refunds).toBe(1);
    } finally {
      await c.close();
    }
  }, 60_000);

  it("a stale revision is a conflict before the handler runs: nothing changed", async () => {
    const c = await connect(serverJs, { database: database() });
    try {
      const created = resultOf(await c.call("create_customer", { email: "b@example.com", name: "B", idempotency_key: key(20) }));
      const before = store.executions.get("update_customer") ?? 0;
      const stale = errorOf(await c.call("update_customer", { customer_id: created.id, expected_revision: created.revision + 1, name: "C" }));
      expect(stale).toMatchObject({ code: "REVISION_CONFLICT", class: "conflict", action: "reread_and_replan", field: "expected_revision", outcome: "rejected" });
      expect(store.executions.get("update_customer") ?? 0).toBe(before);
      expect(resultOf(await c.call("get_customer", { customer_id: created.id }))).toEqual(created);
      const updated = resultOf(await c.call("update_customer", { customer_id: created.id, expected_revision: created.revision, name: "C" }));
      expect(updated).toMatchObject({ name: "C", revision: created.revision + 1 });
    } finally {
      await c.close();
    }
  }, 30_000);

  it("a handler failing with a contract code keeps its class and details", async () => {
    const c = await connect(serverJs, { database: database() });
    try {
      const error = errorOf(await c.call("refund_invoice", { invoice_id: "inv_1", amount: 9000, dry_run: true }));
      expect(error).toMatchObject({ code: "REFUND_EXCEEDS_BALANCE", class: "conflict", details: { refundable_cents: 5000 } });
      expect(errorOf(await c.call("get_customer", { customer_id: "cus_404" }))).toMatchObject({ code: "CUSTOMER_NOT_FOUND", class: "not_found", action: "verify_identifier" });
    } finally {
      await c.close();
    }
  }, 30_000);

  it("regenerating keeps every filled-in handler byte for byte, and --check calls nothing stale", () => {
    const r = contractgen("generate", "specs/billing.v2.yaml", "-o", BILLING, "--mcp", "skeleton");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    for (const [file, text] of Object.entries(FILLED)) expect(readFileSync(join(BILLING, "mcp/handlers", file), "utf8"), file).toBe(text);
    const check = contractgen("generate", "specs/billing.v2.yaml", "-o", BILLING, "--mcp", "skeleton", "--check");
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    // --force replaces edited generated files, never a handler.
    expect(contractgen("generate", "specs/billing.v2.yaml", "-o", BILLING, "--mcp", "skeleton", "--force").status).toBe(0);
    for (const [file, text] of Object.entries(FILLED)) expect(readFileSync(join(BILLING, "mcp/handlers", file), "utf8"), file).toBe(text);
  }, 60_000);
});

describe("skeleton: operations leaving the contract", () => {
  const contract = (ops: string[]) => `contract: shop
version: 1.0.0
changelog:
  - { version: 1.0.0, date: 2026-01-01, summary: First. }
transport:
  http: { baseUrl: "http://127.0.0.1:1" }
errors:
  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }
operations:
${ops
  .map(
    (op) => `  ${op}:
    summary: Read one ${op}.
    http: { method: GET, path: /${op} }
    effects: { kind: read }
    input: { type: object, properties: { q: { type: string } } }
    output: { type: object, properties: { id: { type: string } } }
`,
  )
  .join("")}`;

  it("a removed operation's filled-in handler is kept and named, a missing stub is created again, and --check passes after", () => {
    const dir = join(WORK, "shop");
    const spec = join(WORK, "shop.yaml");
    writeFileSync(spec, contract(["get_note", "get_tag"]));
    expect(contractgen("generate", spec, "-o", dir, "--mcp", "skeleton").status).toBe(0);
    const filled = "export const handler = () => ({ id: \"mine\" });\n";
    writeFileSync(join(dir, "mcp/handlers/get-tag.ts"), filled);

    writeFileSync(spec, contract(["get_note"]));
    const r = contractgen("generate", spec, "-o", dir, "--mcp", "skeleton");
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("warning: kept mcp/handlers/get-tag.ts");
    expect(readFileSync(join(dir, "mcp/handlers/get-tag.ts"), "utf8")).toBe(filled);
    expect(readFileSync(join(dir, "mcp/handlers.ts"), "utf8")).not.toContain("get-tag");
    expect(contractgen("generate", spec, "-o", dir, "--mcp", "skeleton", "--check").status).toBe(0);

    rmSync(join(dir, "mcp/handlers/get-note.ts"));
    const check = contractgen("generate", spec, "-o", dir, "--mcp", "skeleton", "--check");
    expect(check.status).toBe(1);
    expect(check.stderr).toContain("missing: mcp/handlers/get-note.ts");
    expect(contractgen("generate", spec, "-o", dir, "--mcp", "skeleton").status).toBe(0);
    expect(readFileSync(join(dir, "mcp/handlers/get-note.ts"), "utf8")).toContain("NotImplementedError");
  }, 60_000);
});
