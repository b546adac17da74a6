/** Runs a generated contract suite as a user runs it (vitest with its config, in a child process) and reads its JSON report. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const VITEST = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));

export interface Outcome {
  readonly passed: string[];
  readonly failed: Array<{ name: string; message: string }>;
  readonly skipped: string[];
}

/** Run one generated suite with a fixture module (and fault) and read vitest's JSON report; `args` go to vitest (e.g. `-t <pattern>`). */
export function runSuite(example: string, fixture: string, env: Record<string, string> = {}, args: readonly string[] = []): Outcome {
  return runSuiteIn(process.cwd(), `generated-examples/${example}/tests/vitest.config.ts`, { ...env, CONTRACT_FIXTURE: fixture }, args);
}

/** Run the generated suite whose vitest config is `config`, from `cwd` (a generated package's own fixture when env names none). */
export function runSuiteIn(cwd: string, config: string, env: Record<string, string> = {}, args: readonly string[] = []): Outcome {
  const dir = mkdtempSync(join(tmpdir(), "contract-suite-"));
  try {
    const report = join(dir, "report.json");
    const r = spawnSync(
      process.execPath,
      [VITEST, "run", "-c", config, "--reporter=json", `--outputFile=${report}`, ...args],
      { cwd, env: { ...process.env, ...env }, encoding: "utf8", timeout: 180_000 },
    );
    let parsed: { testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }> };
    try {
      parsed = JSON.parse(readFileSync(report, "utf8"));
    } catch {
      throw new Error(`the generated suite did not run (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    }
    const all = parsed.testResults.flatMap((f) => f.assertionResults);
    return {
      passed: all.filter((a) => a.status === "passed").map((a) => a.fullName),
      failed: all.filter((a) => a.status === "failed").map((a) => ({ name: a.fullName, message: a.failureMessages.join("\n") })),
      skipped: all.filter((a) => a.status !== "passed" && a.status !== "failed").map((a) => a.fullName),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

