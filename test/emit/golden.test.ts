/**
 * generated-examples/ is the checked-in output for every contract in specs/: it must be exactly what
 * the generator produces now, deterministic, and compile under `tsc --strict`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emitPackage } from "../../src/emit/index.js";
import { parseContract } from "../../src/contract/parse.js";
import { goldenTargets } from "../../scripts/golden-targets.mjs";

const BIN = join(process.cwd(), "bin/contractgen.js");
/** The same list `npm run update:golden` writes. */
const targets = goldenTargets() as Array<{ name: string; spec: string; args: string[] }>;
const tsc = join(process.cwd(), "node_modules/typescript/bin/tsc");

describe("generated-examples", () => {
  it.each(targets)("$name is up to date (generate --check)", ({ name, spec, args }) => {
    const r = spawnSync(process.execPath, [BIN, "generate", spec, "-o", `generated-examples/${name}`, "--check", ...args], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it.each(targets.filter((t) => t.args.includes("skeleton")))("$name: its handler stubs (write-once, so --check skips them) are today's stubs", async ({ name, spec }) => {
    const files = await emitPackage(parseContract(spec).model!, { mcp: "skeleton" });
    const stubs = [...files].filter(([path]) => path.startsWith("mcp/handlers/"));
    expect(stubs.length).toBeGreaterThan(0);
    for (const [path, content] of stubs) expect(readFileSync(`generated-examples/${name}/${path}`, "utf8"), path).toBe(content);
  });

  it("covers every spec (and the listed variants) and nothing else", () => {
    const dirs = readdirSync("generated-examples", { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    const specs = readdirSync("specs").filter((f) => f.endsWith(".yaml")).map((f) => f.replace(/\.yaml$/, ""));
    expect(dirs).toEqual(targets.map((t) => t.name));
    for (const spec of specs) expect(dirs).toContain(spec);
  });

  // Seven packages in one tsc run: a minute alone, more when the other worker is busy; the limit is a
  // guard against a hang, not a timing (bench/ measures those).
  it("compiles under tsc --strict", () => {
    const r = spawnSync(process.execPath, [tsc, "-p", "generated-examples/tsconfig.json"], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 240_000);

  it("is deterministic: the same model emits byte-identical files", async () => {
    const model = parseContract("specs/billing.v2.yaml").model!;
    const [a, b] = [await emitPackage(model), await emitPackage(parseContract("specs/billing.v2.yaml").model!)];
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [path, content] of a) expect(b.get(path), path).toBe(content);
  });
});

describe("hostile contracts", () => {
  const out = "test-results/golden-hostile"; // its own folder: test/hostile/ works under test-results/hostile in parallel
  it("generate code in which no spec text escapes its literal or comment", () => {
    rmSync(out, { recursive: true, force: true });
    mkdirSync("test-results", { recursive: true });
    execFileSync(process.execPath, [BIN, "generate", "test/fixtures/valid/hostile.yaml", "-o", out], { encoding: "utf8" });
    const r = spawnSync(process.execPath, [tsc, "--strict", "--noEmit", "--skipLibCheck", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--target", "ES2022", "--types", "node", `${out}/sdk/index.ts`], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
    const client = readFileSync(`${out}/sdk/client.ts`, "utf8");
    // The summary's "*/" is neutralised inside the JSDoc, and the reserved word got a safe binding.
    expect(client).toContain("Deletes *\\/ things");
    expect(readFileSync(`${out}/sdk/operations.ts`, "utf8")).toContain("export const delete_: OperationSpec");
    const types = readFileSync(`${out}/sdk/types.ts`, "utf8");
    expect(types).toContain("__proto__?: string;");
    expect(types).toContain('"*/"?: string;');
  });
});
