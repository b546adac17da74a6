/**
 * An operation key the platform does not require (`idempotency.keyRequired: false`, an optional
 * Idempotency-Key header): the generated SDK, CLI and MCP server still send one on every call, minted
 * and journaled when the caller gives none, so the same call made again after a lost answer reuses it
 * and the payment happens once; a key the caller gives is the one sent.
 */
import { execFile, spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseContract } from "../../src/contract/parse.js";
import { generateInto, TSC } from "../hostile/harness.js";
import { copyPackageData } from "../support/sdk-data.js";

const ROOT = resolve("test-results", "optional-key-e2e");
const PKG = join(ROOT, "payments");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let server: Server;
let baseUrl: string;

/**
 * The platform, as Stripe behaves: a keyed request executes once per key (later ones get its answer),
 * a key-less one executes every time. The answer to the first request of each test is lost after
 * the payment is made (the connection is cut).
 */
const platform = { payments: 0, keys: [] as Array<string | null>, loseNext: false, answers: new Map<string, string>() };

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  const parsed = parseContract("test/fixtures/valid/optional-idempotency-key.yaml");
  expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const files = await generateInto(PKG, parsed.model!);
  expect(files.get("sdk/operations.json")).toContain('"keyRequired":false');
  writeFileSync(
    join(PKG, "tsconfig.build.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023"], types: ["node"], strict: true, skipLibCheck: true, outDir: "dist", rootDir: "." },
      include: ["sdk/**/*.ts", "cli/**/*.ts", "mcp/**/*.ts"],
    }),
  );
  const built = spawnSync(process.execPath, [TSC, "-p", join(PKG, "tsconfig.build.json")], { encoding: "utf8" });
  expect((built.stdout + built.stderr).trim()).toBe("");
  copyPackageData(PKG, join(PKG, "dist"));

  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const key = req.headers["idempotency-key"];
      const keyed = typeof key === "string" ? key : null;
      platform.keys.push(keyed);
      let answer = keyed !== null ? platform.answers.get(keyed) : undefined;
      if (answer === undefined) {
        platform.payments++;
        answer = JSON.stringify({ id: `pay_${platform.payments}`, amount: (JSON.parse(body) as { amount: number }).amount });
        if (keyed !== null) platform.answers.set(keyed, answer);
      }
      if (platform.loseNext) {
        platform.loseNext = false;
        return void req.socket.destroy();
      }
      res.writeHead(201, { "content-type": "application/json" });
      res.end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  if (server) await new Promise<void>((r) => server.close(() => r()));
});

beforeEach(() => {
  platform.payments = 0;
  platform.keys = [];
  platform.loseNext = true;
  platform.answers.clear();
});

