/**
 * The MCP Inspector's CLI (installed on demand into bench/corpora/inspector, run from its bin) against every
 * generated server's built bin over stdio: `tools/list --strict` lists exactly the contract's tools
 * with no portability error, a read succeeds against the reference platform (exit 0, its result
 * valid against the served outputSchema, else exit 1) and a failing call is a tool error (exit 5).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import { startReleasesServer } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { servedAnnotations } from "../../src/mcp-runtime/catalogue.js";
import { parseContract } from "../../src/contract/parse.js";
import { built } from "./support.js";
// @ts-expect-error: a plain ES module of the scripts, without type declarations
import { corpusPackage } from "../../scripts/corpora.mjs";

const TOKEN = "inspector-token-2d9f";
// The Inspector is not in the repository's npm ci (it asks for Node 22): installed here on first use.
const PACKAGE: string = corpusPackage("inspector", "@modelcontextprotocol/inspector");
/** The Inspector's own bin, as npx would run it. */
const INSPECTOR = join(PACKAGE, (JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["mcp-inspector"]!);
const home = mkdtempSync(join(tmpdir(), "mcp-inspector-"));

interface Example {
  readonly spec: string;
  readonly platform: "billing" | "incidents" | "releases";
  readonly prefix: string;
  readonly read: { readonly tool: string; readonly args: readonly string[]; readonly expect: Record<string, unknown> };
  readonly failing: { readonly tool: string; readonly args: readonly string[]; readonly code: string };
}

// billing.v1 has no platform of its own: its reads are unchanged in v2, so they go to the v2 platform.
const EXAMPLES: readonly Example[] = [
  { spec: "billing.v1", platform: "billing", prefix: "BILLING", read: { tool: "get_invoice", args: ["invoice_id=inv_1001"], expect: { id: "inv_1001" } }, failing: { tool: "get_customer", args: ["customer_id=cus_nobody"], code: "CUSTOMER_NOT_FOUND" } },
  { spec: "billing.v2", platform: "billing", prefix: "BILLING", read: { tool: "get_invoice", args: ["invoice_id=inv_1004"], expect: { refunded_cents: 45_000 } }, failing: { tool: "get_customer", args: ["customer_id=cus_nobody"], code: "CUSTOMER_NOT_FOUND" } },
  { spec: "incidents", platform: "incidents", prefix: "INCIDENTS", read: { tool: "list_incidents", args: ['fields=["id","owner"]', "status=open", "severity=P1", "service=checkout", "environment=production"], expect: { incidents: [{ id: "INC-017", owner: "payments-oncall" }, { id: "INC-088", owner: "checkout-oncall" }] } }, failing: { tool: "get_incident", args: ["incident_id=INC-999"], code: "INCIDENT_NOT_FOUND" } },
  { spec: "releases", platform: "releases", prefix: "RELEASES", read: { tool: "count_stable_releases", args: [], expect: { complete: true } }, failing: { tool: "get_release", args: ["release_id=1"], code: "RELEASE_NOT_FOUND" } },
];

const platforms = new Map<string, RunningPlatform>();
beforeAll(async () => {
  platforms.set("billing", await startBillingServer({ token: TOKEN }));
  platforms.set("incidents", await startIncidentsServer({ token: TOKEN }));
  platforms.set("releases", await startReleasesServer({ token: TOKEN }));
});
afterAll(async () => {
  for (const p of platforms.values()) await p.close();
  rmSync(home, { recursive: true, force: true });
});

/** Run the Inspector CLI on the built server of `e`; the server gets its settings through `-e`. */
async function inspector(e: Example, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = [`${e.prefix}_TOKEN=${TOKEN}`, `${e.prefix}_BASE_URL=${platforms.get(e.platform)!.url}`, `${e.prefix}_JOURNAL=${join(home, `${e.spec}.sqlite`)}`];
  const argv = [INSPECTOR, "--cli", ...env.flatMap((kv) => ["-e", kv]), process.execPath, built(e.spec, "mcp/main.js"), ...args];
  // HOME in a scratch folder: the Inspector keeps its catalogue there, never in the user's.
  return promisify(execFile)(process.execPath, argv, { encoding: "utf8", cwd: dirname(built(e.spec, "mcp/main.js")), env: { PATH: process.env.PATH ?? "", HOME: home } }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

const toolArgs = (args: readonly string[]) => args.flatMap((a) => ["--tool-arg", a]);

describe.concurrent("the MCP Inspector CLI", () => {
  it.each(EXAMPLES.map((e) => [e.spec, e] as const))("%s: lists the contract's tools (--strict), calls a read (exit 0) and a failing call (exit 5)", async (_, e) => {
    const model = parseContract(`specs/${e.spec}.yaml`).model!;
    const [list, read, failing] = await Promise.all([
      inspector(e, ["--method", "tools/list", "--strict"]),
      inspector(e, ["--method", "tools/call", "--tool-name", e.read.tool, ...toolArgs(e.read.args)]),
      inspector(e, ["--method", "tools/call", "--tool-name", e.failing.tool, ...toolArgs(e.failing.args)]),
    ]);

    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toMatch(/\b0 errors\b/);
    const tools = (JSON.parse(list.stdout) as { tools: Array<{ name: string; annotations: unknown }> }).tools;
    const exposed = model.operations.filter((op) => op.mcp.exposed);
    expect(tools.map((t) => t.name)).toEqual(exposed.map((op) => op.names.tool));
    expect(tools.map((t) => t.annotations)).toEqual(exposed.map((op) => servedAnnotations(op.annotations)));

    expect(read.code, read.stderr + read.stdout).toBe(0);
    const result = JSON.parse(read.stdout) as { isError?: boolean; structuredContent: Record<string, unknown> };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject(e.read.expect);

    expect(failing.code, failing.stderr).toBe(5);
    expect(failing.stdout).toContain(`\\"code\\":\\"${e.failing.code}\\"`);
    for (const run of [list, read, failing]) expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });
});
