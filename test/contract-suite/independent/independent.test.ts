/**
 * Zero false failures against an implementation contractgen did not write: a scene editor contract
 * (scenes.yaml) and a server written by hand without the project's host runtime (server.ts). The
 * package is generated into a temporary folder, its fixture written as the generated README tells a
 * user (fixture.ts here), and its contract suite run as a user runs it: every check passes or is
 * skipped saying which fixture member would enable it; none fails.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { RunSummary } from "../../../src/tests-runtime/report.js";
import { runSuiteIn } from "../run-suite.js";

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const ROOT = here("../../../");

describe("the generated suite against an independently written scene editor", () => {
  const pkg = mkdtempSync(join(tmpdir(), "contract-independent-"));
  afterAll(() => rmSync(pkg, { recursive: true, force: true }));

  it("is valid, generates, and its suite has no failure against the correct server", () => {
    const cli = join(ROOT, "bin/contractgen.js");
    const validate = spawnSync(process.execPath, [cli, "validate", here("scenes.yaml")], { encoding: "utf8" });
    expect(validate.status, validate.stderr).toBe(0);
    const generate = spawnSync(process.execPath, [cli, "generate", here("scenes.yaml"), "-o", pkg], { encoding: "utf8" });
    expect(generate.status, generate.stderr).toBe(0);
    // The user's fixture replaces the template, beside the server it starts; dependencies are the repository's.
    copyFileSync(here("fixture.ts"), join(pkg, "tests/fixture.ts"));
    copyFileSync(here("server.ts"), join(pkg, "tests/scene-server.ts"));
    if (!existsSync(join(pkg, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"), "dir");

    // Report mode, as in CI: the summary keeps each skip's reason.
    const reports = join(pkg, "reports");
    const run = spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "-c", "tests/vitest.config.ts"], {
      cwd: pkg,
      env: { ...process.env, CONTRACT_REPORT_DIR: reports, CONTRACT_PROGRESS: "lines" },
      encoding: "utf8",
      timeout: 180_000,
    });
    const summaryFile = join(reports, "contract-summary.json");
    expect(existsSync(summaryFile), `the suite did not run (exit ${run.status}):\n${run.stdout}\n${run.stderr}`).toBe(true);
    const summary = JSON.parse(readFileSync(summaryFile, "utf8")) as RunSummary;
    const skipped = summary.checks.filter((c) => c.state === "skipped").map((c) => `  ${c.operation} > ${c.check}: ${c.reason ?? ""}`);
    console.log(`independent scene editor: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped\n${skipped.join("\n")}`);
    expect(summary.errors).toEqual([]);
    expect(summary.checks.filter((c) => c.state === "failed").map((c) => `${c.operation} > ${c.check}\n${c.message ?? ""}`)).toEqual([]);
    expect(summary.passed).toBeGreaterThan(60);
    // What the contract rules out is skipped saying why; nothing else is.
    expect(skipped.map((s) => s.split(":")[0])).toEqual(["  rename_scene > distinct keys with equal parameters", "  delete_scene > distinct keys with equal parameters"]);
  }, 240_000);

  it("sees a rename that keeps the record's revision, by name, though no precondition compares it", () => {
    const outcome = runSuiteIn(pkg, "tests/vitest.config.ts", { SCENES_DEFECT: "rename-keeps-revision" }, ["-t", "record revisions advance"]);
    expect(outcome.failed.map((f) => f.name)).toEqual(["rename_scene record revisions advance on every mutation"]);
  }, 240_000);

  // A server binding its confirm tokens to the target's state, or refusing an expired token before it
  // looks the key up, keeps the stateful promises in its own way: none of their checks fails.
  const stateful = [
    "delete_scene use after delete: the deleted object reads as not found, and no list shows it",
    "delete_scene dry_run omitted (preview.default true): a preview, nothing executed, with or without a confirm token",
    "delete_scene a key is kept 24h (its retention): a retry just before then replays the recorded outcome",
    "rename_scene dry_run omitted (preview.default true): a preview, nothing executed, with or without a confirm token",
    "rename_scene expected_name re-checked at execution: the target moved between preview and confirm, the confirm fails with NAME_CHANGED",
    "rename_scene a refusal a preview gives (SCENE_NOT_FOUND) is given at execution too when the state changed after the preview",
    "rename_scene a key is kept 24h (its retention): a retry just before then replays the recorded outcome",
  ];
  for (const [convention, unreachable] of [
    ["tokens-bound-to-state", []],
    // After the rename its expected_name is stale, after the delete the scene is gone: no new token for
    // the same parameters, so the retry (refused for its expired token before the key is looked up)
    // cannot be sent; both checks say so (skipped).
    ["token-expiry-before-key", stateful.filter((name) => name.includes("a key is kept"))],
  ] as const) {
    it(`has no stateful check failing on a server whose convention is ${convention}`, () => {
      const outcome = runSuiteIn(pkg, "tests/vitest.config.ts", { SCENES_CONVENTION: convention }, ["-t", "re-checked at execution|a refusal a preview gives|a key is kept|omitted \\(preview.default true\\)|use after delete"]);
      expect(outcome.failed.map((f) => `${f.name}\n${f.message}`)).toEqual([]);
      expect([...outcome.passed].sort()).toEqual(stateful.filter((name) => !(unreachable as readonly string[]).includes(name)).sort());
    }, 240_000);
  }

  it("sees replays under changed parameters on an operation with a precondition", () => {
    const failing = "rename_scene changed parameters under a used key are refused";
    const outcome = runSuiteIn(pkg, "tests/vitest.config.ts", { SCENES_DEFECT: "replays-changed-parameters" }, ["-t", "changed parameters under a used key"]);
    expect(outcome.failed.map((f) => f.name).sort()).toEqual(["delete_scene changed parameters under a used key are refused", failing]);
    expect(outcome.failed.find((f) => f.name === failing)!.message).toMatch(/other parameters under a used operation key must be refused/);
  }, 240_000);
});
