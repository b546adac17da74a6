/**
 * The generated CLIs (generated-examples/*, built by global-setup) run as real processes against
 * the reference platforms: machine mode, behaviour flags and every documented exit code.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_CODES } from "../../src/cli-runtime/exit-codes.js";
import { startBillingServer } from "../../examples/billing/server.js";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import { startReleasesServer, STABLE_RELEASES_MIXED } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { type LossyProxy, startLossyProxy } from "./lossy-proxy.js";

const TOKEN = "e2e-cli-token";
const dir = mkdtempSync(join(tmpdir(), "contractgen-e2e-cli-"));
let billing: RunningPlatform;
let incidents: RunningPlatform;
let releases: RunningPlatform;
const exercised = new Set<number>();

beforeAll(async () => {
  billing = await startBillingServer({ token: TOKEN, credentials: { "reader-token": { caller: "reader", scopes: ["billing.customers:read"] } } });
  incidents = await startIncidentsServer({ token: TOKEN });
  releases = await startReleasesServer({ token: TOKEN, dataset: "mixed" });
});
afterAll(async () => {
  await Promise.all([billing?.close(), incidents?.close(), releases?.close()]);
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Run a generated CLI as its own process (asynchronously: the platforms serve from this one). */
async function cli(contract: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const main = resolve(`test-results/sdk/${contract}/cli/main.js`);
  const tokenEnv = contract.startsWith("billing") ? "BILLING_TOKEN" : contract === "incidents" ? "INCIDENTS_TOKEN" : "RELEASES_TOKEN";
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [main, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", [tokenEnv]: TOKEN, ...env } });
    exercised.add(0);
    return { code: 0, stdout, stderr, json: JSON.parse(stdout) };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    exercised.add(err.code);
    // An incomplete traversal (exit 10) is still a result, on stdout.
    if (err.code === 10) return { code: err.code, stdout: err.stdout, stderr: err.stderr, json: JSON.parse(err.stdout) };
    // A failure prints nothing on stdout; its JSON is the first line of stderr.
    expect(err.stdout).toBe("");
    return { code: err.code, stdout: err.stdout, stderr: err.stderr, json: JSON.parse(err.stderr.split("\n", 1)[0]!) };
  }
}
const billingCli = (args: string[], env?: Record<string, string>) => cli("billing.v2", ["--base-url", billing.url, "--journal", join(dir, "billing.sqlite"), ...args], env);

