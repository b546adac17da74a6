/**
 * Issue 9 behaviours through the generated billing SDK and CLI (generated-examples/billing.v2, built
 * by global-setup) against the reference platform: preconditions on previews, errors with their field
 * and typed details, and previews that need no operation key.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { existsSync } from "node:fs";
import { openDatabase } from "../../examples/shared/sqlite.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_CODES } from "../../src/cli-runtime/exit-codes.js";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";

const SDK = resolve("test-results/sdk/billing.v2/sdk/index.js");
const TOKEN = "e2e-behaviour-token";
type Sdk = typeof import("../../generated-examples/billing.v2/sdk/index.js");

let sdk: Sdk;
let platform: RunningPlatform;
const dir = mkdtempSync(join(tmpdir(), "contractgen-e2e-behaviour-"));
let journals = 0;
const freshJournal = () => join(dir, `journal-${++journals}.sqlite`);

beforeAll(async () => {
  sdk = (await import(SDK)) as Sdk;
  platform = await startBillingServer({ token: TOKEN });
});
afterAll(async () => {
  await platform?.close();
});

/** A client whose requests are recorded (method, path, idempotency-key header). */
function client(journal: string) {
  const sent: Array<{ method: string; url: string; key: string | null }> = [];
  const recording: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({ method: init?.method ?? "GET", url: String(input), key: headers.get("idempotency-key") });
    return fetch(input, init);
  };
  const c = new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal, fetch: recording });
  return { c, sent };
}

/** The rows of an SDK operation journal file (none when the file was never created). */
function journalRows(path: string): Array<{ key: string; status: string }> {
  if (!existsSync(path)) return [];
  const db = openDatabase(path);
  try {
    return db.prepare("SELECT key, status FROM operation_journal").all() as Array<{ key: string; status: string }>;
  } finally {
    db.close();
  }
}

const refundedCents = (id: string) => (platform.db.prepare("SELECT refunded_cents FROM invoices WHERE id = ?").get(id) as { refunded_cents: number }).refunded_cents;

describe("no key needed to look (SDK)", () => {
  it("a preview sends no key and journals nothing; the execution mints one key and has one effect", async () => {
    const journal = freshJournal();
    const { c, sent } = client(journal);
    try {
      const preview = await c.previewRefundInvoice({ invoice_id: "inv_1006", amount: 300 });
      expect(typeof preview.confirm_token).toBe("string");
      expect(sent).toHaveLength(1);
      expect(sent[0]!.key).toBeNull();
      expect(journalRows(journal)).toEqual([]);

      const before = refundedCents("inv_1006");
      const done = await c.refundInvoice({ invoice_id: "inv_1006", amount: 300, confirm_token: preview.confirm_token });
      expect(done.amount).toBe(300);
      expect(refundedCents("inv_1006")).toBe(before + 300);
      const rows = journalRows(journal);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
      expect(sent[1]!.key).toBe(rows[0]!.key);
    } finally {
      c.close();
    }
  });
});

describe("preconditions on previews and typed error details (SDK)", () => {
  it("a preview with a stale expectation throws the execution's error, with its field and details, and issues no token", async () => {
    const { c } = client(freshJournal());
    try {
      const error = await c.previewRefundInvoice({ invoice_id: "inv_1004", amount: 100, expected_refunded_cents: 0 }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(sdk.isContractError(error, "INVOICE_CHANGED")).toBe(true);
      if (!sdk.isContractError(error, "INVOICE_CHANGED")) return;
      expect(error.field).toBe("expected_refunded_cents");
      expect(error.details?.refunded_cents).toBe(45_000);
      expect(error.errorClass).toBe("conflict");
      expect(error.action).toBe("reread_and_replan");
      // With the current value the preview goes through.
      const preview = await c.previewRefundInvoice({ invoice_id: "inv_1004", amount: 100, expected_refunded_cents: error.details!.refunded_cents });
      expect(typeof preview.confirm_token).toBe("string");
    } finally {
      c.close();
    }
  });

  it("the generated error types compile under tsc --strict (per-code details, narrowing by code)", () => {
    const tsc = join(process.cwd(), "node_modules/typescript/bin/tsc");
    const args = ["--noEmit", "--strict", "--target", "ES2022", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--skipLibCheck", "--types", "node", "--lib", "ES2023,DOM", "test/e2e/typed-errors.check.ts"];
    expect(() => execFileSync(process.execPath, [tsc, ...args], { encoding: "utf8", stdio: "pipe" })).not.toThrow();
  });
});

describe("the CLI", () => {
  async function cli(args: string[]): Promise<{ code: number; json: any; stderr: string }> {
    const main = resolve("test-results/sdk/billing.v2/cli/main.js");
    const argv = [main, "--base-url", platform.url, "--journal", join(dir, "cli.sqlite"), ...args];
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, argv, { encoding: "utf8", env: { PATH: process.env.PATH ?? "", BILLING_TOKEN: TOKEN } });
      return { code: 0, json: JSON.parse(stdout), stderr };
    } catch (e) {
      const err = e as { code: number; stdout: string; stderr: string };
      // An error leaves stdout empty; its JSON is the first line of stderr.
      expect(err.stdout).toBe("");
      return { code: err.code, json: JSON.parse(err.stderr.split("\n", 1)[0]!), stderr: err.stderr };
    }
  }

  it("--dry-run with a stale --expected-… fails like the execution, printing field and details; no token", async () => {
    const r = await cli(["refund-invoice", "--invoice-id", "inv_1004", "--amount", "100", "--expected-refunded-cents", "0", "--dry-run"]);
    expect(r.code).toBe(EXIT_CODES.conflict);
    expect(r.json.error).toMatchObject({ code: "INVOICE_CHANGED", field: "expected_refunded_cents", details: { refunded_cents: 45_000 }, outcome: "rejected" });
    expect(JSON.stringify(r.json)).not.toContain("confirm_token");
  });

  it("--dry-run without --operation-key previews and journals nothing", async () => {
    const journal = join(dir, "cli-preview.sqlite");
    const preview = await cli(["--journal", journal, "refund-invoice", "--invoice-id", "inv_1003", "--amount", "100", "--dry-run"]);
    expect(preview.code).toBe(0);
    expect(typeof preview.json.confirm_token).toBe("string");
    expect(journalRows(journal)).toEqual([]);
  });
});
