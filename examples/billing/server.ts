/**
 * Reference implementation of specs/billing.v2.yaml: customers, invoices and refunds in SQLite.
 * Idempotency keys, the refund preview/confirm flow and the expected-revision precondition are
 * applied by the shared host from the contract; the handlers below only hold billing rules.
 */
import { randomBytes } from "node:crypto";
import type { Confirmation, HandlerContext, Handlers, RunningPlatform } from "../shared/host.js";
import { PlatformError } from "../shared/host.js";
import { type ExampleServerOptions, startExample } from "../shared/example.js";
import { listPage } from "../shared/paging.js";
import { allOf, equals } from "../shared/sql.js";
import type { Database } from "../shared/sqlite.js";

export const BILLING_SPEC = "specs/billing.v2.yaml";

// -- seed -------------------------------------------------------------------------------------------

export interface SeedCustomer {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly created_at: string;
}

export interface SeedInvoice {
  readonly id: string;
  readonly customer_id: string;
  readonly status: "open" | "paid" | "failed" | "disputed" | "refunded";
  readonly total_cents: number;
  readonly refunded_cents: number;
  readonly currency: string;
}

/** Customers present before any call, oldest first (list_customers returns them newest first). */
export const BILLING_SEED_CUSTOMERS: readonly SeedCustomer[] = [
  { id: "cus_ada001", email: "ada@example.com", name: "Ada Lovelace", created_at: "2026-01-05T09:00:00.000Z" },
  { id: "cus_grace002", email: "grace@example.com", name: "Grace Hopper", created_at: "2026-02-11T14:30:00.000Z" },
  { id: "cus_alan003", email: "alan@example.com", name: "Alan Turing", created_at: "2026-03-20T08:15:00.000Z" },
];