/** Run `body` in a child process with the built SDK's client as `client` (the platform serves from this process). */
async function withSdk(body: string, journal: string | false): Promise<unknown> {
  const script = `
    const sdk = await import(${JSON.stringify(join(PKG, "dist/sdk/index.js"))});
    const Client = Object.values(sdk).find((v) => typeof v === "function" && /Client$/.test(v.name) && v.name !== "ContractClient");
    const client = new Client({ baseUrl: ${JSON.stringify(baseUrl)}, journal: ${JSON.stringify(journal)}, retry: { maxAttempts: 3, initialDelayMs: 10, maxDelayMs: 20, jitter: 0 } });
    try { console.log(JSON.stringify(await (async () => { ${body} })())); } finally { client.close(); }`;
  const r = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", cwd: PKG });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

describe("an operation key optional on the wire (keyRequired: false)", () => {
  /** The call, then the same call again after its answer was lost: what the caller saw each time. */
  const twice = (call: string) => `
    const out = [];
    for (let i = 0; i < 2; i++) {
      try { out.push(await ${call}); }
      catch (e) { out.push({ name: e.name, outcome: e.outcome, operationKey: e.operationKey }); }
    }
    return out;`;

  it("the SDK mints and journals a key for a call without one; the same call after the lost answer reuses it: one payment", async () => {
    const [lost, again] = (await withSdk(twice("client.createPayment({ amount: 500 })"), join(ROOT, "sdk-mint.sqlite"))) as [{ operationKey: string }, unknown];
    expect(lost).toMatchObject({ name: "UnknownOutcomeError", outcome: "unknown", operationKey: expect.stringMatching(UUID) });
    expect(again).toEqual({ id: "pay_1", amount: 500 });
    expect(platform.payments).toBe(1);
    expect(platform.keys).toEqual([lost.operationKey, lost.operationKey]);
  });

  it("the SDK sends the caller's key when given one", async () => {
    const [lost, again] = (await withSdk(twice('client.createPayment({ amount: 700, idempotency_key: "order-4711" })'), join(ROOT, "sdk-caller.sqlite"))) as [unknown, unknown];
    expect(lost).toMatchObject({ name: "UnknownOutcomeError", operationKey: "order-4711" });
    expect(again).toEqual({ id: "pay_1", amount: 700 });
    expect(platform.payments).toBe(1);
    expect(platform.keys).toEqual(["order-4711", "order-4711"]);
  });

  it("the SDK without a journal still sends a minted key, which the lost answer's error names for the retry", async () => {
    const result = (await withSdk(
      `const out = [];
       try { await client.createPayment({ amount: 900 }); } catch (e) { out.push(e.operationKey); }
       out.push(await client.createPayment({ amount: 900, idempotency_key: out[0] }));
       return out;`,
      false,
    )) as [string, unknown];
    expect(result[0]).toMatch(UUID);
    expect(result[1]).toEqual({ id: "pay_1", amount: 900 });
    expect(platform.payments).toBe(1);
    expect(platform.keys).toEqual([result[0], result[0]]);
  });

  it("the CLI without --operation-key mints one: re-run after the lost answer, it executes once", async () => {
    const run = () =>
      promisify(execFile)(process.execPath, [join(PKG, "dist/cli/main.js"), "--base-url", baseUrl, "--journal", join(ROOT, "cli.sqlite"), "create-payment", "--amount", "300"], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "" },
      });
    const lost = await run().then(
      () => null,
      (e: { stderr: string }) => JSON.parse(e.stderr.split("\n")[0]!) as { error: { outcome: string; operationKey: string } },
    );
    expect(lost?.error).toMatchObject({ outcome: "unknown", operationKey: expect.stringMatching(UUID) });
    const again = await run();
    expect(JSON.parse(again.stdout)).toEqual({ id: "pay_1", amount: 300 });
    expect(platform.payments).toBe(1);
    expect(platform.keys).toEqual([lost!.error.operationKey, lost!.error.operationKey]);
  });

  it("the MCP server mints one for a tool call without the key (the repeated call reuses it), and passes the model's key on", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(PKG, "dist/mcp/main.js")],
      env: { PATH: process.env.PATH ?? "", PAYMENTS_BASE_URL: baseUrl, PAYMENTS_JOURNAL: join(ROOT, "mcp.sqlite") },
      stderr: "pipe",
    });
    const client = new Client({ name: "optional-key-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const lost = (await client.callTool({ name: "create_payment", arguments: { amount: 100 } })) as CallToolResult;
      expect(lost.isError).toBe(true);
      const again = (await client.callTool({ name: "create_payment", arguments: { amount: 100 } })) as CallToolResult;
      expect(again.isError ?? false).toBe(false);
      expect(again.structuredContent).toEqual({ id: "pay_1", amount: 100 });
      expect(platform.payments).toBe(1);
      expect(platform.keys[0]).toMatch(UUID);
      expect(platform.keys).toEqual([platform.keys[0], platform.keys[0]]);

      const given = (await client.callTool({ name: "create_payment", arguments: { amount: 200, idempotency_key: "agent-key-1" } })) as CallToolResult;
      expect(given.structuredContent).toEqual({ id: "pay_2", amount: 200 });
      expect(platform.keys.at(-1)).toBe("agent-key-1");
    } finally {
      await client.close();
    }
  });

  it("the SDK's doc comment, the tool's key argument and the README say what the optional key does", async () => {
    const parsed = parseContract("test/fixtures/valid/optional-idempotency-key.yaml");
    const files = await generateInto(join(ROOT, "docs-check"), parsed.model!);
    const comment = files.get("sdk/client.ts")!.replace(/\s*\n\s*\*\s*/g, " ");
    expect(comment).toContain("omit it to let the journal pick or recover one: the platform would take a call without one as a new intent, so one is always sent");
    expect(files.get("sdk/contract.json")).toContain('"idempotency_key":{"type":"string","description":"Repeat a call whose answer was lost with the same value: the first outcome, no second effect."}');
    expect(files.get("README.md")).toContain("**Keys the platform does not require** (`create_payment`)");
  });
});
