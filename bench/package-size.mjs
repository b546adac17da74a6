// How often a generated package holds its contract, and what that costs: the GitHub package
// (@octokit/openapi, 1,223 operations) generated in adapter and skeleton mode, with the size of every
// file that carries contract data, the whole package, `generate`'s wall time and peak memory, and the
// package's `tsc --noEmit` (its own tsconfig: sdk, cli, mcp, server). Each figure is shown beside the
// one recorded before issue 29 (one contract module per package: bench/results/
// package-size-before-issue-29.json, measured at commit bf9ef2a). Sizes are exact; times recorded in
// another run are not comparable on a shared machine, so the bench also builds that commit (a git
// worktree; BEFORE_REV to choose another, BEFORE_REV=none to skip) and times its `generate` and the
// `tsc` of its package in turn with today's, five pairs each, giving the median ratio. Usage:
// npm run bench:package-size. Writes bench/results/package-size.json and package-size.md.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { corpusPackage } from "../scripts/corpora.mjs";
import { dirBytes, measured } from "./measure.mjs";

// From the on-demand set bench/corpora/octokit (installed on first use).
const DOCUMENT = join(corpusPackage("octokit", "@octokit/openapi"), "generated", "api.github.com.json");
const BIN = resolve("bin/contractgen.js");
const TSC = resolve("node_modules/typescript/bin/tsc");
/**
 * Every file a package carries or carried contract data in (as data or as a literal); the last three
 * are gone since the host and the contract tests read the SDK's.
 */
const DATA_FILES = ["sdk/contract.json", "sdk/operations.json", "sdk/schemas.json", "sdk/contract.ts", "mcp/contract.json", "tests/contract.ts", "tests/schema-defs.json"];
const BEFORE_FILE = "bench/results/package-size-before-issue-29.json";
const before = existsSync(BEFORE_FILE) ? JSON.parse(readFileSync(BEFORE_FILE, "utf8")) : null;

const BEFORE_REV = process.env.BEFORE_REV ?? "bf9ef2a";
const PAIRS = 5;

const work = mkdtempSync(join(tmpdir(), "contractgen-bench-package-"));
/** contractgen as it was at BEFORE_REV, built in a worktree; null when skipped or unavailable. */
const beforeBin = (() => {
  if (BEFORE_REV === "none") return null;
  const tree = join(work, "before-tree");
  try {
    execFileSync("git", ["worktree", "add", "--detach", "-q", tree, BEFORE_REV], { stdio: "pipe" });
    symlinkSync(resolve("node_modules"), join(tree, "node_modules"));
    execFileSync(process.execPath, [TSC, "-p", join(tree, "tsconfig.json")], { stdio: "pipe" });
    return join(tree, "bin/contractgen.js");
  } catch (e) {
    console.error(`no paired comparison: contractgen at ${BEFORE_REV} could not be built (${String(e.message).split("\n")[0]})`);
    return null;
  }
})();

/** `a` and `b` run in turn, PAIRS times; the median, least and greatest of a/b wall time. */
function paired(a, b) {
  const ratios = [];
  for (let i = 0; i < PAIRS; i++) {
    const x = measured(process.execPath, a);
    const y = measured(process.execPath, b);
    if (x.status !== 0 || y.status !== 0) throw new Error(`paired run failed: ${x.status !== 0 ? x.tail : y.tail}`);
    ratios.push(x.seconds / y.seconds);
  }
  ratios.sort((p, q) => p - q);
  return { median: ratios[Math.floor(ratios.length / 2)], min: ratios[0], max: ratios[ratios.length - 1], pairs: PAIRS };
}

