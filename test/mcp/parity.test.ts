/**
 * One behaviour, three adapters: every case runs through the generated SDK (imported), the generated
 * CLI (its built bin as a child process, a result on stdout, an error on stderr) and the generated MCP server (a real Client,
 * in memory), each against its own fresh reference platform, and must give the same result (volatile
 * values normalized) or the same error: code, class, action, field, outcome and details.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import { RELEASE_FACTS, startReleasesServer, STABLE_RELEASES_MIXED } from "../../examples/releases/server.js";
import type { Faults, RunningPlatform } from "../../examples/shared/host.js";
import type { CommandSpec } from "../../src/cli-runtime/program.js";
import { startLossyProxy } from "../e2e/lossy-proxy.js";
import { built, connectInMemory, text } from "./support.js";

const TOKEN = "parity-token-3c7a";
/** A second caller that may read customers and nothing else. */
const READER = "parity-reader-token-b410";
const dir = mkdtempSync(join(tmpdir(), "mcp-parity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Example = "billing.v2" | "incidents" | "releases";
type Args = Record<string, unknown>;

/** What one call gave, in the terms all three adapters share. */
type Outcome = { ok: true; result: unknown } | { ok: false; error: Record<string, unknown> };

interface Step {
  readonly tool: string;
  /** The tool arguments (= the contract input); a function reads earlier steps' raw outcomes. */
  readonly args: Args | ((earlier: readonly Outcome[]) => Args);
  /** A preview (the SDK's preview method; the CLI's --dry-run; the tool's dry_run). */
  readonly preview?: boolean;
}

interface Case {
  readonly name: string;
  readonly example: Example;
  readonly steps: readonly Step[];
  /** Per step: a result ("ok", or a partial match of it) or the error's code and class. */
  readonly expect: ReadonlyArray<"ok" | { readonly result: Record<string, unknown> } | { readonly code: string; readonly class: string; readonly action: string }>;
  readonly token?: string;
  readonly maxAttempts?: number;
  readonly faults?: Faults;
  /** More options of the reference platform (e.g. a smaller scan bound). */
  readonly platform?: Record<string, unknown>;
  /** The adapter reaches the platform through a proxy that drops the answer to the first POST, after the commit. */
  readonly lossy?: boolean;
  /** Result keys whose values differ between runs (ids, timestamps), beyond the default ones. */
  readonly volatile?: readonly string[];
  /** Checks of one adapter's run: its raw outcomes and its platform afterwards. */
  readonly check?: (outcomes: readonly Outcome[], platform: RunningPlatform) => void;
}

/** Opaque tokens and expiry instants are different on every run. */
const VOLATILE = ["confirm_token", "expires_at", "next_cursor", "continuation"];

const count = (p: RunningPlatform, sql: string, ...params: unknown[]) => (p.db.prepare(sql).get(...params) as { n: number }).n;
const result = (o: Outcome | undefined) => (o?.ok ? (o.result as Record<string, any>) : expect.fail(`expected a result, got ${JSON.stringify(o)}`));

const CASES: Case[] = [
  { name: "read one invoice", example: "billing.v2", steps: [{ tool: "get_invoice", args: { invoice_id: "inv_1004" } }], expect: [{ result: { id: "inv_1004", refunded_cents: 45_000 } }] },
  {
    name: "first page of a filtered, projected list (not the whole answer)",
    example: "incidents",
    steps: [{ tool: "list_incidents", args: { status: "open", fields: ["id", "owner"], limit: 5 } }],
    expect: [{ result: { next_cursor: "<string>", partial: false } }],
  },
  {
    name: "a page with boolean filters",
    example: "releases",
    steps: [{ tool: "list_releases", args: { prerelease: false, draft: false, limit: 3 } }],
    expect: [{ result: { total_count: STABLE_RELEASES_MIXED } }],
  },
  {
    name: "a partial page says so",
    example: "incidents",
    faults: { partialPages: [{ operation: "list_incidents", page: 1, error: { code: "SHARD_UNAVAILABLE", message: "shard 3 timed out" } }] },
    steps: [{ tool: "list_incidents", args: { fields: ["id"], limit: 3 } }],
    expect: [{ result: { partial: true, errors: [{ code: "SHARD_UNAVAILABLE", message: "shard 3 timed out" }] } }],
  },
  {
    name: "a task answer (count stable releases)",
    example: "releases",
    steps: [{ tool: "count_stable_releases", args: {} }],
    expect: [{ result: { count: STABLE_RELEASES_MIXED, records_examined: RELEASE_FACTS.mixed.releases, complete: true } }],
  },
  {
    name: "the next page through the cursor",
    example: "incidents",
    steps: [
      { tool: "list_incidents", args: { fields: ["id"], limit: 4 } },
      { tool: "list_incidents", args: (o) => ({ fields: ["id"], limit: 4, cursor: result(o[0]).next_cursor }) },
    ],
    expect: ["ok", "ok"],
    check: (o) => expect(result(o[1]).incidents[0].id).not.toBe(result(o[0]).incidents[0].id),
  },
  {
    name: "a task that stopped early, then resumed with its continuation",
    example: "releases",
    platform: { countMaxExamined: 15 },
    steps: [
      { tool: "count_stable_releases", args: {} },
      { tool: "count_stable_releases", args: (o) => ({ continuation: result(o[0]).continuation }) },
    ],
    expect: [{ result: { records_examined: 15, complete: false, continuation: "<string>" } }, { result: { records_examined: 30, complete: false } }],
  },
  {
    name: "create with an operation key",
    example: "billing.v2",
    volatile: ["id", "created_at"],
    steps: [{ tool: "create_customer", args: { email: "parity.create@example.com", name: "Parity", idempotency_key: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d" } }],
    expect: [{ result: { email: "parity.create@example.com", revision: 1 } }],
    check: (_, p) => expect(count(p, "SELECT COUNT(*) AS n FROM customers WHERE email = ?", "parity.create@example.com")).toBe(1),
  },
  {
    name: "a keyed retry returns the first outcome",
    example: "billing.v2",
    volatile: ["id", "created_at"],
    steps: [
      { tool: "create_customer", args: { email: "parity.retry@example.com", name: "Retry", idempotency_key: "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e" } },
      { tool: "create_customer", args: { email: "parity.retry@example.com", name: "Retry", idempotency_key: "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e" } },
    ],
    expect: ["ok", "ok"],
    check: (o, p) => {
      expect(result(o[1])).toEqual(result(o[0]));
      expect(count(p, "SELECT COUNT(*) AS n FROM customers WHERE email = ?", "parity.retry@example.com")).toBe(1);
    },
  },
  {
    name: "a used key with other parameters is refused",
    example: "billing.v2",
    volatile: ["id", "created_at"],
    steps: [
      { tool: "create_customer", args: { email: "parity.reuse@example.com", name: "One", idempotency_key: "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f" } },
      { tool: "create_customer", args: { email: "parity.reuse@example.com", name: "Two", idempotency_key: "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f" } },
    ],
    expect: ["ok", { code: "CLIENT_OPERATION_KEY_REUSED", class: "conflict", action: "stop_and_surface" }],
    check: (_, p) => expect(count(p, "SELECT COUNT(*) AS n FROM customers WHERE email = ?", "parity.reuse@example.com")).toBe(1),
  },
  {
    name: "a create whose answer was lost after commit, then retried with the same key",
    example: "billing.v2",
    lossy: true,
    volatile: ["id", "created_at"],
    steps: [
      { tool: "create_customer", args: { email: "parity.lost@example.com", name: "Lost", idempotency_key: "3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a" } },
      { tool: "create_customer", args: { email: "parity.lost@example.com", name: "Lost", idempotency_key: "3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a" } },
    ],
    expect: [{ code: "CLIENT_NO_RESPONSE", class: "transient", action: "retry_same_key" }, { result: { email: "parity.lost@example.com" } }],
    check: (o, p) => {
      expect(o[0]).toMatchObject({ ok: false, error: { outcome: "unknown", nextAction: "retry_same_key", operationKey: "3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a" } });
      expect(count(p, "SELECT COUNT(*) AS n FROM customers WHERE email = ?", "parity.lost@example.com")).toBe(1);
    },
  },
  {
    name: "preview, then confirm with its token: one refund",
    example: "billing.v2",
    volatile: ["id"],
    steps: [
      { tool: "refund_invoice", preview: true, args: { invoice_id: "inv_1006", amount: 700, dry_run: true } },
      { tool: "refund_invoice", args: (o) => ({ invoice_id: "inv_1006", amount: 700, dry_run: false, confirm_token: result(o[0]).confirm_token }) },
    ],
    expect: [{ result: { amount: 700, balance_after_cents: 14_300 } }, { result: { invoice_id: "inv_1006", amount: 700 } }],
    check: (_, p) => {
      expect(count(p, "SELECT COUNT(*) AS n FROM refunds WHERE invoice_id = ?", "inv_1006")).toBe(1);
      expect(count(p, "SELECT refunded_cents AS n FROM invoices WHERE id = ?", "inv_1006")).toBe(700);
    },
  },
  {
    name: "a stale revision is a conflict; nothing changes",
    example: "incidents",
    steps: [{ tool: "assign_incident", args: { incident_id: "INC-017", owner: "checkout-oncall", expected_revision: 99 } }],
    expect: [{ code: "REVISION_CONFLICT", class: "conflict", action: "reread_and_replan" }],
    check: (_, p) => expect((p.db.prepare("SELECT owner FROM incidents WHERE id = ?").get("INC-017") as { owner: string }).owner).toBe("payments-oncall"),
  },
  {
    name: "a stale value precondition fails the preview too",
    example: "billing.v2",
    steps: [{ tool: "refund_invoice", preview: true, args: { invoice_id: "inv_1004", amount: 100, expected_refunded_cents: 0, dry_run: true } }],
    expect: [{ code: "INVOICE_CHANGED", class: "conflict", action: "reread_and_replan" }],
  },
  {
    name: "a refund beyond the balance",
    example: "billing.v2",
    steps: [{ tool: "refund_invoice", preview: true, args: { invoice_id: "inv_1004", amount: 50_000, dry_run: true } }],
    expect: [{ code: "REFUND_EXCEEDS_BALANCE", class: "conflict", action: "reread_and_replan" }],
  },
  {
    name: "invalid input is refused before anything is sent",
    example: "billing.v2",
    steps: [{ tool: "get_invoice", args: { invoice_id: "not-an-invoice" } }],
    expect: [{ code: "CLIENT_INVALID_INPUT", class: "invalid_input", action: "fix_field" }],
  },
  {
    name: "not found",
    example: "billing.v2",
    steps: [{ tool: "get_customer", args: { customer_id: "cus_nobody" } }],
    expect: [{ code: "CUSTOMER_NOT_FOUND", class: "not_found", action: "verify_identifier" }],
  },
  {
    name: "not found (releases)",
    example: "releases",
    steps: [{ tool: "get_release", args: { release_id: 1 } }],
    expect: [{ code: "RELEASE_NOT_FOUND", class: "not_found", action: "verify_identifier" }],
  },
  {
    name: "a caller without the scope",
    example: "billing.v2",
    token: READER,
    steps: [{ tool: "get_invoice", args: { invoice_id: "inv_1001" } }],
    expect: [{ code: "ROLE_FORBIDDEN", class: "permission", action: "stop_and_surface" }],
  },
  {
    name: "a wrong credential",
    example: "incidents",
    token: "not-the-token",
    steps: [{ tool: "get_incident", args: { incident_id: "INC-017" } }],
    expect: [{ code: "TOKEN_INVALID", class: "unauthenticated", action: "reauthenticate" }],
  },
  {
    name: "no credential at all",
    example: "releases",
    token: "",
    steps: [{ tool: "count_stable_releases", args: {} }],
    expect: [{ code: "CLIENT_MISSING_CREDENTIAL", class: "unauthenticated", action: "reauthenticate" }],
  },
  {
    name: "rate limited, retries exhausted",
    example: "billing.v2",
    maxAttempts: 1,
    faults: { rateLimitedOnce: ["get_invoice"] },
    steps: [{ tool: "get_invoice", args: { invoice_id: "inv_1001" } }],
    expect: [{ code: "RATE_LIMITED", class: "rate_limited", action: "retry_after" }],
  },
  {
    name: "a transient failure, retried: the read succeeds",
    example: "incidents",
    faults: { transientOnce: ["get_incident"] },
    steps: [{ tool: "get_incident", args: { incident_id: "INC-088" } }],
    expect: [{ result: { id: "INC-088" } }],
  },
];

// -- the platforms ------------------------------------------------------------------------------

const credentials = { [READER]: { caller: "reader", scopes: ["billing.customers:read"] } };

function startPlatform(c: Case): Promise<RunningPlatform> {
  const options = { token: TOKEN, credentials, faults: structuredClone(c.faults ?? {}), ...c.platform };
  if (c.example === "billing.v2") return startBillingServer(options);
  if (c.example === "incidents") return startIncidentsServer(options);
  return startReleasesServer({ ...options, dataset: "mixed" });
}

// -- the adapters -------------------------------------------------------------------------------

interface Run {
  readonly platform: RunningPlatform;
  /** Where the adapter sends requests: the platform, or a lossy proxy in front of it. */
  readonly baseUrl: string;
  readonly journal: string;
  readonly case: Case;
}

/** Each adapter runs a case's steps in order, one client (or one journal) across them. */
type Adapter = (run: Run, steps: readonly Step[]) => Promise<Outcome[]>;

const camel = (id: string) => id.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const argsOf = (step: Step, earlier: readonly Outcome[]) => (typeof step.args === "function" ? step.args(earlier) : step.args);

const sdkAdapter: Adapter = async (run, steps) => {
  const sdk = (await import(built(run.case.example, "sdk/index.js"))) as Record<string, new (o: unknown) => Record<string, (input: unknown) => Promise<unknown>> & { close(): void }>;
  const Client = Object.entries(sdk).find(([name]) => name.endsWith("Client") && name !== "ContractClient")![1];
  const client = new Client({ baseUrl: run.baseUrl, token: run.case.token ?? TOKEN, journal: run.journal, ...(run.case.maxAttempts ? { retry: { maxAttempts: run.case.maxAttempts } } : {}) });
  const outcomes: Outcome[] = [];
  try {
    for (const step of steps) {
      const input = { ...argsOf(step, outcomes) };
      // A preview is its own method, without the behaviour fields.
      if (step.preview) delete input.dry_run;
      const method = step.preview ? `preview${camel(`_${step.tool}`)}` : camel(step.tool);
      try {
        outcomes.push({ ok: true, result: await client[method]!(input) });
      } catch (e) {
        const json = (e as { toJSON?: () => Record<string, unknown> }).toJSON?.() ?? { code: "NOT_A_CONTRACT_ERROR", message: String(e) };
        outcomes.push({ ok: false, error: json });
      }
    }
  } finally {
    client.close();
  }
  return outcomes;
};

const tokenEnv: Record<Example, string> = { "billing.v2": "BILLING_TOKEN", incidents: "INCIDENTS_TOKEN", releases: "RELEASES_TOKEN" };
let cliRuns = 0;

/** The CLI command line of a step, from the generated command spec: flags where there are flags. */
function argv(spec: CommandSpec, args: Args): string[] {
  const out = [spec.name];
  const rest: Args = {};
  for (const [field, value] of Object.entries(args)) {
    const flag = spec.flags.find((f) => f.field === field);
    if (field === spec.keyField) out.push("--operation-key", String(value));
    else if (field === spec.dryRunField) out.push(...(value === true ? ["--dry-run"] : []));
    else if (field === spec.confirmTokenField) out.push("--confirm", String(value));
    else if (field === spec.fieldsField) out.push("--fields", (value as string[]).join(","));
    else if (flag?.type === "array") for (const item of value as unknown[]) out.push(`--${flag.flag}`, String(item));
    else if (flag) out.push(`--${flag.flag}`, String(value));
    else rest[field] = value;
  }
  if (Object.keys(rest).length > 0) {
    const file = join(dir, `input-${++cliRuns}.json`);
    writeFileSync(file, JSON.stringify(rest));
    out.push("--input", file);
  }
  return out;
}

const cliAdapter: Adapter = async (run, steps) => {
  const { COMMANDS } = (await import(built(run.case.example, "cli/commands.js"))) as { COMMANDS: readonly CommandSpec[] };
  const outcomes: Outcome[] = [];
  for (const step of steps) {
    const spec = COMMANDS.find((c) => c.operation === step.tool)!;
    const globals = ["--output", "json", "--base-url", run.baseUrl, "--journal", run.journal, ...(run.case.maxAttempts ? ["--max-attempts", String(run.case.maxAttempts)] : [])];
    const env = { PATH: process.env.PATH ?? "", [tokenEnv[run.case.example]]: run.case.token ?? TOKEN };
    const { code, stdout, stderr } = await promisify(execFile)(process.execPath, [built(run.case.example, "cli/main.js"), ...globals, ...argv(spec, argsOf(step, outcomes))], { encoding: "utf8", env }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
    // A result is alone on stdout; an error leaves stdout empty and is the first line of stderr.
    if (code !== 0) expect(stdout).toBe("");
    const json = JSON.parse(code === 0 ? stdout : stderr.split("\n", 1)[0]!) as Record<string, unknown>;
    outcomes.push(code === 0 ? { ok: true, result: json } : { ok: false, error: json.error as Record<string, unknown> });
  }
  return outcomes;
};

const mcpAdapter: Adapter = async (run, steps) => {
  const c = await connectInMemory(run.case.example, {
    baseUrl: run.baseUrl,
    token: run.case.token ?? TOKEN,
    journal: run.journal,
    ...(run.case.maxAttempts ? { retry: { maxAttempts: run.case.maxAttempts } } : {}),
  });
  const outcomes: Outcome[] = [];
  try {
    for (const step of steps) {
      const r = await c.call(step.tool, argsOf(step, outcomes));
      if (r.isError) outcomes.push({ ok: false, error: text(r).error as Record<string, unknown> });
      // Pages and tasks come back as { result, completeness } in text; structuredContent is the result.
      else outcomes.push({ ok: true, result: r.structuredContent ?? text(r) });
    }
  } finally {
    await c.close();
  }
  return outcomes;
};

const ADAPTERS = { sdk: sdkAdapter, cli: cliAdapter, mcp: mcpAdapter } as const;

// -- comparison ---------------------------------------------------------------------------------

/** What must agree: a result with its volatile values replaced, or an error's recovery information. */
function comparable(o: Outcome, volatile: readonly string[]): unknown {
  if (!o.ok) {
    const { code, class: errorClass, action, field, outcome, details } = o.error;
    return { error: { code, class: errorClass, action, field, outcome, details } };
  }
  const keys = new Set([...VOLATILE, ...volatile]);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keys.has(k) && typeof x === "string" ? "<string>" : walk(x)]));
  };
  return { result: walk(o.result) };
}

describe.concurrent("SDK, CLI and MCP agree", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_, c) => {
    const runs = await Promise.all(
      Object.entries(ADAPTERS).map(async ([name, adapter]) => {
        const platform = await startPlatform(c);
        let dropped = false;
        const proxy = c.lossy ? await startLossyProxy(platform.url, (req) => req.method === "POST" && !dropped && (dropped = true)) : null;
        try {
          const outcomes = await adapter({ platform, baseUrl: proxy?.url ?? platform.url, journal: join(dir, `${name}-${c.name.replace(/\W+/g, "-")}.sqlite`), case: c }, c.steps);
          c.check?.(outcomes, platform);
          return [name, outcomes] as const;
        } finally {
          await proxy?.close();
          await platform.close();
        }
      }),
    );
    const by = new Map(runs);
    const sdk = by.get("sdk")!.map((o) => comparable(o, c.volatile ?? []));
    expect(by.get("cli")!.map((o) => comparable(o, c.volatile ?? [])), "CLI").toEqual(sdk);
    expect(by.get("mcp")!.map((o) => comparable(o, c.volatile ?? [])), "MCP").toEqual(sdk);
    c.expect.forEach((want, i) => {
      if (want === "ok") expect(sdk[i]).toHaveProperty("result");
      else if ("result" in want) expect(sdk[i]).toMatchObject({ result: want.result });
      else expect(sdk[i]).toMatchObject({ error: want });
    });
  });
});
