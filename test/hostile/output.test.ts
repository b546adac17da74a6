/**
 * `contractgen generate` against an attacker's (or a careless user's) output folder: it writes only
 * files it generated, never through a link or outside the folder, survives being killed mid-write,
 * and --check never walks, hangs or reads anything but the paths it generates.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { compareTree, type GeneratedOutput, MANIFEST, OutputConflictError, TRANSACTION, writeTree } from "../../src/write/tree.js";

const BIN = resolve("bin/contractgen.js");
const work = resolve("test-results/hostile-output");
const SPEC = resolve("specs/releases.yaml");

function contractgen(args: string[], options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: options.timeout ?? 60_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function fresh(name: string): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Every entry under `dir` (links not followed) with its content, for before/after comparisons. */
function snapshot(dir: string, base = dir): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    const rel = path.slice(base.length + 1);
    if (e.isDirectory()) {
      out[`${rel}/`] = "";
      Object.assign(out, snapshot(path, base));
    } else if (e.isFile()) out[rel] = readFileSync(path, "utf8");
    else out[rel] = `<${e.isSymbolicLink() ? "link" : "special"}>`;
  }
  return out;
}

/** A user's project: sources, git, secrets, an install and a build. */
function addUserFiles(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "src", "index.ts"), "export const mine = 1;\n");
  mkdirSync(join(dir, ".git", "refs"), { recursive: true });
  writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, ".env"), "TOKEN=secret\n");
  mkdirSync(join(dir, "sdk"), { recursive: true });
  writeFileSync(join(dir, "sdk", "extensions.ts"), "// hand-written next to the generated code\n");
  mkdirSync(join(dir, "node_modules", "x"), { recursive: true });
  writeFileSync(join(dir, "node_modules", "x", "index.js"), "module.exports = 1;\n");
  mkdirSync(join(dir, "dist"), { recursive: true });
  writeFileSync(join(dir, "dist", "built.js"), "built\n");
}
const USER_FILES = ["src/index.ts", ".git/HEAD", ".env", "sdk/extensions.ts", "node_modules/x/index.js", "dist/built.js"];

