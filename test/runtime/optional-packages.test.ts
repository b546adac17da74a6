/**
 * better-sqlite3 is an optional dependency of a generated (adapter) package and pg an optional peer
 * (issue 41): `npm install --omit=optional` leaves both out. Here a generated billing package lives
 * outside the repository with a node_modules holding exactly its dependencies and devDependencies
 * (linked from ours), as that install leaves it, so neither is resolvable. It must still compile under tsc --strict, its SDK must work with an in-memory journal
 * (or none), and choosing a SQLite or PostgreSQL journal must be a clear error naming the package and
 * the command that installs it, with a stable code, nothing sent, and no stack trace from the CLI.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { parseContract } from "../../src/contract/parse.js";
import { emitPackage } from "../../src/emit/index.js";
import { OPTIONAL_PACKAGES } from "../../src/runtime/optional-package.js";

const TOKEN = "optional-packages-token-5c1e";
// Outside the repository: nothing above it may provide better-sqlite3 or pg.
const dir = mkdtempSync(join(tmpdir(), "optional-packages-"));
let platform: RunningPlatform;
let sdk: any;

/** Link `name` from our node_modules into the package's, as npm would have installed it. */
function link(name: string): void {
  const target = join(dir, "node_modules", name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(resolve("node_modules", name), target, "dir");
}

beforeAll(async () => {
  const parsed = await parseContract("specs/billing.v2.yaml");
  for (const [path, text] of await emitPackage(parsed.model!)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: { build: string } };
  for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]) link(name);
  // Built as `npm run build` builds it (tsc from the devDependency, then the data files copied).
  execFileSync("sh", ["-c", pkg.scripts.build], { cwd: dir, encoding: "utf8", env: { ...process.env, PATH: `${join(dir, "node_modules", ".bin")}:${resolve("node_modules/typescript/bin")}:${process.env.PATH}` } });
  sdk = await import(join(dir, "dist/sdk/index.js"));
  platform = await startBillingServer({ token: TOKEN });
}, 300_000);

afterAll(async () => {
  await platform?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a generated adapter package without better-sqlite3 and pg", () => {
  it("declares them as optional (a dependency npm may leave out, a peer it leaves out), never required", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).not.toContain("better-sqlite3");
    expect(Object.keys(pkg.dependencies)).not.toContain("pg");
    expect(Object.keys(pkg.devDependencies)).not.toContain("better-sqlite3");
    expect(pkg.optionalDependencies).toEqual({ "better-sqlite3": expect.stringMatching(/^12\./), typescript: expect.stringMatching(/^5\./) });
    expect(pkg.peerDependencies).toEqual({ pg: expect.stringMatching(/^\^8\./) });
    expect(pkg.peerDependenciesMeta).toEqual({ pg: { optional: true } });
    // The premise of the rest: neither resolves from the package.
    const req = createRequire(join(dir, "package.json"));
    expect(() => req.resolve("better-sqlite3")).toThrow(/Cannot find module 'better-sqlite3'/);
    expect(() => req.resolve("pg")).toThrow(/Cannot find module 'pg'/);
  });

  it("compiled under tsc --strict (the build above) and its SDK works with an in-memory journal or none", async () => {
    let sent = 0;
    const fetch = (...args: Parameters<typeof globalThis.fetch>) => (sent++, globalThis.fetch(...args));
    const c = new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal: new sdk.MemoryJournal(), fetch });
    const input = { email: "memory.journal@example.com", name: "Memory Journal", idempotency_key: "0b6f3c1e-4d2a-4e8b-9a51-2c7d8e9f0a13" };
    const created = await c.createCustomer(input);
    expect(created.email).toBe("memory.journal@example.com");
    // The keyed call was journalled in memory: the same intent again is answered from it, not sent.
    const again = await c.createCustomer(input);
    expect(again.id).toBe(created.id);
    expect(sent).toBe(1);
    const read = await new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal: false }).getCustomer({ customer_id: created.id });
    expect(read.id).toBe(created.id);
  });

  it("a SQLite journal is refused before anything is sent, naming better-sqlite3 and the command to install it", async () => {
    let sent = 0;
    const fetch = (...args: Parameters<typeof globalThis.fetch>) => (sent++, globalThis.fetch(...args));
    const c = new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal: join(dir, "billing-journal.sqlite"), fetch });
    const e = await c.createCustomer({ email: "sqlite.journal@example.com", name: "SQLite Journal" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(sdk.InvalidInputError);
    expect(e).toMatchObject({ code: "CLIENT_JOURNAL_UNUSABLE", outcome: "rejected" });
    expect(e.message).toBe(`Journal ${join(dir, "billing-journal.sqlite")}: The SQLite journal needs the package better-sqlite3, which is not installed: npm install --save-prod better-sqlite3@12. Nothing was sent.`);
    expect(sent).toBe(0);
  });

  it("a PostgreSQL journal is refused the same way, naming pg", async () => {
    const c = new sdk.BillingClient({ baseUrl: platform.url, token: TOKEN, journal: "postgres://app:secret@127.0.0.1:1/billing" });
    const e = await c.createCustomer({ email: "pg.journal@example.com", name: "PG Journal" }).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "CLIENT_JOURNAL_UNUSABLE" });
    expect(e.message).toContain("The PostgreSQL journal needs the package pg, which is not installed: npm install --save-prod pg@8");
    expect(e.message).not.toContain("secret");
  });

  it("the CLI with --journal says the same in its JSON error, exit status non-zero, no stack trace", () => {
    const r = spawnSync(process.execPath, [join(dir, "dist/cli/main.js"), "--output", "json", "--base-url", platform.url, "--journal", join(dir, "cli-journal.sqlite"), "create-customer", "--email", "cli.journal@example.com", "--name", "CLI Journal"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", BILLING_TOKEN: TOKEN, HOME: dir },
    });
    expect(r.status).not.toBe(0);
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toContain("CLIENT_JOURNAL_UNUSABLE");
    expect(out).toContain("The SQLite journal needs the package better-sqlite3, which is not installed: npm install --save-prod better-sqlite3@12");
    expect(out).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  });
});

