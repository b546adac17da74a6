#!/usr/bin/env node
/**
 * Sets up contractgen for the GitHub Action, in the action's own checkout (this folder's parent).
 *
 *   node action/setup.mjs key       writes to $GITHUB_OUTPUT `key`, the cache key of node_modules/ and
 *                                   dist/ (the lockfile, the compiler settings and every compiled source),
 *                                   and `npm-key`, the npm cache's (the lockfile alone)
 *   node action/setup.mjs install   installs and builds only what is missing
 *
 * `install` runs `npm ci --omit=dev --ignore-scripts --prefer-offline` (runtime dependencies only; no
 * native builds: better-sqlite3 is only opened by generated packages' journals, never by diff or
 * generate; --prefer-offline takes packages from the npm cache without asking the registry), then
 * `tsc -p tsconfig.json --noCheck` with the lockfile's typescript installed beside it (emit only: the
 * JavaScript is the same as a checked build's). With node_modules/ and dist/ restored from the cache under the key above, it does nothing.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const HOME = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** What tsconfig.json compiles (include: src, examples) and what npm ci installs from. */
const SOURCES = ["package-lock.json", "package.json", "tsconfig.json", "src", "examples"];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? files(join(path, e.name)) : e.isFile() ? [join(path, e.name)] : []));
}

/** What node_modules/ and dist/ are built from, as one hash; the Node major version too (dist differs by nothing else). */
export function buildKey(home = HOME) {
  const hash = createHash("sha256");
  hash.update(`node${process.versions.node.split(".")[0]}\0`);
  for (const f of SOURCES.flatMap((s) => files(join(home, s)))) {
    hash.update(relative(home, f).split(sep).join("/"));
    hash.update("\0");
    hash.update(readFileSync(f));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 32);
}

function run(command, args) {
  process.stdout.write(`$ ${command} ${args.join(" ")}\n`);
  execFileSync(command, args, { cwd: HOME, stdio: "inherit" });
}

/** The compiler and the Node types tsconfig.json names, at the lockfile's versions (devDependencies). */
export function compiler(home = HOME) {
  const lock = JSON.parse(readFileSync(join(home, "package-lock.json"), "utf8")).packages ?? {};
  return ["typescript", "@types/node"].map((name) => {
    const version = lock[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`package-lock.json pins no ${name}`);
    return `${name}@${version}`;
  });
}

function install() {
  const [major] = process.versions.node.split(".").map(Number);
  if (major < 20) {
    process.stdout.write(`::error title=contractgen setup::contractgen needs Node 20 or newer; this runner has ${process.version}. Set the action's node-version input, or add actions/setup-node before it.\n`);
    return 2;
  }
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const quiet = ["--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
  const modules = join(HOME, "node_modules");
  // Runtime dependencies only: the devDependencies (benchmark peers, test corpora) weigh ten times more.
  if (!existsSync(join(modules, ".package-lock.json"))) run(npm, ["ci", "--omit=dev", ...quiet]);
  else process.stdout.write("contractgen: node_modules/ is in place.\n");
  if (existsSync(join(HOME, "dist", "src", "cli", "main.js"))) {
    process.stdout.write("contractgen: dist/ is built.\n");
    return 0;
  }
  // The compiler goes to a folder of its own (`npm install` of a devDependency under --omit=dev
  // installs nothing). --noCheck: emit only, which needs no type packages but the Node types tsconfig.json names; CI type-checks contractgen.
  const tools = mkdtempSync(join(process.env.RUNNER_TEMP || tmpdir(), "contractgen-tsc-"));
  try {
    run(npm, ["install", "--prefix", tools, "--no-package-lock", ...quiet, ...compiler()]);
    const installed = join(tools, "node_modules");
    run(process.execPath, [join(installed, "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--noCheck", "--typeRoots", join(installed, "@types")]);
  } finally {
    rmSync(tools, { recursive: true, force: true });
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === "key") {
    const lock = createHash("sha256").update(readFileSync(join(HOME, "package-lock.json"))).digest("hex").slice(0, 32);
    const os = `${process.platform}-${process.arch}`;
    const line = `key=contractgen-${os}-${buildKey()}\nnpm-key=contractgen-npm-${os}-${lock}\n`;
    if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, line);
    else process.stdout.write(line);
    process.exitCode = 0;
  } else if (command === "install") {
    try {
      process.exitCode = install();
    } catch (e) {
      process.stdout.write(`::error title=contractgen setup::setting up contractgen failed (${String(e.message).split("\n")[0]}).\n`);
      process.exitCode = 1;
    }
  } else {
    process.stderr.write("usage: node action/setup.mjs key|install\n");
    process.exitCode = 2;
  }
}