describe("generate never replaces the output folder as a whole (defect 1)", { timeout: 240_000 }, () => {
  it("a folder holding an empty .contractgen.json is refused, and --force still keeps src/ and .git/", () => {
    const dir = fresh("empty-manifest");
    addUserFiles(dir);
    writeFileSync(join(dir, MANIFEST), "");
    const before = snapshot(dir);
    const r = contractgen(["generate", SPEC, "-o", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${MANIFEST}: not a contractgen manifest`);
    expect(snapshot(dir)).toEqual(before);

    const forced = contractgen(["generate", SPEC, "-o", dir, "--force"]);
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    for (const f of USER_FILES) expect(readFileSync(join(dir, f), "utf8")).toBe(before[f]);
    expect(existsSync(join(dir, "sdk", "client.ts"))).toBe(true);
    expect(contractgen(["generate", SPEC, "-o", dir, "--check"]).code).toBe(0);
  });

  it("-o $PWD and -o . with an empty manifest are refused the same way", () => {
    const dir = fresh("pwd-manifest");
    addUserFiles(dir);
    writeFileSync(join(dir, MANIFEST), "");
    const before = snapshot(dir);
    for (const out of [dir, "."]) {
      const r = contractgen(["generate", SPEC, "-o", out], { cwd: dir });
      expect(r.code).toBe(2);
      expect(snapshot(dir)).toEqual(before);
    }
  });
});

describe("regeneration keeps what the user added (defect 2)", { timeout: 240_000 }, () => {
  it("keeps .git, .env, hand-written sources, node_modules and dist; --check ignores them", () => {
    const dir = fresh("user-files");
    expect(contractgen(["generate", "specs/billing.v1.yaml", "-o", dir]).code).toBe(0);
    addUserFiles(dir);
    const r = contractgen(["generate", "specs/billing.v2.yaml", "-o", dir]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    for (const f of USER_FILES) expect(existsSync(join(dir, f)), f).toBe(true);
    const check = contractgen(["generate", "specs/billing.v2.yaml", "-o", dir, "--check"]);
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
  });

  it("refuses to overwrite a generated file edited by hand, naming it; --force replaces it", () => {
    const dir = fresh("edited");
    expect(contractgen(["generate", SPEC, "-o", dir]).code).toBe(0);
    writeFileSync(join(dir, "sdk", "client.ts"), "// edited by hand\n");
    writeFileSync(join(dir, "package.json"), "{}\n");
    const r = contractgen(["generate", SPEC, "-o", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("sdk/client.ts: edited since contractgen generated it");
    expect(r.stderr).toContain("package.json: edited since contractgen generated it");
    expect(r.stderr).toContain("--force");
    expect(readFileSync(join(dir, "sdk", "client.ts"), "utf8")).toBe("// edited by hand\n");
    const check = contractgen(["generate", SPEC, "-o", dir, "--check"]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("changed: sdk/client.ts (edited by hand since it was generated)");
    expect(contractgen(["generate", SPEC, "-o", dir, "--force"]).code).toBe(0);
    expect(readFileSync(join(dir, "sdk", "client.ts"), "utf8")).toContain("export class ReleasesClient");
  });

  it("keeps package-lock.json after npm install in the generated folder, and --check passes", (ctx) => {
    const dir = fresh("npm-install");
    expect(contractgen(["generate", SPEC, "-o", dir]).code).toBe(0);
    const npm = spawnSync("npm", ["install", "--prefer-offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: dir, encoding: "utf8", timeout: 240_000 });
    if (npm.status !== 0 && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(npm.stderr)) {
      ctx.skip(`npm install needs the registry, which is unreachable here: ${npm.stderr.split("\n")[0]}`);
    }
    expect(npm.status, npm.stderr).toBe(0);
    const lock = readFileSync(join(dir, "package-lock.json"), "utf8");
    const r = contractgen(["generate", SPEC, "-o", dir]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "package-lock.json"), "utf8")).toBe(lock);
    expect(existsSync(join(dir, "node_modules", "ajv", "package.json"))).toBe(true);
    const check = contractgen(["generate", SPEC, "-o", dir, "--check"]);
    expect(check.stderr).toBe("");
    expect(check.code).toBe(0);
  }, 300_000);
});

describe("links are never written through (defect 3)", { timeout: 240_000 }, () => {
  it("-o a symlink to generated output writes into its target and moves nothing out of it", () => {
    const base = fresh("linked");
    const real = join(base, "real");
    expect(contractgen(["generate", SPEC, "-o", real]).code).toBe(0);
    addUserFiles(real);
    symlinkSync(real, join(base, "link"));
    const r = contractgen(["generate", "specs/billing.v2.yaml", "-o", join(base, "link"), "--force"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(lstatSync(join(base, "link")).isSymbolicLink()).toBe(true);
    for (const f of USER_FILES) expect(existsSync(join(real, f)), f).toBe(true);
    expect(readFileSync(join(real, "package.json"), "utf8")).toContain("billing-sdk");
    expect(readdirSync(base).sort()).toEqual(["link", "real"]);
  });

  it("a symlinked folder or file inside the output is refused; --force replaces the link, never its target", () => {
    const base = fresh("inner-links");
    const dir = join(base, "out");
    const outside = join(base, "outside");
    mkdirSync(join(outside, "sdk"), { recursive: true });
    writeFileSync(join(outside, "sdk", "client.ts"), "outside\n");
    writeFileSync(join(outside, "README.md"), "outside readme\n");
    expect(contractgen(["generate", SPEC, "-o", dir]).code).toBe(0);
    rmSync(join(dir, "sdk"), { recursive: true });
    symlinkSync(join(outside, "sdk"), join(dir, "sdk"));
    rmSync(join(dir, "README.md"));
    symlinkSync(join(outside, "README.md"), join(dir, "README.md"));
    const before = snapshot(outside);
    const r = contractgen(["generate", SPEC, "-o", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("sdk: is a symbolic link where contractgen needs a folder");
    expect(r.stderr).toContain("README.md: is a symbolic link");
    expect(snapshot(outside)).toEqual(before);
    const check = contractgen(["generate", SPEC, "-o", dir, "--check"]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("not a regular file: sdk (symbolic link)");
    const forced = contractgen(["generate", SPEC, "-o", dir, "--force"]);
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    expect(snapshot(outside)).toEqual(before);
    expect(lstatSync(join(dir, "sdk")).isDirectory()).toBe(true);
    expect(lstatSync(join(dir, "README.md")).isFile()).toBe(true);
    expect(contractgen(["generate", SPEC, "-o", dir, "--check"]).code).toBe(0);
  });
});

describe("--check and odd output folders (defect 4)", { timeout: 240_000 }, () => {
  it("--check of a folder with many files (-o /usr/share) looks only at the generated paths", () => {
    // `-o /` itself is refused now (below); /usr/share is as large and generated into as rarely.
    const r = contractgen(["generate", SPEC, "-o", "/usr/share", "--check"], { timeout: 30_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("missing: sdk/client.ts");
    expect(r.stderr).not.toContain("not generated");
    expect(r.stderr.split("\n").length).toBeLessThan(100); // one line per generated file (about 50), not one per file on the disk
  });

  it("a FIFO in the output folder is reported, never opened: --check and generate do not hang", () => {
    const dir = fresh("fifo");
    expect(contractgen(["generate", SPEC, "-o", dir]).code).toBe(0);
    execFileSync("mkfifo", [join(dir, "user.pipe")]);
    expect(contractgen(["generate", SPEC, "-o", dir, "--check"], { timeout: 20_000 }).code).toBe(0);
    rmSync(join(dir, "sdk", "client.ts"));
    execFileSync("mkfifo", [join(dir, "sdk", "client.ts")]);
    const check = contractgen(["generate", SPEC, "-o", dir, "--check"], { timeout: 20_000 });
    expect(check.signal).toBeNull();
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("not a regular file: sdk/client.ts (FIFO)");
    const gen = contractgen(["generate", SPEC, "-o", dir], { timeout: 20_000 });
    expect(gen.signal).toBeNull();
    expect(gen.code).toBe(2);
    expect(gen.stderr).toContain("sdk/client.ts: is a FIFO");
    expect(contractgen(["generate", SPEC, "-o", dir, "--force"], { timeout: 20_000 }).code).toBe(0);
    expect(lstatSync(join(dir, "user.pipe")).isFIFO()).toBe(true);
    expect(contractgen(["generate", SPEC, "-o", dir, "--check"], { timeout: 20_000 }).code).toBe(0);
  });

  it("-o . and -o $PWD work in an empty folder", () => {
    for (const [name, out] of [["dot", "."], ["pwd", undefined]] as const) {
      const dir = fresh(`cwd-${name}`);
      const r = contractgen(["generate", SPEC, "-o", out ?? dir], { cwd: dir });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(existsSync(join(dir, "sdk", "client.ts"))).toBe(true);
      expect(contractgen(["generate", SPEC, "-o", ".", "--check"], { cwd: dir }).code).toBe(0);
    }
  });

  it("a non-empty folder without a manifest gets the generated files added, unless one collides", () => {
    const dir = fresh("add-only");
    addUserFiles(dir);
    const before = snapshot(dir);
    expect(contractgen(["generate", SPEC, "-o", "."], { cwd: dir }).code).toBe(0);
    for (const f of USER_FILES) expect(readFileSync(join(dir, f), "utf8")).toBe(before[f]);

    const clash = fresh("collide");
    writeFileSync(join(clash, "README.md"), "my readme\n");
    writeFileSync(join(clash, "package.json"), "{}\n");
    const r = contractgen(["generate", SPEC, "-o", clash]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("README.md: exists and was not generated by contractgen");
    expect(r.stderr).toContain("package.json: exists and was not generated by contractgen");
    expect(readdirSync(clash).sort()).toEqual(["README.md", "package.json"]);
    expect(readFileSync(join(clash, "README.md"), "utf8")).toBe("my readme\n");
  });
});

// ---------------------------------------------------------------------------------------------------
// The writer itself, on small trees.

const header = { generator: "contractgen", generatorVersion: "0.0.0-test" };
const tree = (files: Record<string, string>, writeOnce: string[] = []): GeneratedOutput => ({ header, files: new Map(Object.entries(files)), writeOnce: new Set(writeOnce) });
const V1 = tree({ "a.txt": "a1", "lib/b.txt": "b1", "old/gone.txt": "gone", "old/edited.txt": "e1", "same.txt": "same", "handlers/h.ts": "skeleton" }, ["handlers/h.ts"]);
const V2 = tree({ "a.txt": "a2", "lib/b.txt": "b2", "new/deep/c.txt": "c2", "same.txt": "same", "handlers/h.ts": "skeleton 2" }, ["handlers/h.ts"]);

function withoutManifest(s: Record<string, string>) {
  return Object.fromEntries(Object.entries(s).filter(([k]) => k !== MANIFEST));
}

describe("the writer", { timeout: 240_000 }, () => {
  it("deletes files it no longer generates only if unmodified, and never touches write-once files once they exist", () => {
    const dir = fresh("writer");
    writeTree(dir, V1);
    writeFileSync(join(dir, "old", "edited.txt"), "mine now");
    writeFileSync(join(dir, "handlers", "h.ts"), "implemented by the user");
    const result = writeTree(dir, V2);
    expect(result.deleted).toEqual(["old/gone.txt"]);
    expect(result.kept).toEqual(["old/edited.txt"]);
    expect(withoutManifest(snapshot(dir))).toEqual({
      "a.txt": "a2",
      "handlers/": "",
      "handlers/h.ts": "implemented by the user",
      "lib/": "",
      "lib/b.txt": "b2",
      "new/": "",
      "new/deep/": "",
      "new/deep/c.txt": "c2",
      "old/": "",
      "old/edited.txt": "mine now",
      "same.txt": "same",
    });
    const manifest = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8"));
    expect(manifest.writeOnce).toEqual(["handlers/h.ts"]);
    expect(Object.keys(manifest.files)).not.toContain("handlers/h.ts");
    expect(compareTree(dir, V2)).toMatchObject({ changed: [], missing: [], obsolete: [], irregular: [] });
  });

  it("trusts no path in a manifest: entries that leave the folder make it not a manifest", () => {
    const dir = fresh("evil-manifest");
    const victim = join(work, "victim.txt");
    writeFileSync(victim, "x");
    const sha = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"; // sha256("x")
    writeFileSync(join(dir, MANIFEST), JSON.stringify({ generator: "contractgen", files: { "../victim.txt": sha } }));
    expect(() => writeTree(dir, V1)).toThrow(OutputConflictError);
    expect(readFileSync(victim, "utf8")).toBe("x");
  });

  it("a crash at any point leaves the previous output, restored by the next run (killed by SIGKILL at every step)", () => {
    const dir = join(work, "killed");
    const script = join(work, "write-v2.mjs");
    const dist = pathToFileURL(resolve("dist/src/write/tree.js")).href;
    writeFileSync(
      script,
      `import { writeTree } from ${JSON.stringify(dist)};\n` +
        `const t = (f, w) => ({ header: ${JSON.stringify(header)}, files: new Map(Object.entries(f)), writeOnce: new Set(w) });\n` +
        `writeTree(process.argv[2], t(${JSON.stringify(Object.fromEntries(V2.files))}, ["handlers/h.ts"]), { force: process.argv[3] === "force" });\n`,
    );
    const setUp = () => {
      rmSync(dir, { recursive: true, force: true });
      writeTree(dir, V1);
      addUserFiles(dir);
      // A forced replacement of a link and a user file, so backups of both kinds are exercised.
      symlinkSync("a.txt", join(dir, "lib", "link"));
      writeFileSync(join(dir, "new"), "a user file where a folder will go");
      return snapshot(dir);
    };
    const forcedV2 = { ...Object.fromEntries(V2.files), "lib/link": "generated over a link", "new/deep/c.txt": "c2" };
    writeFileSync(script, readFileSync(script, "utf8").replace(JSON.stringify(Object.fromEntries(V2.files)), JSON.stringify(forcedV2)));
    const v2 = tree(forcedV2, ["handlers/h.ts"]);
    // What a complete write leaves (files only: a kill after the commit may leave an emptied folder).
    const filesOnly = (snap: Record<string, string>) => Object.fromEntries(Object.entries(snap).filter(([k]) => !k.endsWith("/")));
    setUp();
    expect(spawnSync(process.execPath, [script, dir, "force"], { encoding: "utf8" }).status).toBe(0);
    const after = filesOnly(snapshot(dir));
    const outcomes = { rolledBack: 0, committed: 0 };
    let completed = false;
    for (let at = 1; at < 200 && !completed; at++) {
      const before = setUp();
      const child = spawnSync(process.execPath, [script, dir, "force"], { encoding: "utf8", env: { ...process.env, CONTRACTGEN_TEST_KILL_AT: String(at) } });
      if (child.signal === null) {
        expect(child.stderr).toBe("");
        expect(child.status).toBe(0);
        completed = true;
        expect(compareTree(dir, v2)).toMatchObject({ changed: [], missing: [], obsolete: [], irregular: [], recovered: false });
        continue;
      }
      expect(child.signal, `step ${at}`).toBe("SIGKILL");
      // Recovery alone leaves exactly the previous output and the user's files, or (killed after the
      // commit point) exactly the new output…
      const interrupted = existsSync(join(dir, TRANSACTION));
      const uncommitted = existsSync(join(dir, TRANSACTION, "plan.json"));
      expect(compareTree(dir, V1).recovered, `step ${at}`).toBe(interrupted);
      expect(existsSync(join(dir, TRANSACTION))).toBe(false);
      const state = snapshot(dir);
      if (uncommitted) {
        expect(state, `killed at step ${at}`).toEqual(before);
        outcomes.rolledBack++;
      } else if (JSON.stringify(state) === JSON.stringify(before)) outcomes.rolledBack++;
      else {
        expect(filesOnly(state), `killed at step ${at}`).toEqual(after);
        outcomes.committed++;
      }
      // …and the next write completes.
      const again = spawnSync(process.execPath, [script, dir, "force"], { encoding: "utf8" });
      expect(again.status, again.stderr).toBe(0);
      expect(compareTree(dir, v2)).toMatchObject({ changed: [], missing: [], irregular: [] });
      for (const f of USER_FILES) expect(existsSync(join(dir, f)), f).toBe(true);
    }
    expect(completed).toBe(true);
    expect(outcomes.rolledBack).toBeGreaterThan(20);
    expect(outcomes.committed).toBeGreaterThan(0);
  });

  it("a rollback that is itself killed is finished by the next run", () => {
    const dir = join(work, "killed-twice");
    const script = join(work, "write-v2-plain.mjs");
    const dist = pathToFileURL(resolve("dist/src/write/tree.js")).href;
    writeFileSync(
      script,
      `import { writeTree, compareTree } from ${JSON.stringify(dist)};\n` +
        `const t = (f, w) => ({ header: ${JSON.stringify(header)}, files: new Map(Object.entries(f)), writeOnce: new Set(w) });\n` +
        `if (process.argv[3] === "check") compareTree(process.argv[2], t({}, []));\n` +
        `else writeTree(process.argv[2], t(${JSON.stringify(Object.fromEntries(V2.files))}, ["handlers/h.ts"]));\n`,
    );
    for (let recoverAt = 1; recoverAt < 40; recoverAt++) {
      rmSync(dir, { recursive: true, force: true });
      writeTree(dir, V1);
      addUserFiles(dir);
      const before = snapshot(dir);
      // Step 16: the plan is written, two files deleted, two folders made, a.txt renamed in, lib/b.txt
      // backed up but not yet replaced.
      const first = spawnSync(process.execPath, [script, dir], { env: { ...process.env, CONTRACTGEN_TEST_KILL_AT: "16" } });
      expect(first.signal).toBe("SIGKILL");
      const second = spawnSync(process.execPath, [script, dir, "check"], { encoding: "utf8", env: { ...process.env, CONTRACTGEN_TEST_KILL_AT: String(recoverAt) } });
      compareTree(dir, V1);
      expect(snapshot(dir), `rollback killed at step ${recoverAt}`).toEqual(before);
      if (second.signal === null) break;
    }
  });
});

describe("a kill during `contractgen generate` itself", { timeout: 240_000 }, () => {
  it("leaves the previous output, which the next --check restores and finds up to date", () => {
    const dir = fresh("cli-killed");
    expect(contractgen(["generate", "specs/billing.v1.yaml", "-o", dir]).code).toBe(0);
    addUserFiles(dir);
    const before = snapshot(dir);
    // How many files v1 → v2 changes, to kill after staging them (2 steps each for the transaction
    // folder and the plan) and a few renames in.
    const scratch = fresh("cli-killed-scratch");
    expect(contractgen(["generate", "specs/billing.v1.yaml", "-o", scratch]).code).toBe(0);
    const changed = Number(/\((\d+) changed/.exec(contractgen(["generate", "specs/billing.v2.yaml", "-o", scratch]).stdout)?.[1]);
    expect(changed).toBeGreaterThan(3);
    const killed = contractgen(["generate", "specs/billing.v2.yaml", "-o", dir], { env: { CONTRACTGEN_TEST_KILL_AT: String(2 + changed + 2 + 3) } });
    expect(killed.signal).toBe("SIGKILL");
    expect(existsSync(join(dir, TRANSACTION, "plan.json"))).toBe(true);
    const check = contractgen(["generate", "specs/billing.v1.yaml", "-o", dir, "--check"]);
    expect(check.stderr).toContain("rolled back an interrupted generation");
    expect(check.code).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });
});

/**
 * Folders nobody generates into. Each refusal is provoked with `--check` where a missed refusal would
 * write into the machine's own folders (these tests run as root in CI): `--check` only reads, and
 * used to call `-o /` up to date once `generate -o /` had written 53 files there.
 */
describe("generate refuses the root, the home folder and system folders, unless --force", { timeout: 240_000 }, () => {
  const home = fresh("fake-home");
  const env = { HOME: home, USERPROFILE: home };
  const refused = (r: { code: number | null; stderr: string }, shown: string) => {
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`contractgen: error [output-folder-refused] -o ${shown}`);
    expect(r.stderr).toMatch(/\n  hint: Generate into a folder of its own \(e\.g\. -o \.\/sdk\); --force writes there anyway\.\n$/);
  };

  it.each([
    ["/", '"/" is the root of the file system'],
    ["//", '"//" (/) is the root of the file system'],
    ["/etc", '"/etc" is the system folder /etc'],
    ["/usr/", '"/usr/" (/usr) is the system folder /usr'],
    ["/var/tmp/../../opt", '"/var/tmp/../../opt" (/opt) is the system folder /opt'],
    ["/bin", '"/bin"'],
    ["/sbin", '"/sbin"'],
    ["/lib", '"/lib"'],
    ["/lib64", '"/lib64"'],
    ["/boot", '"/boot"'],
    ["/dev", '"/dev"'],
    ["/proc", '"/proc"'],
    ["/sys", '"/sys"'],
    ["/var", '"/var"'],
  ])("--check -o %s", (out, shown) => {
    refused(contractgen(["generate", SPEC, "-o", out, "--check"], { env }), shown);
  });

  it("a link to a system folder is that folder", () => {
    const dir = fresh("link-to-etc");
    symlinkSync("/etc", join(dir, "out"));
    refused(contractgen(["generate", SPEC, "-o", join(dir, "out"), "--check"], { env }), `${JSON.stringify(join(dir, "out"))} (/etc) is the system folder /etc`);
  });

  it("the home folder itself is refused (nothing written), and --force writes there anyway", () => {
    const r = contractgen(["generate", SPEC, "-o", home], { env });
    refused(r, `${JSON.stringify(home)} is your home folder itself`);
    expect(readdirSync(home)).toEqual([]);
    refused(contractgen(["generate", SPEC, "-o", `${home}/x/..`, "--check"], { env }), `${JSON.stringify(`${home}/x/..`)} (${home}) is your home folder itself`);
    const forced = contractgen(["generate", SPEC, "-o", home, "--force"], { env });
    expect(forced.code).toBe(0);
    expect(existsSync(join(home, MANIFEST))).toBe(true);
    // Folders inside the home folder or a system folder stay allowed.
    expect(contractgen(["generate", SPEC, "-o", join(home, "projects", "sdk")], { env }).code).toBe(0);
    const varTmp = mkdtempSync("/var/tmp/contractgen-output-");
    try {
      expect(contractgen(["generate", SPEC, "-o", join(varTmp, "out")], { env }).code).toBe(0);
      expect(existsSync(join(varTmp, "out", MANIFEST))).toBe(true);
    } finally {
      rmSync(varTmp, { recursive: true, force: true });
    }
  });

  it("import-openapi refuses to write into the root or a system folder (its -o and --report), but not the home folder", () => {
    const doc = join(fresh("import-folders"), "openapi.yaml");
    writeFileSync(doc, "openapi: 3.1.0\ninfo: { title: Pets, version: 1.0.0 }\npaths:\n  /pets:\n    get:\n      operationId: list_pets\n      responses: { '200': { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } } }\n");
    // /proc: a missed refusal fails to write there rather than writing.
    for (const args of [["-o", "/proc/contract.yaml"], ["-o", join(dirname(doc), "c.yaml"), "--report", "/proc/review"]]) {
      const r = contractgen(["import-openapi", doc, ...args], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`contractgen: error [output-folder-refused] ${args[args.length - 2]} "/proc/`);
      expect(r.stderr).toContain('would be written into "/proc", the system folder /proc; nothing was written.');
    }
    const inHome = contractgen(["import-openapi", doc, "-o", join(home, "pets.yaml")], { env });
    expect(inHome.stderr).not.toContain("output-folder-refused");
    expect(inHome.code).toBe(0);
  });
});
