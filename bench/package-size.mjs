// How often a generated package holds its contract, and what that costs: the GitHub package
// (@octokit/openapi, 1,223 operations) generated in adapter and skeleton mode, with the size of every
// file that carries contract data, the whole package, `generate`'s wall time and peak memory, and the
// package's `tsc --noEmit` (its own tsconfig: sdk, cli, mcp, server). The "before" of issue 29's one
// contract module per package; rerun after it to compare. Usage: npm run bench:package-size.
// Writes bench/results/package-size.json and package-size.md.
import { existsSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { dirBytes, measured } from "./measure.mjs";

const DOCUMENT = resolve("node_modules/@octokit/openapi/generated/api.github.com.json");
const BIN = resolve("bin/contractgen.js");
const TSC = resolve("node_modules/typescript/bin/tsc");
/** Every file a package may carry contract data in (as data or as a literal). */
const DATA_FILES = ["sdk/contract.json", "sdk/operations.json", "sdk/schemas.json", "mcp/contract.json", "tests/contract.ts", "tests/schema-defs.json"];

const work = mkdtempSync(join(tmpdir(), "contractgen-bench-package-"));
const rows = [];
for (const mode of [{ name: "adapter", args: [] }, { name: "skeleton (--server skeleton)", args: ["--server", "skeleton"] }]) {
  const out = join(work, mode.name.split(" ")[0]);
  const generate = measured(process.execPath, [BIN, "generate", DOCUMENT, "-o", out, "--no-progress", ...mode.args]);
  if (generate.status !== 0) throw new Error(`generate failed: ${generate.tail}`);
  symlinkSync(resolve("node_modules"), join(out, "node_modules"));
  const tsc = measured(process.execPath, [TSC, "-p", join(out, "tsconfig.json"), "--noEmit"]);
  if (tsc.status !== 0) throw new Error(`tsc failed: ${tsc.tail}`);
  const files = Object.fromEntries(DATA_FILES.filter((f) => existsSync(join(out, f))).map((f) => [f, statSync(join(out, f)).size]));
  rows.push({
    mode: mode.name,
    files,
    contractDataBytes: Object.values(files).reduce((a, b) => a + b, 0),
    packageBytes: dirBytes(out),
    generate: { seconds: generate.seconds, peakMiB: generate.peakMiB },
    tsc: { seconds: tsc.seconds, peakMiB: tsc.peakMiB },
  });
}
rmSync(work, { recursive: true, force: true });

const mb = (n) => (n / 1e6).toFixed(2);
const report = { date: new Date().toISOString(), node: process.version, document: "@octokit/openapi generated/api.github.com.json", rows, loadAverage: loadavg() };
writeFileSync("bench/results/package-size.json", `${JSON.stringify(report, null, 2)}\n`);
const md = [
  "# Contract data in a generated package (GitHub)",
  "",
  `Node ${process.version}. \`contractgen generate\` of GitHub's REST description (${report.document}, 1,223 operations), then \`tsc --noEmit\` with the package's own tsconfig. Sizes in MB (10^6 bytes).`,
  "",
  `| file | ${rows.map((r) => r.mode).join(" | ")} |`,
  `|---|${rows.map(() => "---:").join("|")}|`,
  ...DATA_FILES.map((f) => `| ${f} | ${rows.map((r) => (r.files[f] === undefined ? "–" : mb(r.files[f]))).join(" | ")} |`),
  `| **contract data, all files** | ${rows.map((r) => `**${mb(r.contractDataBytes)}**`).join(" | ")} |`,
  `| whole package | ${rows.map((r) => mb(r.packageBytes)).join(" | ")} |`,
  `| generate: wall (s) / peak (MiB) | ${rows.map((r) => `${r.generate.seconds.toFixed(1)} / ${r.generate.peakMiB}`).join(" | ")} |`,
  `| tsc --noEmit: wall (s) / peak (MiB) | ${rows.map((r) => `${r.tsc.seconds.toFixed(1)} / ${r.tsc.peakMiB}`).join(" | ")} |`,
  "",
  `Load average while measuring: ${loadavg().map((x) => x.toFixed(1)).join(", ")} (shared 2-core machine).`,
  "",
];
writeFileSync("bench/results/package-size.md", md.join("\n"));
console.log(md.join("\n"));
