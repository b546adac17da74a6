/**
 * Zero configuration: `contractgen test` with only a base URL and a credential derives its inputs from
 * the contract and the implementation's answers (src/tests-runtime/derive.ts). Against each reference
 * platform, started here with no samples, no fixture and no reset, most checks run and none fails.
 *
 * The floors sit a few checks below what the contract and the answers give today (billing 96 of 124,
 * bookshelf 66 of 70, incidents 63 of 84, releases 32 of 48, inventory 99 of 115, scenes 71 of 93):
 * the rest needs what only the team can give (a credential lacking a scope, a rate limit or an
 * upstream failure on demand, a clock, another data set), and each such skip names the flag or
 * samples-file entry that enables it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { startBookshelfServer } from "../../examples/bookshelf/server.js";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import { startReleasesServer } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { startInventoryServer } from "../contract-suite/independent/inventory-server.js";
import { startSceneServer } from "../contract-suite/independent/server.js";
import { run } from "../../src/cli/main.js";
import type { RunSummary } from "../../src/tests-runtime/report.js";

const TOKEN = "zero-config-token-never-shown";
const dir = mkdtempSync(join(tmpdir(), "contractgen-zero-config-"));
const platforms: Array<Pick<RunningPlatform, "url" | "close">> = [];

afterAll(async () => {
  for (const p of platforms) await p.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Case {
  readonly name: string;
  readonly spec: readonly string[];
  readonly start: () => Promise<Pick<RunningPlatform, "url" | "close">>;
  /** The share of checks that must run. */
  readonly floor: number;
}

const CASES: readonly Case[] = [
  { name: "billing", spec: ["specs/billing.v2.yaml"], start: () => startBillingServer({ token: TOKEN }), floor: 0.72 },
  { name: "bookshelf", spec: ["specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml"], start: () => startBookshelfServer({ token: TOKEN }), floor: 0.85 },
  { name: "incidents", spec: ["specs/incidents.yaml"], start: () => startIncidentsServer({ token: TOKEN }), floor: 0.7 },
  { name: "releases", spec: ["specs/releases.yaml"], start: () => startReleasesServer({ token: TOKEN }), floor: 0.6 },
  // Written without contractgen (plain node:http, their own stores and conventions): derivation must not
  // make a correct server written by another team fail.
  { name: "inventory (independent)", spec: ["test/contract-suite/independent/inventory.openapi.yaml", "--overlay", "test/contract-suite/independent/inventory.overlay.yaml"], start: () => startInventoryServer({ apiKey: TOKEN }), floor: 0.75 },
  { name: "scenes (independent)", spec: ["test/contract-suite/independent/scenes.yaml"], start: () => startSceneServer(), floor: 0.65 },
];

/** Words that would tell a `contractgen test` user to edit a TypeScript fixture they do not have. */
const FIXTURE_MEMBERS = /fixture\.(sampleInput|errorInput|tokenWithout|undoInput)|the fixture has no (observe|advanceTime|errorInput|tokenWithout|resetWith|degrade|failAfterCommit|undoInput)/;

describe("contractgen test with only a base URL and a credential", () => {
  for (const c of CASES) {
    it(`${c.name}: at least ${c.floor * 100} % of the checks run, none fails, every skip names a flag or samples-file entry`, async () => {
      const platform = await c.start();
      platforms.push(platform);
      const reports = join(dir, c.name.replace(/\W+/g, "-"));
      let stdout = "";
      let stderr = "";
      process.env.ZERO_CONFIG_TOKEN = TOKEN;
      const code = await run(["test", ...c.spec, "--base-url", platform.url, "--token-env", "ZERO_CONFIG_TOKEN", "--report-dir", reports], {
        stdout: (t) => void (stdout += t),
        stderr: (t) => void (stderr += t),
        color: false,
      });
      const summary = JSON.parse(readFileSync(join(reports, "contract-summary.json"), "utf8")) as RunSummary;
      const failed = summary.checks.filter((x) => x.state === "failed").map((x) => `${x.operation} > ${x.check}: ${(x.message ?? "").split("\n")[0]}`);
      expect(failed, stdout).toEqual([]);
      expect(code, stdout).toBe(0);
      expect(summary.passed / summary.run, stdout).toBeGreaterThanOrEqual(c.floor);
      const fixtureWorded = summary.checks.filter((x) => x.state === "skipped" && FIXTURE_MEMBERS.test(x.reason ?? "")).map((x) => x.reason);
      expect(fixtureWorded, "skip reasons of a run without --fixture name flags and samples-file entries").toEqual([]);
      expect(stdout + stderr).not.toContain(TOKEN);
    }, 120_000);
  }
});
