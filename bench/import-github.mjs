// GitHub's REST description (@octokit/openapi, 1,000+ operations) through `contractgen import-openapi`,
// then `validate` and `generate`, each as its own process under /usr/bin/time (wall, peak RSS).
// Not part of CI (it takes minutes); the mid-size documents run in test/import/openapi.test.ts.
// Usage: npm run build && node bench/import-github.mjs [--no-generate]
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { corpusPackage } from "../scripts/corpora.mjs";

// From the on-demand set bench/corpora/octokit (installed on first use).
const SOURCE = join(corpusPackage("octokit", "@octokit/openapi"), "generated", "api.github.com.json");
const root = resolve("test-results/bench-import-github");
const cli = resolve("bin/contractgen.js");
rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });

function measured(args) {
  const r = spawnSync("/usr/bin/time", ["-f", "@@TIME %e %M", process.execPath, cli, ...args], { encoding: "utf8", maxBuffer: 256 << 20 });
  const m = /@@TIME ([\d.]+) (\d+)/.exec(r.stderr);
  return { seconds: m ? Number(m[1]) : NaN, peakMiB: m ? Math.round(Number(m[2]) / 1024) : NaN, status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/@@TIME.*\n?/, "") };
}

const contract = join(root, "github.yaml");
const imp = measured(["import-openapi", SOURCE, "-o", contract, "--report", join(root, "github-review")]);
if (imp.status !== 0) throw new Error(`import failed:\n${imp.stderr.slice(-2000)}`);
const report = JSON.parse(readFileSync(join(root, "github-review.json"), "utf8"));
const val = measured(["validate", "--format", "json", contract]);
const diagnostics = JSON.parse(val.stdout).files[0].diagnostics;
const count = (sev) => diagnostics.filter((d) => d.severity === sev).length;
const warnings = {};
for (const d of diagnostics.filter((d) => d.severity === "warning")) warnings[d.code] = (warnings[d.code] ?? 0) + 1;
const gen = process.argv.includes("--no-generate") ? null : measured(["generate", contract, "-o", join(root, "package")]);

const result = {
  source: SOURCE,
  openapiBytes: readFileSync(SOURCE).length,
  contractBytes: readFileSync(contract).length,
  operations: report.operations,
  types: report.types,
  import: { seconds: imp.seconds, peakMiB: imp.peakMiB },
  review: { items: report.items.length, counts: report.counts },
  validate: { seconds: val.seconds, peakMiB: val.peakMiB, errors: count("error"), warnings },
  generate: gen ? { seconds: gen.seconds, peakMiB: gen.peakMiB, status: gen.status } : "skipped",
};
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/import-github.json", `${JSON.stringify(result, null, 2)}\n`);
const md = [
  "# import-openapi: GitHub REST description",
  "",
  `${SOURCE} (${(result.openapiBytes / 1e6).toFixed(1)} MB) → ${result.operations} operations, ${result.types} types, contract ${(result.contractBytes / 1e6).toFixed(1)} MB.`,
  "",
  "| step | wall | peak RSS | result |",
  "|---|---|---|---|",
  `| import-openapi | ${imp.seconds} s | ${imp.peakMiB} MiB | ${report.items.length} review items |`,
  `| validate | ${val.seconds} s | ${val.peakMiB} MiB | ${result.validate.errors} errors, ${Object.entries(warnings).map(([k, n]) => `${n} ${k}`).join(", ")} |`,
  gen ? `| generate | ${gen.seconds} s | ${gen.peakMiB} MiB | exit ${gen.status} |` : "| generate | skipped | | |",
  "",
  "Review items per kind:",
  "",
  ...Object.entries(report.counts).map(([k, n]) => `- \`${k}\`: ${n}`),
  "",
].join("\n");
writeFileSync("bench/results/import-github.md", md);
console.log(md);