/** Invoices present before any call. Refundable balance = total_cents − refunded_cents. */
export const BILLING_SEED_INVOICES: readonly SeedInvoice[] = [
  { id: "inv_1001", customer_id: "cus_ada001", status: "paid", total_cents: 12_000, refunded_cents: 0, currency: "USD" },
  { id: "inv_1002", customer_id: "cus_ada001", status: "open", total_cents: 4_500, refunded_cents: 0, currency: "USD" },
  { id: "inv_1003", customer_id: "cus_grace002", status: "failed", total_cents: 9_900, refunded_cents: 0, currency: "USD" },
  // Half refunded already: a 90000 refund exceeds the 45000 left (the wire-protocol example).
  { id: "inv_1004", customer_id: "cus_grace002", status: "disputed", total_cents: 90_000, refunded_cents: 45_000, currency: "USD" },
  { id: "inv_1005", customer_id: "cus_alan003", status: "refunded", total_cents: 25_000, refunded_cents: 25_000, currency: "USD" },
  { id: "inv_1006", customer_id: "cus_alan003", status: "disputed", total_cents: 15_000, refunded_cents: 0, currency: "USD" },
];

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS customers (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT, -- insertion order: newest-first ties on created_at
    id         TEXT    NOT NULL UNIQUE,
    email      TEXT    NOT NULL COLLATE NOCASE,
    name       TEXT    NOT NULL,
    revision   INTEGER NOT NULL,
    created_at TEXT    NOT NULL
  );
  CREATE INDEX IF NOT EXISTS customers_by_email ON customers (email);
  CREATE TABLE IF NOT EXISTS invoices (
    id             TEXT    PRIMARY KEY,
    customer_id    TEXT    NOT NULL REFERENCES customers (id),
    status         TEXT    NOT NULL,
    total_cents    INTEGER NOT NULL,
    refunded_cents INTEGER NOT NULL,
    currency       TEXT    NOT NULL
  );
  CREATE TABLE IF NOT EXISTS refunds (
    id         TEXT    PRIMARY KEY,
    invoice_id TEXT    NOT NULL REFERENCES invoices (id),
    amount     INTEGER NOT NULL,
    reason     TEXT,
    status     TEXT    NOT NULL,
    created_at TEXT    NOT NULL
  );`;

function seed(db: Database): void {
  const customer = db.prepare("INSERT INTO customers (id, email, name, revision, created_at) VALUES (?, ?, ?, 1, ?)");
  for (const c of BILLING_SEED_CUSTOMERS) customer.run(c.id, c.email, c.name, c.created_at);
  const invoice = db.prepare("INSERT INTO invoices (id, customer_id, status, total_cents, refunded_cents, currency) VALUES (?, ?, ?, ?, ?, ?)");
  for (const i of BILLING_SEED_INVOICES) invoice.run(i.id, i.customer_id, i.status, i.total_cents, i.refunded_cents, i.currency);
}

// -- records ----------------------------------------------------------------------------------------

export interface Customer {
  id: string;
  email: string;
  name: string;
  revision: number;
  created_at: string;
}

interface CustomerRow extends Customer {
  seq: number;
}

type InvoiceRow = SeedInvoice;

export interface Refund {
  id: string;
  invoice_id: string;
  amount: number;
  status: "succeeded" | "pending";
}

function customerOf(row: CustomerRow): Customer {
  return { id: row.id, email: row.email, name: row.name, revision: row.revision, created_at: row.created_at };
}

function findCustomer(db: Database, id: string): CustomerRow | undefined {
  return db.prepare("SELECT * FROM customers WHERE id = ?").get(id) as CustomerRow | undefined;
}

function requireCustomer(db: Database, id: string): CustomerRow {
  const row = findCustomer(db, id);
  if (!row) throw new PlatformError("CUSTOMER_NOT_FOUND", `No customer ${id}.`);
  return row;
}

function requireInvoice(db: Database, id: string): InvoiceRow {
  const row = db.prepare("SELECT * FROM invoices WHERE id = ?").get(id) as InvoiceRow | undefined;
  if (!row) throw new PlatformError("INVOICE_NOT_FOUND", `No invoice ${id}.`);
  return row;
}

/**
 * An update may not move a customer onto an email another customer has (compared ignoring case).
 * Creation does not check: two create calls with distinct idempotency keys are two intents and
 * create two customers even with equal parameters (examples/README.md).
 */
function requireEmailFree(db: Database, email: string, customerId: string): void {
  const holder = db.prepare("SELECT id FROM customers WHERE email = ? AND id <> ?").get(email, customerId) as { id: string } | undefined;
  if (holder) throw new PlatformError("EMAIL_TAKEN", `Another customer already has the email ${email}.`, { field: "email" });
}

function randomId(prefix: string): string {
  return `${prefix}${randomBytes(9).toString("base64url").replace(/[^A-Za-z0-9]/g, "x")}`;
}

/** The part of the invoice that can still be refunded, or the error if `amount` exceeds it. */
function refundableAfter(invoice: InvoiceRow, amount: number): number {
  const refundable = invoice.total_cents - invoice.refunded_cents;
  if (amount > refundable) {
    throw new PlatformError("REFUND_EXCEEDS_BALANCE", `Refund of ${amount} exceeds the refundable balance ${refundable}.`, {
      field: "amount",
      details: { refundable_cents: refundable },
    });
  }
  return refundable - amount;
}

// -- handlers ---------------------------------------------------------------------------------------

interface CreateCustomerInput {
  email: string;
  name: string;
  idempotency_key: string;
}

interface UpdateCustomerInput {
  customer_id: string;
  expected_revision: number;
  email?: string;
  name?: string;
}

interface RefundInput {
  invoice_id: string;
  amount: number;
  reason?: string;
  expected_refunded_cents?: number;
  idempotency_key?: string;
  dry_run?: boolean;
  confirm_token?: string;
}

const handlers: Handlers = {
  create_customer(input: CreateCustomerInput, ctx: HandlerContext): Customer {
    const id = randomId("cus_");
    ctx.db
      .prepare("INSERT INTO customers (id, email, name, revision, created_at) VALUES (?, ?, ?, 1, ?)")
      .run(id, input.email, input.name, ctx.now().toISOString());
    return customerOf(requireCustomer(ctx.db, id));
  },

  get_customer(input: { customer_id: string }, ctx: HandlerContext): Customer {
    return customerOf(requireCustomer(ctx.db, input.customer_id));
  },

  list_customers(input: { email?: string }, ctx: HandlerContext) {
    return listPage<CustomerRow>(
      ctx,
      input,
      {
        table: "customers",
        where: allOf(equals("email", input.email)),
        orderBy: [
          { column: "created_at", direction: "desc" },
          { column: "seq", direction: "desc" },
        ],
        toItem: customerOf,
      },
      // The contract sets no cursor lifetime for customers.
      { ttlMs: null, expiredCode: null },
    );
  },

  update_customer: {
    // The host compares expected_revision with this record's revision in the update's transaction.
    target: (input: UpdateCustomerInput, ctx: HandlerContext): CustomerRow => requireCustomer(ctx.db, input.customer_id),
    execute(input: UpdateCustomerInput, ctx: HandlerContext, current: CustomerRow): Customer {
      if (input.email !== undefined) requireEmailFree(ctx.db, input.email, current.id);
      ctx.db
        .prepare(`UPDATE customers SET email = ?, name = ?, revision = revision ${ctx.seededDefect === "revision-not-bumped" ? "" : "+ 1"} WHERE id = ?`)
        .run(input.email ?? current.email, input.name ?? current.name, current.id);
      return customerOf(requireCustomer(ctx.db, current.id));
    },
  },

  get_invoice(input: { invoice_id: string }, ctx: HandlerContext): InvoiceRow {
    return requireInvoice(ctx.db, input.invoice_id);
  },

  refund_invoice: {
    // The host compares expected_refunded_cents with this invoice, for previews and executions alike.
    target: (input: RefundInput, ctx: HandlerContext): InvoiceRow => requireInvoice(ctx.db, input.invoice_id),
    preview(input: RefundInput, ctx: HandlerContext, confirmation: Confirmation) {
      const invoice = requireInvoice(ctx.db, input.invoice_id);
      return {
        invoice_id: invoice.id,
        amount: input.amount,
        balance_after_cents: refundableAfter(invoice, input.amount),
        confirm_token: confirmation.token,
        expires_at: confirmation.expiresAt,
      };
    },
    execute(input: RefundInput, ctx: HandlerContext): Refund {
      const invoice = requireInvoice(ctx.db, input.invoice_id);
      // Seeded defect: the balance the preview checked is taken for granted (a refund past the total goes through).
      const balanceAfter =
        ctx.seededDefect === "balance-checked-at-preview-only" ? Math.max(0, invoice.total_cents - invoice.refunded_cents - input.amount) : refundableAfter(invoice, input.amount);
      ctx.db
        .prepare(`UPDATE invoices SET refunded_cents = refunded_cents + ?, status = CASE WHEN ? = 0 THEN 'refunded' ELSE ${ctx.seededDefect === "execution-exceeds-preview" ? "'open'" : "status"} END WHERE id = ?`)
        .run(input.amount, balanceAfter, invoice.id);
      const refund: Refund = { id: randomId("re_"), invoice_id: invoice.id, amount: input.amount, status: "succeeded" };
      ctx.db
        .prepare("INSERT INTO refunds (id, invoice_id, amount, reason, status, created_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(refund.id, refund.invoice_id, refund.amount, input.reason ?? null, refund.status, ctx.now().toISOString());
      return refund;
    },
  },
};

export type BillingDataset = "default" | "empty";

export interface BillingServerOptions extends ExampleServerOptions {
  /** "default" seeds BILLING_SEED_CUSTOMERS and BILLING_SEED_INVOICES; "empty" seeds nothing. */
  readonly dataset?: BillingDataset;
}

/** Start the billing platform on 127.0.0.1 (seeded with BILLING_SEED_CUSTOMERS and BILLING_SEED_INVOICES unless the data set is "empty"). */
export function startBillingServer(options: BillingServerOptions = {}): Promise<RunningPlatform> {
  const dataset = options.dataset ?? "default";
  return startExample({ spec: BILLING_SPEC, schema: SCHEMA, dataset, seed: dataset === "empty" ? () => undefined : seed, handlers }, options);
}
