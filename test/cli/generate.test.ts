/** `contractgen generate` as users run it: the built bin in a child process. */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = resolve("bin/contractgen.js");
// Inside the repository, so the generated package resolves its dependencies from our node_modules.
const work = resolve("test-results/cli-generate");
function contractgen(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}


/** `contractgen generate … --watch` as a child process, with what it has printed so far. */
function watchGenerate(...args: string[]) {
  const child = spawn(process.execPath, [BIN, "generate", ...args, "--watch"], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return {
    stderr: () => stderr,
    /** Generations finished so far. */
    generations: () => (stdout.match(/wrote \d+ of \d+ files/g) ?? []).length,
    async waitFor(predicate: () => boolean) {
      // Up to 60 s: one generation takes seconds when the machine is loaded (2 cores shared).
      for (let i = 0; i < 1200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(predicate()).toBe(true);
    },
    stop: () => child.kill(),
  };
}

describe("contractgen generate", () => {
  it("writes a package that builds with its own tsconfig and loads", async () => {
    const out = join(work, "billing");
    rmSync(out, { recursive: true, force: true });
    const r = contractgen("generate", "specs/billing.v2.yaml", "-o", out);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/wrote (\d+) of \1 files from specs\/billing\.v2\.yaml in \d+ ms \(\1 changed, 0 deleted\)\n$/);
    const pkg = JSON.parse(readFileSync(join(out, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ name: "billing-sdk", version: "2.0.0", type: "module" });
    // Built as `npm run build` builds it: tsc, then the schema and contract data copied beside the output.
    execFileSync("sh", ["-c", pkg.scripts.build], { cwd: out, encoding: "utf8", env: { ...process.env, PATH: `${resolve("node_modules/.bin")}:${process.env.PATH}` } });
    expect(existsSync(join(out, "dist/sdk/schemas.json"))).toBe(true);
    const sdk = await import(join(out, "dist/sdk/index.js"));
    const client = new sdk.BillingClient({ journal: false });
    expect(typeof client.refundInvoice).toBe("function");
    expect(typeof client.previewRefundInvoice).toBe("function");
    expect(sdk.TAXONOMY.REVISION_CONFLICT).toEqual({ class: "conflict", action: "reread_and_replan", http: 412, field: "expected_revision", detailsSchema: "errorDetails:REVISION_CONFLICT" });
    // The package's bins are the generated CLI and MCP server, built by the same tsconfig.
    expect(pkg.bin).toEqual({ billing: "./dist/cli/main.js", "billing-mcp": "./dist/mcp/main.js" });
    expect(existsSync(join(out, "dist/mcp/main.js"))).toBe(true);
    const help = spawnSync(process.execPath, [join(out, "dist/cli/main.js"), "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("refund-invoice");
  });

  it("regenerates in place, keeping the user's node_modules and dist", () => {
    const out = join(work, "keep");
    rmSync(out, { recursive: true, force: true });
    expect(contractgen("generate", "specs/releases.yaml", "-o", out).code).toBe(0);
    mkdirSync(join(out, "node_modules", "x"), { recursive: true });
    writeFileSync(join(out, "node_modules", "x", "index.js"), "");
    writeFileSync(join(out, "sdk", "client.ts"), "// edited by hand\n");
    expect(contractgen("generate", "specs/releases.yaml", "-o", out, "--check").code).toBe(1);
    // A hand edit is not overwritten silently: refused, naming the file, until --force.
    const refused = contractgen("generate", "specs/releases.yaml", "-o", out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("sdk/client.ts: edited since contractgen generated it");
    expect(readFileSync(join(out, "sdk", "client.ts"), "utf8")).toBe("// edited by hand\n");
    expect(contractgen("generate", "specs/releases.yaml", "-o", out, "--force").code).toBe(0);
    expect(existsSync(join(out, "node_modules", "x", "index.js"))).toBe(true);
    expect(readFileSync(join(out, "sdk", "client.ts"), "utf8")).toContain("export class ReleasesClient");
  });

  it("--check lists changed and missing files and exits 1, ignoring files it did not generate", () => {
    const out = join(work, "stale");
    rmSync(out, { recursive: true, force: true });
    contractgen("generate", "specs/incidents.yaml", "-o", out);
    rmSync(join(out, "sdk", "types.ts"));
    writeFileSync(join(out, "sdk", "extra.ts"), "");
    writeFileSync(join(out, "README.md"), "changed");
    const r = contractgen("generate", "specs/incidents.yaml", "-o", out, "--check");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("changed: README.md");
    expect(r.stderr).toContain("missing: sdk/types.ts");
    expect(r.stderr).not.toContain("sdk/extra.ts");
  });

  it("adds to a folder it did not generate without replacing anything, and generates nothing from an invalid contract", () => {
    const foreign = join(work, "foreign");
    rmSync(foreign, { recursive: true, force: true });
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, "notes.txt"), "mine");
    writeFileSync(join(foreign, "README.md"), "my readme");
    const r = contractgen("generate", "specs/billing.v2.yaml", "-o", foreign);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("README.md: exists and was not generated by contractgen");
    expect(readFileSync(join(foreign, "README.md"), "utf8")).toBe("my readme");
    rmSync(join(foreign, "README.md"));
    expect(contractgen("generate", "specs/billing.v2.yaml", "-o", foreign).code).toBe(0);
    expect(readFileSync(join(foreign, "notes.txt"), "utf8")).toBe("mine");

    const out = join(work, "never");
    rmSync(out, { recursive: true, force: true });
    const bad = contractgen("generate", "test/fixtures/invalid/idempotency-key-missing.yaml", "-o", out);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("[idempotency-key-missing]");
    expect(existsSync(out)).toBe(false);
  });

  it("--watch regenerates when the contract changes", async () => {
    const dir = join(work, "watch");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const spec = join(dir, "releases.yaml");
    cpSync("specs/releases.yaml", spec);
    const out = join(dir, "out");
    const watch = watchGenerate(spec, "-o", out);
    try {
      await watch.waitFor(() => watch.generations() === 1 && watch.stderr().includes("watching "));
      writeFileSync(spec, readFileSync(spec, "utf8").replace("title: Releases", "title: Releases Renamed"));
      await watch.waitFor(() => existsSync(join(out, "README.md")) && readFileSync(join(out, "README.md"), "utf8").includes("Releases Renamed"));
      expect(watch.stderr()).not.toContain("contractgen:");
    } finally {
      watch.stop();
    }
  }, 180_000);

  it("--watch regenerates when an OpenAPI document's overlay changes", async () => {
    const dir = join(work, "watch-openapi");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync("specs/openapi/bookshelf.yaml", join(dir, "bookshelf.yaml"));
    cpSync("specs/openapi/bookshelf.overlay.yaml", join(dir, "bookshelf.overlay.yaml"));
    const overlay = join(dir, "bookshelf.overlay.yaml");
    const out = join(dir, "out");
    const watch = watchGenerate(join(dir, "bookshelf.yaml"), "--overlay", overlay, "-o", out);
    try {
      await watch.waitFor(() => watch.generations() === 1 && watch.stderr().includes("watching "));
      expect(watch.stderr()).toContain("bookshelf.overlay.yaml");
      writeFileSync(overlay, readFileSync(overlay, "utf8").replace("x-unit: pages", "x-unit: sheets"));
      await watch.waitFor(() => watch.generations() === 2);
      expect(readFileSync(join(out, "sdk", "schemas.json"), "utf8")).toContain('"x-unit":"sheets"');
      expect(watch.stderr()).not.toContain("contractgen:");
    } finally {
      watch.stop();
    }
  }, 180_000);
});

describe("what generate says (issue 41)", () => {
  it("the summary says when nothing changed, how many of the files it wrote, and the overlays it applied", () => {
    const out = join(work, "summary");
    rmSync(out, { recursive: true, force: true });
    const first = contractgen("generate", "specs/releases.yaml", "-o", out);
    const total = Number(/wrote (\d+) of \1 files/.exec(first.stdout)![1]);
    const again = contractgen("generate", "specs/releases.yaml", "-o", out);
    expect(again.stdout).toMatch(new RegExp(`^${out.replaceAll("/", "\\/")}: ${total} files up to date with specs/releases\\.yaml, nothing changed \\(\\d+ ms\\)\\n$`));
    rmSync(join(out, "README.md"));
    const one = contractgen("generate", "specs/releases.yaml", "-o", out);
    // Only the README: the manifest, whose hashes did not change, is left as it is.
    expect(one.stdout).toMatch(new RegExp(`: wrote 1 of ${total} files from specs/releases\\.yaml in \\d+ ms \\(1 changed, 0 deleted\\)\\n$`));

    const openapi = join(work, "summary-openapi");
    rmSync(openapi, { recursive: true, force: true });
    const overlaid = contractgen("generate", "specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml", "-o", openapi);
    expect(overlaid.stdout).toMatch(/: wrote (\d+) of \1 files from specs\/openapi\/bookshelf\.yaml with overlay specs\/openapi\/bookshelf\.overlay\.yaml in \d+ ms/);
    const checked = contractgen("generate", "specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml", "-o", openapi, "--check");
    expect(checked.stdout).toContain("up to date with specs/openapi/bookshelf.yaml with overlay specs/openapi/bookshelf.overlay.yaml");
  });

  it("after a hand edit, --check and generate both name the file, say --force overwrites it and that the edits would be lost", () => {
    const out = join(work, "edited");
    rmSync(out, { recursive: true, force: true });
    expect(contractgen("generate", "specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml", "-o", out).code).toBe(0);
    writeFileSync(join(out, "sdk", "client.ts"), "// edited by hand\n");
    // The command to run repeats the overlay: without it, generate would write another package.
    const command = `contractgen generate specs/openapi/bookshelf.yaml --overlay specs/openapi/bookshelf.overlay.yaml -o ${out}`;
    const check = contractgen("generate", "specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml", "-o", out, "--check");
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`; run \`${command}\`:\n  changed: sdk/client.ts (edited by hand since it was generated)\n`);
    expect(check.stderr).toContain(
      `Edited by hand since contractgen generated it: sdk/client.ts. \`${command}\` refuses to overwrite it; \`${command} --force\` overwrites it with the generated text, and the hand edits would be lost: copy them elsewhere first.\n`,
    );
    const refused = contractgen("generate", "specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml", "-o", out);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("  sdk/client.ts: edited since contractgen generated it\n");
    expect(refused.stderr).toContain(`Edited by hand since contractgen generated it: sdk/client.ts. \`${command} --force\` overwrites it with the generated text, and the hand edits would be lost: copy them elsewhere first.\n`);
    // Only edited files: nothing else to move away.
    expect(refused.stderr).not.toContain("Move these away");
    expect(readFileSync(join(out, "sdk", "client.ts"), "utf8")).toBe("// edited by hand\n");
  });

  it("writes a .gitignore once, never over the user's own, and never replaces or compares it afterwards", () => {
    const out = join(work, "gitignore");
    rmSync(out, { recursive: true, force: true });
    expect(contractgen("generate", "specs/billing.v2.yaml", "-o", out).code).toBe(0);
    const ignore = readFileSync(join(out, ".gitignore"), "utf8").split("\n");
    expect(ignore).toEqual(expect.arrayContaining(["node_modules/", "dist/", "*-journal.sqlite", "*-journal.sqlite-wal", "*-journal.sqlite-shm", "reports/"]));
    const manifest = () => JSON.parse(readFileSync(join(out, ".contractgen.json"), "utf8")) as { files: Record<string, string>; writeOnce?: string[] };
    expect(manifest().writeOnce).toContain(".gitignore");
    expect(Object.keys(manifest().files)).not.toContain(".gitignore");
    // Edited (as .gitignore files are): still up to date, and regenerating keeps the edit without --force.
    writeFileSync(join(out, ".gitignore"), "node_modules/\n.env\n");
    expect(contractgen("generate", "specs/billing.v2.yaml", "-o", out, "--check").code).toBe(0);
    expect(contractgen("generate", "specs/billing.v2.yaml", "-o", out).code).toBe(0);
    expect(readFileSync(join(out, ".gitignore"), "utf8")).toBe("node_modules/\n.env\n");

    // A folder that already has the user's .gitignore: kept, and not claimed in the manifest.
    const own = join(work, "gitignore-own");
    rmSync(own, { recursive: true, force: true });
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, ".gitignore"), "mine\n");
    expect(contractgen("generate", "specs/billing.v2.yaml", "-o", own).code).toBe(0);
    expect(readFileSync(join(own, ".gitignore"), "utf8")).toBe("mine\n");
    const ownManifest = JSON.parse(readFileSync(join(own, ".contractgen.json"), "utf8")) as { writeOnce?: string[] };
    expect(ownManifest.writeOnce ?? []).not.toContain(".gitignore");
    expect(contractgen("generate", "specs/billing.v2.yaml", "-o", own, "--check").code).toBe(0);
    expect(contractgen("generate", "specs/billing.v2.yaml", "-o", own).stdout).toContain("nothing changed");
  });
});
