/**
 * The HTTP server skeleton (`generate --server skeleton`), as a platform team meets it: generated with
 * the real CLI, built with its own strict tsconfig, run as its bin (stubs answer NOT_IMPLEMENTED; bad
 * configuration is one clear line), then filled in with asynchronous handlers (delegating to the
 * incidents reference implementation) and checked by the package's own generated contract tests.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyPackageData } from "../support/sdk-data.js";
import { runSuiteIn } from "../contract-suite/run-suite.js";

const BIN = resolve("bin/contractgen.js");
const TSC = resolve("node_modules/typescript/bin/tsc");
// Inside the repository, so the generated package resolves its dependencies from its node_modules.
const PKG = resolve("test-results/server-skeleton/incidents");
const TOKEN = "skeleton-server-token-0123456789";

/** Start the built bin; resolves with its URL once it says where it serves. */
function startBin(args: readonly string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [join(PKG, "dist/server/main.js"), "--port", "0", ...args], { env: { ...process.env, INCIDENTS_SERVER_TOKEN: TOKEN, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  return new Promise((resolvePromise, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /serving at (\S+);/.exec(stderr)?.[1];
      if (url) resolvePromise({ child, url, stderr: () => stderr });
    });
    child.on("exit", (code) => reject(new Error(`the server exited (${code}) before serving:\n${stderr}`)));
  });
}

function runBin(args: readonly string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [join(PKG, "dist/server/main.js"), ...args], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 });
}

const exited = (child: ChildProcess) => new Promise<number | null>((done) => (child.exitCode !== null ? done(child.exitCode) : child.once("exit", (code) => done(code))));

beforeAll(() => {
  rmSync(PKG, { recursive: true, force: true });
  const generated = spawnSync(process.execPath, [BIN, "generate", "specs/incidents.yaml", "-o", PKG, "--server", "skeleton"], { encoding: "utf8" });
  expect(generated.status, generated.stderr).toBe(0);
  const built = spawnSync(process.execPath, [TSC, "-p", join(PKG, "tsconfig.json")], { encoding: "utf8" });
  expect(built.stdout + built.stderr).toBe("");
  copyPackageData(PKG, join(PKG, "dist"));
}, 120_000);

describe("server skeleton: the generated bin", () => {
  it("serves the contract's routes; a stub answers 501 NOT_IMPLEMENTED in the envelope; auth and routing are the host's", async () => {
    const { child, url } = await startBin([]);
    try {
      const stub = await fetch(`${url}/incidents/INC-001`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(stub.status).toBe(501);
      expect(((await stub.json()) as { error: { code: string } }).error.code).toBe("NOT_IMPLEMENTED");
      const anonymous = await fetch(`${url}/incidents/INC-001`);
      expect(anonymous.status).toBe(401);
      const nowhere = await fetch(`${url}/no-such-route`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(nowhere.status).toBe(404);
    } finally {
      child.kill("SIGTERM");
      expect(await exited(child)).toBe(0);
    }
  });

  it("configuration errors are one line and an exit code, never a stack; the password of a database URL is masked", () => {
    const noToken = runBin([], { INCIDENTS_SERVER_TOKEN: "" });
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain("set INCIDENTS_SERVER_TOKEN");
    const badDatabase = runBin(["--port", "0", "--database", "postgres://app:hunter2-secret@127.0.0.1:1/nowhere"], { INCIDENTS_SERVER_TOKEN: TOKEN });
    expect(badDatabase.status).toBe(1);
    expect(badDatabase.stderr).toContain("postgres://app:***@127.0.0.1:1/nowhere");
    expect(badDatabase.stderr).not.toContain("hunter2");
    expect(badDatabase.stderr).not.toMatch(/\n\s+at /);
    const badPort = runBin(["--port", "http"], { INCIDENTS_SERVER_TOKEN: TOKEN });
    expect(badPort.status).toBe(2);
  });
});

describe("server skeleton: filled in", () => {
  beforeAll(() => {
    // As a team fills in the stubs: here, asynchronous handlers delegating to the reference implementation.
    const support = resolve("test/server/support/delegating-handlers.js");
    const staged: Record<string, string[]> = { assign_incident: ["target", "unchanged", "execute"] };
    for (const op of ["list_incidents", "count_incidents", "get_incident", "assign_incident"]) {
      const file = join(PKG, "mcp/handlers", `${op.replaceAll("_", "-")}.ts`);
      expect(readFileSync(file, "utf8")).toContain("NotImplementedError");
      const stages = staged[op];
      writeFileSync(file, `import { delegateFunction, delegateStaged } from ${JSON.stringify(support)};\nexport const handler = ${stages ? `delegateStaged(${JSON.stringify(op)}, ${JSON.stringify(stages)})` : `delegateFunction(${JSON.stringify(op)})`} as never;\n`);
    }
  });

  afterAll(() => rmSync(PKG, { recursive: true, force: true }));

  it("the package's generated contract tests pass against it", () => {
    const outcome = runSuiteIn(process.cwd(), join(PKG, "tests/vitest.config.ts"), {
      CONTRACT_FIXTURE: resolve("test/server/support/incidents-skeleton-fixture.ts"),
      SKELETON_SERVER: join(PKG, "server/server.ts"),
    });
    expect(outcome.failed).toEqual([]);
    expect(outcome.skipped).toEqual([]);
    expect(outcome.passed.length).toBeGreaterThan(40);
  }, 240_000);
});
