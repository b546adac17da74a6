#!/usr/bin/env node
// Benchmark corpora and tools, installed on demand instead of by the repository's `npm ci`: each set
// is a locked sub-project in bench/corpora/<set>/ (package.json + package-lock.json) that
// `npm ci --prefix` installs the first time a benchmark or a test asks for it. Asking again is free:
// a stamp in the set's node_modules records which lockfile it was installed from.
//
//   node scripts/corpora.mjs [SET ...]   install the sets named (default: every set) when missing or stale
//   node scripts/corpora.mjs --list      the sets, what they hold and whether they are installed
//
// From code: `ensureCorpus(set)` → the set's node_modules folder; `corpusPackage(set, name)` → one
// package's folder in it. Both install the set first when needed (one line on stderr when they do),
// and throw CorpusInstallError (code CORPUS_INSTALL_FAILED) saying what to do when npm cannot.
// Concurrent callers (vitest workers) wait for one another through a lock folder.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CORPORA_DIR = join(ROOT, "bench", "corpora");
const STAMP = ".contractgen-corpus-stamp";
/** How long a caller waits for another process's install of the same set. */
const WAIT_MS = 15 * 60_000;

/** The sets: a folder each under bench/corpora/ (read from disk, so a new folder is a new set). */
export function corpusSets() {
  return readdirSync(CORPORA_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(CORPORA_DIR, d.name, "package-lock.json")))
    .map((d) => d.name)
    .sort();
}

export class CorpusInstallError extends Error {
  constructor(set, problem) {
    super(`The benchmark corpus set "${set}" (bench/corpora/${set}) could not be installed: ${problem}`);
    this.name = "CorpusInstallError";
    this.code = "CORPUS_INSTALL_FAILED";
    this.set = set;
  }
}

function setDir(set) {
  if (!/^[a-z0-9-]+$/.test(set) || !existsSync(join(CORPORA_DIR, set, "package-lock.json"))) {
    throw new CorpusInstallError(set, `there is no such set (sets: ${corpusSets().join(", ")})`);
  }
  return join(CORPORA_DIR, set);
}

function lockHash(dir) {
  return createHash("sha256").update(readFileSync(join(dir, "package-lock.json"))).update(readFileSync(join(dir, "package.json"))).digest("hex");
}

/** Whether the set is installed from its current lockfile. */
export function corpusInstalled(set) {
  const dir = setDir(set);
  const stamp = join(dir, "node_modules", STAMP);
  return existsSync(stamp) && readFileSync(stamp, "utf8").trim() === lockHash(dir);
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** Take the set's lock (a folder: mkdir is atomic), or null after another process finished the install. */
function lock(set, dir) {
  const lockDir = join(dir, ".install-lock");
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
    }
    if (corpusInstalled(set)) return null;
    // A lock whose holder died (killed mid-install) is taken over.
    let pid = 0;
    try {
      pid = Number(readFileSync(join(lockDir, "pid"), "utf8")) || 0;
    } catch {
      // Not written yet, or the lock was just let go: look again.
    }
    if (pid > 0 && !alive(pid)) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new CorpusInstallError(set, `another process (pid ${pid || "unknown"}) has been installing it for ${WAIT_MS / 60_000} minutes; remove ${lockDir} if it is gone`);
    sleep(500);
  }
}

/** Install `set` when it is missing or its lockfile changed; returns its node_modules folder. */
export function ensureCorpus(set) {
  const dir = setDir(set);
  const modules = join(dir, "node_modules");
  if (corpusInstalled(set)) return modules;
  const unlock = lock(set, dir);
  if (unlock === null) return modules;
  try {
    if (corpusInstalled(set)) return modules;
    const { dependencies } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    process.stderr.write(`corpora: installing ${Object.entries(dependencies).map(([n, v]) => `${n}@${v}`).join(", ")} into bench/corpora/${set} (once; npm ci from its lockfile) …\n`);
    const started = Date.now();
    // No install scripts: none of these needs one (esbuild finds its binary package without its own).
    // Warnings (e.g. a tool asking for a newer Node, whose CLI works here) are npm's, not shown.
    const run = spawnSync("npm", ["ci", "--prefix", dir, "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (run.error) throw new CorpusInstallError(set, `npm could not be started (${run.error.code ?? run.error.message}); is npm on PATH?`);
    if (run.status !== 0) {
      const output = `${run.stdout}\n${run.stderr}`;
      const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network/i.test(output);
      const tail = output.trim().split("\n").slice(-6).join("\n");
      throw new CorpusInstallError(
        set,
        offline
          ? `the npm registry cannot be reached. Connect to it (or set npm's registry/proxy settings) and run: node scripts/corpora.mjs ${set}\n${tail}`
          : `npm ci exited ${run.status}. Run it yourself to see why: npm ci --prefix bench/corpora/${set}\n${tail}`,
      );
    }
    writeFileSync(join(modules, STAMP), `${lockHash(dir)}\n`);
    process.stderr.write(`corpora: bench/corpora/${set} installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
    return modules;
  } finally {
    unlock();
  }
}

/** The folder of package `name` of `set` (installed first when needed). */
export function corpusPackage(set, name) {
  const dir = join(ensureCorpus(set), ...name.split("/"));
  if (!existsSync(join(dir, "package.json"))) throw new CorpusInstallError(set, `it has no package ${name} (see bench/corpora/${set}/package.json)`);
  return dir;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  if (args.includes("--list")) {
    for (const set of corpusSets()) {
      const { dependencies } = JSON.parse(readFileSync(join(CORPORA_DIR, set, "package.json"), "utf8"));
      process.stdout.write(`${set}\t${corpusInstalled(set) ? "installed" : "not installed"}\t${Object.entries(dependencies).map(([n, v]) => `${n}@${v}`).join(" ")}\n`);
    }
  } else {
    try {
      for (const set of args.length > 0 ? args : corpusSets()) ensureCorpus(set);
    } catch (e) {
      if (!(e instanceof CorpusInstallError)) throw e;
      process.stderr.write(`corpora: ${e.message} [${e.code}]\n`);
      process.exitCode = 1;
    }
  }
}