const rows = [];
for (const mode of [{ name: "adapter", args: [] }, { name: "skeleton (--server skeleton)", args: ["--server", "skeleton"] }]) {
  const out = join(work, mode.name.split(" ")[0]);
  const generate = measured(process.execPath, [BIN, "generate", DOCUMENT, "-o", out, "--no-progress", ...mode.args]);
  if (generate.status !== 0) throw new Error(`generate failed: ${generate.tail}`);
  symlinkSync(resolve("node_modules"), join(out, "node_modules"));
  const tsc = measured(process.execPath, [TSC, "-p", join(out, "tsconfig.json"), "--noEmit"]);
  if (tsc.status !== 0) throw new Error(`tsc failed: ${tsc.tail}`);
  const files = Object.fromEntries(DATA_FILES.filter((f) => existsSync(join(out, f))).map((f) => [f, statSync(join(out, f)).size]));
  let vsBefore = null;
  if (beforeBin !== null) {
    const old = `${out}-before`;
    const generateArgs = (bin, dir) => [bin, "generate", DOCUMENT, "-o", dir, "--no-progress", "--force", ...mode.args];
    const generateRatio = paired(generateArgs(BIN, `${out}-again`), generateArgs(beforeBin, old));
    symlinkSync(resolve("node_modules"), join(old, "node_modules"));
    const tscRatio = paired([TSC, "-p", join(out, "tsconfig.json"), "--noEmit"], [TSC, "-p", join(old, "tsconfig.json"), "--noEmit"]);
    vsBefore = { rev: BEFORE_REV, generate: generateRatio, tsc: tscRatio };
  }
  rows.push({
    mode: mode.name,
    files,
    contractDataBytes: Object.values(files).reduce((a, b) => a + b, 0),
    packageBytes: dirBytes(out),
    generate: { seconds: generate.seconds, peakMiB: generate.peakMiB },
    tsc: { seconds: tsc.seconds, peakMiB: tsc.peakMiB },
    vsBefore,
  });
}
if (beforeBin !== null) execFileSync("git", ["worktree", "remove", "--force", join(work, "before-tree")], { stdio: "pipe" });
rmSync(work, { recursive: true, force: true });

const mb = (n) => (n / 1e6).toFixed(2);
const report = { date: new Date().toISOString(), node: process.version, document: "@octokit/openapi generated/api.github.com.json", rows, before: before?.rows ?? null, loadAverage: loadavg() };
writeFileSync("bench/results/package-size.json", `${JSON.stringify(report, null, 2)}\n`);
/** A paired ratio as "median× (min–max)". */
const ratioText = (r) => (r ? `${r.median.toFixed(2)}× (${r.min.toFixed(2)}–${r.max.toFixed(2)})` : "–");
/** "before → now" when the before figure exists, else the figure. */
const pair = (mode, get, show) => {
  const then = before?.rows.find((r) => r.mode === mode);
  const now = rows.find((r) => r.mode === mode);
  const a = then ? get(then) : undefined;
  const b = get(now);
  const text = (v) => (v === undefined ? "–" : show(v));
  return then ? `${text(a)} → ${text(b)}` : text(b);
};
const modes = rows.map((r) => r.mode);
const md = [
  "# Contract data in a generated package (GitHub)",
  "",
  `Node ${process.version}. \`contractgen generate\` of GitHub's REST description (${report.document}, 1,223 operations), then \`tsc --noEmit\` with the package's own tsconfig. Sizes in MB (10^6 bytes).${before ? ` Each cell: before issue 29 (${before.date.slice(0, 10)}, commit bf9ef2a) → this run; times from two runs on a shared machine.` : ""}`,
  "",
  `| file | ${modes.join(" | ")} |`,
  `|---|${modes.map(() => "---:").join("|")}|`,
  ...DATA_FILES.map((f) => `| ${f} | ${modes.map((m) => pair(m, (r) => r.files[f], mb)).join(" | ")} |`),
  `| **contract data, all files** | ${modes.map((m) => `**${pair(m, (r) => r.contractDataBytes, mb)}**`).join(" | ")} |`,
  `| whole package | ${modes.map((m) => pair(m, (r) => r.packageBytes, mb)).join(" | ")} |`,
  `| generate: wall (s) | ${modes.map((m) => pair(m, (r) => r.generate.seconds, (v) => v.toFixed(1))).join(" | ")} |`,
  `| generate: peak (MiB) | ${modes.map((m) => pair(m, (r) => r.generate.peakMiB, String)).join(" | ")} |`,
  `| tsc --noEmit: wall (s) | ${modes.map((m) => pair(m, (r) => r.tsc.seconds, (v) => v.toFixed(1))).join(" | ")} |`,
  `| tsc --noEmit: peak (MiB) | ${modes.map((m) => pair(m, (r) => r.tsc.peakMiB, String)).join(" | ")} |`,
  ...(rows.some((r) => r.vsBefore)
    ? [
        `| generate, paired with ${BEFORE_REV}: wall ratio now/before, median (min–max) | ${rows.map((r) => ratioText(r.vsBefore?.generate)).join(" | ")} |`,
        `| tsc --noEmit, paired with ${BEFORE_REV}: wall ratio now/before, median (min–max) | ${rows.map((r) => ratioText(r.vsBefore?.tsc)).join(" | ")} |`,
      ]
    : []),
  "",
  `Load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(", ")} (shared 2-core machine).`,
  "",
];
writeFileSync("bench/results/package-size.md", md.join("\n"));
console.log(md.join("\n"));
