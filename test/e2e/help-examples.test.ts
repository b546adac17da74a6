/**
 * The example at the end of every generated command's --help works against the reference platform
 * (issue 41: `refund-invoice --invoice-id inv_1042` answered INVOICE_NOT_FOUND): its values come only
 * from what the contract documents, which for the bundled contracts are records of the platforms'
 * seed data. Each example without a placeholder is run, as printed, against its platform; the seed
 * data docs/examples.md lists is the seed sources' own.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { startBookshelfServer } from "../../examples/bookshelf/server.js";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import { startReleasesServer } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";

const TOKEN = "e2e-help-token";
const dir = mkdtempSync(join(tmpdir(), "contractgen-e2e-help-"));

/** Each generated package (test-results/sdk/<name>, built by global-setup) with its platform. */
const TARGETS: ReadonlyArray<{ name: string; tokenEnv: string | null; start: () => Promise<RunningPlatform> }> = [
  { name: "billing.v2", tokenEnv: "BILLING_TOKEN", start: () => startBillingServer({ token: TOKEN }) },
  { name: "incidents", tokenEnv: "INCIDENTS_TOKEN", start: () => startIncidentsServer({ token: TOKEN }) },
  { name: "releases", tokenEnv: "RELEASES_TOKEN", start: () => startReleasesServer({ token: TOKEN }) },
  { name: "bookshelf", tokenEnv: null, start: () => startBookshelfServer({}) },
];

const platforms = new Map<string, RunningPlatform>();
beforeAll(async () => {
  for (const t of TARGETS) platforms.set(t.name, await t.start());
});
afterAll(async () => {
  await Promise.all([...platforms.values()].map((p) => p.close()));
});

const main = (name: string) => resolve(`test-results/sdk/${name}/cli/main.js`);

/** The command names of a generated CLI, from its own --help. */
function commandsOf(name: string): string[] {
  const help = spawnSync(process.execPath, [main(name), "--help"], { encoding: "utf8" });
  expect(help.status).toBe(0);
  return [...help.stdout.matchAll(/^ {2}([a-z][a-z0-9-]*) /gm)].map((m) => m[1]!).filter((c) => c !== "completion" && c !== "help");
}

/** The example line of a command's --help, split as a shell splits it (plain words or single-quoted ones). */
function exampleOf(name: string, command: string): { line: string; words: string[] } {
  const help = spawnSync(process.execPath, [main(name), command, "--help"], { encoding: "utf8" });
  expect(help.status).toBe(0);
  const line = /^Example: (.+)$/m.exec(help.stdout)?.[1];
  expect(line, `${name} ${command} --help shows an example`).toBeDefined();
  const words = [...line!.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replaceAll("'\\''", "'") : m[2]!));
  return { line: line!, words };
}

describe("the example in every generated command's --help", () => {
  it("refund-invoice's example names an invoice the billing platform holds (the contract's example), and its amount is a placeholder, not a guess", () => {
    expect(exampleOf("billing.v2", "refund-invoice").line).toBe("billing refund-invoice --invoice-id inv_1001 --amount <amount>");
    expect(exampleOf("billing.v2", "get-invoice").line).toBe("billing get-invoice --invoice-id inv_1001");
  });

  it.each(TARGETS.map((t) => t.name))("%s: every example without a placeholder succeeds against the reference platform, as printed", async (name) => {
    const target = TARGETS.find((t) => t.name === name)!;
    const platform = platforms.get(name)!;
    let ran = 0;
    for (const command of commandsOf(name)) {
      const { line, words } = exampleOf(name, command);
      expect(words[1]).toBe(command);
      if (words.some((w) => /^<[a-z0-9-]+>$/.test(w))) continue;
      ran++;
      const env = { PATH: process.env.PATH ?? "", ...(target.tokenEnv ? { [target.tokenEnv]: TOKEN } : {}) };
      const args = ["--base-url", platform.url, "--journal", join(dir, `${name}.sqlite`), ...words.slice(1)];
      const r = await promisify(execFile)(process.execPath, [main(name), ...args], { encoding: "utf8", env }).catch((e: { code: number; stderr: string }) => e);
      expect("code" in r ? `exit ${r.code}: ${r.stderr}` : "exit 0", line).toBe("exit 0");
    }
    expect(ran, `${name}: at least one example runs`).toBeGreaterThan(0);
  });
});

describe("docs/examples.md", () => {
  it("lists each reference platform's seed data as its seed source holds it (scripts/docs-seeds.mjs --check)", () => {
    const r = spawnSync(process.execPath, ["scripts/docs-seeds.mjs", "--check"], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("re-running a confirmed command does what its --help and the README say (keyed: refund-invoice)", () => {
  it("the same journal prints the recorded result and sends nothing; another journal reaches the platform, which refuses the spent token", async () => {
    const platform = platforms.get("billing.v2")!;
    const env = { PATH: process.env.PATH ?? "", BILLING_TOKEN: TOKEN };
    const run = (journal: string, args: string[]) =>
      promisify(execFile)(process.execPath, [main("billing.v2"), "--base-url", platform.url, "--journal", join(dir, journal), ...args], { encoding: "utf8", env }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    const refund = ["refund-invoice", "--invoice-id", "inv_1003", "--amount", "300"];
    const help = spawnSync(process.execPath, [main("billing.v2"), "refund-invoice", "--help"], { encoding: "utf8" }).stdout.replace(/\s+/g, " ");
    expect(help).toContain("Re-running a confirmed call (same parameters, same --confirm token) after it succeeded: prints the result the journal recorded and sends nothing");
    const preview = await run("a.sqlite", [...refund, "--dry-run"]);
    const token = JSON.parse(preview.stdout).confirm_token as string;
    const done = await run("a.sqlite", [...refund, "--confirm", token]);
    expect(done.code).toBe(0);
    const again = await run("a.sqlite", [...refund, "--confirm", token]);
    expect(again).toMatchObject({ code: 0, stdout: done.stdout });
    const elsewhere = await run("b.sqlite", [...refund, "--confirm", token]);
    expect(elsewhere.code).toBe(4);
    expect(JSON.parse(elsewhere.stderr.split("\n", 1)[0]!).error.code).toBe("CONFIRMATION_REQUIRED");
    // One refund of 300 in all.
    expect(JSON.parse((await run("a.sqlite", ["get-invoice", "--invoice-id", "inv_1003"])).stdout).refunded_cents).toBe(300);
  });
});