describe("generated CLIs against the reference platforms", () => {
  it("answers the incident question: INC-017 and INC-088, complete", async () => {
    const r = await cli("incidents", ["--base-url", incidents.url, "list-incidents", "--status", "open", "--severity", "P1", "--service", "checkout", "--environment", "production", "--fields", "id,owner", "--all"]);
    expect(r.code).toBe(EXIT_CODES.success);
    expect(r.json.items).toEqual([
      { id: "INC-017", owner: "payments-oncall" },
      { id: "INC-088", owner: "checkout-oncall" },
    ]);
    expect(r.json).toMatchObject({ complete: true, declaredTotal: 2 });
  });

  it("counts stable releases", async () => {
    const r = await cli("releases", ["--base-url", releases.url, "count-stable-releases"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ count: STABLE_RELEASES_MIXED, complete: true });
  });

  it("a bounded --all that stops early is incomplete in the JSON and the exit code", async () => {
    const r = await cli("incidents", ["--base-url", incidents.url, "list-incidents", "--fields", "id", "--all", "--max-pages", "1"]);
    expect(r.code).toBe(EXIT_CODES.incomplete);
    expect(r.json).toMatchObject({ complete: false, pagesRead: 1, stoppedBy: "maxPages", continuation: expect.any(String) });
    expect(r.stderr).toContain("incomplete");
  });

  it("lost response after commit, then re-running the same command in a new process: one customer", async () => {
    let dropped = false;
    let proxy: LossyProxy | undefined;
    try {
      proxy = await startLossyProxy(billing.url, (req) => {
        if (dropped || req.method !== "POST") return false;
        dropped = true;
        return true;
      });
      const args = ["--base-url", proxy.url, "--journal", join(dir, "lost.sqlite"), "create-customer", "--email", "cli.lost@example.com", "--name", "CLI Lost"];
      const first = await cli("billing.v2", args);
      expect(first.code).toBe(EXIT_CODES.unknownOutcome);
      expect(first.json.error).toMatchObject({ name: "UnknownOutcomeError", outcome: "unknown", nextAction: "retry_same_key", operationKey: expect.any(String) });
      const again = await cli("billing.v2", args);
      expect(again.code).toBe(0);
      expect(again.json.email).toBe("cli.lost@example.com");
      const listed = await billingCli(["list-customers", "--email", "cli.lost@example.com", "--all"]);
      expect(listed.json.items).toHaveLength(1);
    } finally {
      await proxy?.close();
    }
  });

  it("changed parameters under a used key: conflict exit code, nothing on stdout, only the error JSON on stderr's first line", async () => {
    const key = "3f0d2c1b-8a7e-4d6c-9b5a-1e2f3a4b5c6d";
    expect((await billingCli(["create-customer", "--email", "cli.key@example.com", "--name", "One", "--operation-key", key])).code).toBe(0);
    const r = await cli("billing.v2", ["--base-url", billing.url, "--journal", join(dir, "other.sqlite"), "create-customer", "--email", "cli.key@example.com", "--name", "Two", "--operation-key", key]);
    expect(r.code).toBe(EXIT_CODES.conflict);
    expect(Object.keys(r.json)).toEqual(["error"]);
    expect(r.json.error).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED", class: "conflict", operationId: key });
  });

  it("--dry-run previews, --confirm executes exactly once", async () => {
    const before = (await billingCli(["get-invoice", "--invoice-id", "inv_1006"])).json.refunded_cents;
    const preview = await billingCli(["refund-invoice", "--invoice-id", "inv_1006", "--amount", "700", "--dry-run"]);
    expect(preview.code).toBe(0);
    expect(preview.json).toMatchObject({ amount: 700, confirm_token: expect.any(String) });
    expect((await billingCli(["get-invoice", "--invoice-id", "inv_1006"])).json.refunded_cents).toBe(before);
    const done = await billingCli(["refund-invoice", "--invoice-id", "inv_1006", "--amount", "700", "--confirm", preview.json.confirm_token]);
    expect(done.code).toBe(0);
    expect(done.json).toMatchObject({ amount: 700, invoice_id: "inv_1006" });
    expect((await billingCli(["get-invoice", "--invoice-id", "inv_1006"])).json.refunded_cents).toBe(before + 700);

    // The same confirmed command again (its token is spent): the journal's recorded refund, no second effect.
    const again = await billingCli(["refund-invoice", "--invoice-id", "inv_1006", "--amount", "700", "--confirm", preview.json.confirm_token]);
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(again.json).toEqual(done.json);
    expect((await billingCli(["get-invoice", "--invoice-id", "inv_1006"])).json.refunded_cents).toBe(before + 700);

    // A new preview of the same parameters is a new intent: its token executes a second refund.
    const second = await billingCli(["refund-invoice", "--invoice-id", "inv_1006", "--amount", "700", "--dry-run"]);
    const twice = await billingCli(["refund-invoice", "--invoice-id", "inv_1006", "--amount", "700", "--confirm", second.json.confirm_token]);
    expect(twice.code).toBe(0);
    expect(twice.json.id).not.toBe(done.json.id);
    expect((await billingCli(["get-invoice", "--invoice-id", "inv_1006"])).json.refunded_cents).toBe(before + 1400);
  });

  it("exits with the documented code for each error class", async () => {
    // 2: usage (range-checked flag, missing required flag) and invalid input refused by the SDK
    expect((await billingCli(["refund-invoice", "--invoice-id", "inv_1006", "--amount", "0"])).code).toBe(EXIT_CODES.usage);
    const missing = await billingCli(["get-invoice"]);
    expect(missing.code).toBe(EXIT_CODES.usage);
    expect(missing.json.error.message).toContain("--invoice-id");
    expect((await billingCli(["get-invoice", "--invoice-id", "not-an-invoice"])).json.error).toMatchObject({ class: "invalid_input", field: "invoice_id" });
    // 3: not found
    expect((await billingCli(["get-customer", "--customer-id", "cus_nobody"])).code).toBe(EXIT_CODES.notFound);
    // 4: stale precondition
    const stale = await billingCli(["update-customer", "--customer-id", "cus_ada001", "--expected-revision", "99", "--name", "X"]);
    expect(stale.code).toBe(EXIT_CODES.conflict);
    expect(stale.json.error.code).toBe("REVISION_CONFLICT");
    // 5: permission (a token without the refunds scope)
    const forbidden = await billingCli(["get-invoice", "--invoice-id", "inv_1001"], { BILLING_TOKEN: "reader-token" });
    expect(forbidden.code).toBe(EXIT_CODES.permission);
    expect(forbidden.json.error.code).toBe("ROLE_FORBIDDEN");
    // 6: unauthenticated — missing credential names the variable; a wrong one is rejected
    const noToken = await billingCli(["get-invoice", "--invoice-id", "inv_1001"], { BILLING_TOKEN: "" });
    expect(noToken.code).toBe(EXIT_CODES.unauthenticated);
    expect(noToken.json.error.message).toContain("BILLING_TOKEN");
    expect((await billingCli(["get-invoice", "--invoice-id", "inv_1001"], { BILLING_TOKEN: "wrong-token" })).json.error.code).toBe("TOKEN_INVALID");
    // 7: transient, 8: rate limited (retries exhausted)
    billing.faults.transientOnce = ["get_invoice"];
    expect((await billingCli(["--max-attempts", "1", "get-invoice", "--invoice-id", "inv_1001"])).code).toBe(EXIT_CODES.transient);
    billing.faults.rateLimitedOnce = ["get_invoice"];
    const limited = await billingCli(["--max-attempts", "1", "get-invoice", "--invoice-id", "inv_1001"]);
    expect(limited.code).toBe(EXIT_CODES.rateLimited);
    expect(limited.json.error.class).toBe("rate_limited");
  });

  it("exits 1 when the platform answers outside the contract", async () => {
    const liar: Server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: 42 }));
    });
    await new Promise<void>((r) => liar.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
      const r = await cli("billing.v2", ["--base-url", url, "get-invoice", "--invoice-id", "inv_1001"]);
      expect(r.code).toBe(EXIT_CODES.internal);
      expect(r.json.error.code).toBe("CLIENT_RESPONSE_INVALID");
    } finally {
      liar.close();
    }
  });

  it("a platform nothing listens for: CLIENT_UNREACHABLE says so and what helps (start it, or --base-url / BILLING_BASE_URL), exit 1", async () => {
    const closed: Server = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await cli("billing.v2", ["--base-url", url, "--max-attempts", "1", "get-invoice", "--invoice-id", "inv_1001"]);
    expect(r.code).toBe(EXIT_CODES.internal);
    expect(r.json.error).toMatchObject({ code: "CLIENT_UNREACHABLE", class: "internal", action: "stop_and_surface", outcome: "rejected" });
    expect(r.stderr.split("\n")[1]).toBe(
      `billing get-invoice: CLIENT_UNREACHABLE: get_invoice: nothing is listening at ${url}: connection refused (ECONNREFUSED); nothing was sent. Start the server, or point the client at it with --base-url or BILLING_BASE_URL. (internal; next: stop_and_surface)`,
    );
  });

  it("a generated server skeleton whose handler is still the stub: CLIENT_NOT_IMPLEMENTED names the handler file, not an undeclared error", async () => {
    const { startServer } = (await import(resolve("test-results/sdk/incidents-skeleton/server/server.js"))) as { startServer(o: object): Promise<{ url: string; close(): Promise<unknown> }> };
    const skeleton = await startServer({ port: 0, token: TOKEN, database: ":memory:" });
    try {
      const main = resolve("test-results/sdk/incidents-skeleton/cli/main.js");
      const failed = await promisify(execFile)(process.execPath, [main, "--base-url", skeleton.url, "get-incident", "--incident-id", "INC-017"], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", INCIDENTS_TOKEN: TOKEN } }).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed?.code).toBe(EXIT_CODES.internal);
      exercised.add(EXIT_CODES.internal);
      const [json, line] = failed!.stderr.split("\n");
      expect(JSON.parse(json!).error).toMatchObject({ code: "CLIENT_NOT_IMPLEMENTED", class: "internal", action: "stop_and_surface", outcome: "rejected", status: 501 });
      expect(line).toBe(
        "incidents get-incident: CLIENT_NOT_IMPLEMENTED: get_incident: the server does not implement get_incident yet (its handler is a generated stub: fill it in mcp/handlers/get-incident.ts); nothing was executed. (internal; next: stop_and_surface)",
      );
    } finally {
      await skeleton.close();
    }
  });

  it("prints yaml and tables for people, completion scripts for shells", async () => {
    const main = resolve("test-results/sdk/releases/cli/main.js");
    const run = async (args: string[]) =>
      (await promisify(execFile)(process.execPath, [main, ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "", RELEASES_TOKEN: TOKEN } })).stdout;
    expect(parse(await run(["--base-url", releases.url, "--output", "yaml", "count-stable-releases"]))).toMatchObject({ count: STABLE_RELEASES_MIXED });
    const table = await run(["--base-url", releases.url, "--output", "table", "list-releases", "--limit", "3"]);
    expect(table.split("\n")[0]).toMatch(/^id\s+tag_name/);
    expect(await run(["completion", "bash"])).toContain("complete -F _releases_completion releases");
    expect(await run(["completion", "zsh"])).toContain("#compdef releases");
  });

  it("takes input fields from --input JSON, with flags taking precedence", async () => {
    const file = join(dir, "input.json");
    writeFileSync(file, JSON.stringify({ invoice_id: "inv_1001" }));
    expect((await billingCli(["get-invoice", "--input", file])).json.id).toBe("inv_1001");
    expect((await billingCli(["get-invoice", "--input", file, "--invoice-id", "inv_1002"])).json.id).toBe("inv_1002");
    writeFileSync(file, "[1, 2]");
    const bad = await billingCli(["get-invoice", "--input", file]);
    expect(bad.code).toBe(EXIT_CODES.usage);
    expect(bad.json.error.message).toContain("must be a JSON object");
  });

  it("has exercised every documented exit code", () => {
    expect([...exercised].sort((a, b) => a - b)).toEqual(Object.values(EXIT_CODES).sort((a, b) => a - b));
  });
});
