/**
 * The error binding in a generated package, built as users build it: a problem-details platform's
 * 404 reaches the generated SDK as the contract's code, class and action, and the generated CLI
 * exits with that class's code, naming the contract code.
 */
import { execFile, spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_CODES } from "../../src/cli-runtime/exit-codes.js";
import { parseContract } from "../../src/contract/parse.js";
import { generateInto, TSC } from "../hostile/harness.js";
import { copyPackageData } from "../support/sdk-data.js";

const ROOT = resolve("test-results", "error-format-e2e");
const PKG = join(ROOT, "pets");
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  rmSync(ROOT, { recursive: true, force: true });
  const parsed = parseContract("test/fixtures/valid/problem-errors.yaml");
  expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const files = await generateInto(PKG, parsed.model!);
  expect(files.get("sdk/contract.ts")).toContain('errorFormat: { style: "problem", code: "/type", message: "/detail", field: "/invalid_params/0/name" },');
  expect(files.get("sdk/contract.ts")).toContain('wire: "https://pets.example/probs/not-found"');
  writeFileSync(
    join(PKG, "tsconfig.build.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023"], types: ["node"], strict: true, skipLibCheck: true, outDir: "dist", rootDir: "." },
      include: ["sdk/**/*.ts", "cli/**/*.ts"],
    }),
  );
  const built = spawnSync(process.execPath, [TSC, "-p", join(PKG, "tsconfig.build.json")], { encoding: "utf8" });
  expect((built.stdout + built.stderr).trim()).toBe("");
  copyPackageData(PKG, join(PKG, "dist"));

  // The platform: pet "rex" exists; anything else is a problem under its type URI; "slow" is rate limited.
  server = createServer((req, res) => {
    req.resume();
    const id = decodeURIComponent((req.url ?? "").split("/").pop() ?? "");
    if (id === "rex") {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ id }));
    }
    const problem = id === "slow"
      ? { status: 429, body: { type: "about:blank", title: "Too Many Requests" } }
      : { status: 404, body: { type: "https://pets.example/probs/not-found", title: "Not Found", detail: `No pet ${id}.` } };
    res.writeHead(problem.status, { "content-type": "application/problem+json" });
    res.end(JSON.stringify(problem.body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

describe("a generated package for a problem-details platform", () => {
  it("the SDK raises PET_NOT_FOUND (not_found, verify_identifier) and RATE_LIMITED by status", async () => {
    const script = `
      const sdk = await import(${JSON.stringify(join(PKG, "dist/sdk/index.js"))});
      const Client = Object.values(sdk).find((v) => typeof v === "function" && /Client$/.test(v.name) && v.name !== "ContractClient");
      const client = new Client({ baseUrl: ${JSON.stringify(baseUrl)}, journal: false, retry: { maxAttempts: 1 } });
      const out = [];
      for (const pet_id of ["ghost", "slow"]) {
        try { await client.getPet({ pet_id }); out.push(null); }
        catch (e) { out.push({ name: e.name, code: e.code, class: e.errorClass, action: e.action, message: e.message, contract: sdk.isContractError(e) }); }
      }
      out.push(await client.getPet({ pet_id: "rex" }));
      client.close();
      console.log(JSON.stringify(out));`;
    // Asynchronously: the platform serves from this process.
    const r = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", cwd: PKG });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual([
      { name: "NotFoundError", code: "PET_NOT_FOUND", class: "not_found", action: "verify_identifier", message: "No pet ghost.", contract: true },
      { name: "RateLimitedError", code: "RATE_LIMITED", class: "rate_limited", action: "retry_after", message: "Too Many Requests", contract: true },
      { id: "rex" },
    ]);
  });

  it("the CLI exits with the not_found code and names PET_NOT_FOUND", async () => {
    let failure: { code: number; stdout: string; stderr: string } | undefined;
    try {
      await promisify(execFile)(process.execPath, [join(PKG, "dist/cli/main.js"), "--base-url", baseUrl, "--journal", join(ROOT, "journal.sqlite"), "get-pet", "--pet-id", "ghost"], { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
    } catch (e) {
      failure = e as { code: number; stdout: string; stderr: string };
    }
    expect(failure?.code).toBe(EXIT_CODES.notFound);
    // An error prints nothing on stdout; its JSON is the first line of stderr.
    expect(failure?.stdout).toBe("");
    const error = JSON.parse(failure!.stderr.split("\n")[0]!) as { error: { code: string; class: string; action: string } };
    expect(error.error).toMatchObject({ code: "PET_NOT_FOUND", class: "not_found", action: "verify_identifier" });
  });
});
