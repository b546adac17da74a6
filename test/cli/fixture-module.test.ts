/**
 * `contractgen test --fixture` takes what its --help and the generated README say it takes (issue 41):
 * a plain JavaScript ES module (.mjs) whose named export `fixture` is a Fixture, given the base URL and
 * the --token-env credential as CONTRACT_BASE_URL and CONTRACT_TOKEN.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";

const TOKEN = "fixture-module-token";
const dir = mkdtempSync(join(tmpdir(), "contractgen-fixture-module-"));
let billing: RunningPlatform;
beforeAll(async () => {
  billing = await startBillingServer({ token: TOKEN });
});
afterAll(async () => {
  await billing?.close();
});

/** The built bin as its own process (the platform serves from this one). */
function contractgen(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve("bin/contractgen.js"), ...args], { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

describe("contractgen test --fixture <module.mjs>", () => {
  it("runs the suite with a plain JavaScript fixture, which reads the base URL and the credential from CONTRACT_BASE_URL and CONTRACT_TOKEN", async () => {
    const fixture = join(dir, "fixture.mjs");
    writeFileSync(
      fixture,
      `export const fixture = {
  baseUrl: process.env.CONTRACT_BASE_URL,
  token: process.env.CONTRACT_TOKEN,
  async reset() {},
  sampleInput(operation, variant = 0) {
    if (operation !== "get_invoice") return undefined;
    return { invoice_id: variant === 0 ? "inv_1001" : "inv_1002" };
  },
};
`,
    );
    const r = await contractgen(["test", "specs/billing.v2.yaml", "--base-url", billing.url, "--token-env", "FIXTURE_MODULE_TOKEN", "--fixture", fixture, "--operations", "get_invoice"], { FIXTURE_MODULE_TOKEN: TOKEN });
    expect(r.stdout).toMatch(/billing 2\.0\.0 against \S+: \d+ checks, [1-9]\d* passed, 0 failed/);
    expect(`${r.stdout}${r.stderr}`).toContain("✓ get_invoice > adapter parity");
    expect(r.code).toBe(0);
  }, 600_000);
});