describe("a generated package without its optional typescript (installed with --omit=optional --omit=dev)", () => {
  it("serves code mode's two tools, and answers them CODE_MODE_UNAVAILABLE naming the install command, running nothing; the other modes are unaffected", async () => {
    rmSync(join(dir, "node_modules", "typescript"));
    expect(() => createRequire(join(dir, "package.json")).resolve("typescript")).toThrow(/Cannot find module 'typescript'/);
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const connect = async (mode: string) => {
      const client = new Client({ name: "optional-typescript", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(dir, "dist/mcp/main.js"), "--mode", mode], env: { PATH: process.env.PATH ?? "", BILLING_TOKEN: TOKEN, BILLING_BASE_URL: platform.url, HOME: dir }, stderr: "pipe" }));
      return client;
    };
    const code = await connect("code");
    try {
      expect((await code.listTools()).tools.map((t) => t.name)).toEqual(["search_docs", "execute"]);
      for (const [name, args] of [["search_docs", { query: "refund" }], ["execute", { code: "return 1;" }]] as const) {
        const r = (await code.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
        expect(r.isError).toBe(true);
        expect(JSON.parse(r.content[0]!.text).error).toMatchObject({ code: "CODE_MODE_UNAVAILABLE", class: "internal", action: "stop_and_surface", message: expect.stringContaining("npm install typescript") });
      }
    } finally {
      await code.close();
    }
    const tools = await connect("tools");
    try {
      const r = (await tools.callTool({ name: "get_invoice", arguments: { invoice_id: "inv_1001" } })) as { isError?: boolean };
      expect(r.isError ?? false).toBe(false);
    } finally {
      await tools.close();
    }
  }, 60_000);
});

describe("the runtime's optional packages", () => {
  it("name the majors contractgen itself is tested with (package.json)", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
    for (const [name, { major }] of Object.entries(OPTIONAL_PACKAGES)) expect(`${name}@${pkg.dependencies[name]!.split(".")[0]}`).toBe(`${name}@${major}`);
  });
});
