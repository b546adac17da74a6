// Benchmark of `contractgen diff`: two synthetic 1,000-operation contracts that differ in 100
// scattered places, and a GitHub-size pair (1,200 operations over 80 nested shared types, 100
// changes of which 30 edit shared types). Reports parse time per side, diff time (both stages + all
// rules, median), and the diff's ratio to parsing one side in the same run.
// Usage: npm run bench:diff
// With CONTRACTGEN_BASELINE=<checkout with a built dist/> the GitHub-size pair is also diffed by that
// build, in the same run, and the table shows the ratio (before/after).
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { runDiff } from "../dist/src/diff/engine.js";
import { parseContractText } from "../dist/src/contract/parse.js";
import { reviseContract, syntheticContract } from "./synthetic.mjs";
import { githubShapedContract, reviseGithubShaped } from "./synthetic-shared.mjs";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function timeIt(fn, runs = 7) {
  fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const OPS = 1000;
const base = syntheticContract(OPS);
// 100 changes, one every 10 operations, cycling through kinds of change.
const revised = reviseContract(base, OPS, 100);
let a;
let b;
const parseMs = timeIt(() => (a = parseContractText("old.yaml", base)), 3);
b = parseContractText("new.yaml", revised.text);
if (!a.model || !b.model) throw new Error(`synthetic contract invalid: ${[...a.diagnostics, ...b.diagnostics][0]?.message}`);
let report;
const diffMs = timeIt(() => (report = runDiff({ model: a.model, source: a.source, label: "old" }, { model: b.model, source: b.source, label: "new" })));
const result = { date: new Date().toISOString(), node: process.version, operations: OPS, changesMade: revised.changes, findings: report.findings.length, summary: report.summary, parseOneSideMs: parseMs, diffMs, diffToParse: diffMs / parseMs };

// GitHub size: most changes are inside shared types every operation reaches through other types.
const GH_OPS = 1200;
const ghBase = githubShapedContract(GH_OPS);
const ghRevised = reviseGithubShaped(ghBase, { shared: 30, perOperation: 70 });
/** Parse both sides and diff them with one build (dist directory); median diff time, heap growth, findings. */
async function measureGithub(dist) {
  const engine = await import(pathToFileURL(resolve(dist, "src/diff/engine.js")).href);
  const parse = await import(pathToFileURL(resolve(dist, "src/contract/parse.js")).href);
  const t = performance.now();
  const x = parse.parseContractText("old.yaml", ghBase);
  const parseOneSideMs = performance.now() - t;
  const y = parse.parseContractText("new.yaml", ghRevised.text);
  if (!x.model || !y.model) throw new Error(`GitHub-size contract invalid: ${[...x.diagnostics, ...y.diagnostics][0]?.message}`);
  let r;
  const run = () => (r = engine.runDiff({ model: x.model, source: x.source, label: "old" }, { model: y.model, source: y.source, label: "new" }));
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  run();
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const ms = timeIt(run, 3);
  const all = (fs) => fs.flatMap((f) => [f, ...all(f.consequences)]);
  return { parseOneSideMs, diffMs: ms, heapGrowthMiB: heapMiB, findings: r.findings.length, withConsequences: all(r.findings).length, summary: r.summary, sharedTypeFindings: r.findings.filter((f) => f.rule === "shared-type-changed").length };
}
const github = { operations: GH_OPS, sharedTypeEdits: ghRevised.shared, perOperationEdits: ghRevised.perOperation, after: await measureGithub("dist") };
if (process.env.CONTRACTGEN_BASELINE) {
  github.before = await measureGithub(resolve(process.env.CONTRACTGEN_BASELINE, "dist"));
  github.diffRatio = github.after.diffMs / github.before.diffMs;
}
result.github = github;

mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/diff.json", `${JSON.stringify(result, null, 2)}\n`);
const row = (label, g) =>
  `| ${label} | ${g.parseOneSideMs.toFixed(0)} | ${g.diffMs.toFixed(0)} | ${g.heapGrowthMiB.toFixed(0)} | ${g.findings} | ${g.withConsequences} | ${g.sharedTypeFindings} | ${g.summary.breaking} / ${g.summary.warning} / ${g.summary.info} |`;
const md = [
  "# diff benchmark",
  "",
  `Node ${process.version}; medians. Two synthetic contracts of ${OPS} operations differing in ${revised.changes} places.`,
  "",
  "| parse one side (ms) | diff: tree + structural + all rules (ms) | diff / parse | findings | breaking | warning | info |",
  "|---:|---:|---:|---:|---:|---:|---:|",
  `| ${parseMs.toFixed(0)} | ${diffMs.toFixed(0)} | ${result.diffToParse.toFixed(2)} | ${report.findings.length} | ${report.summary.breaking} | ${report.summary.warning} | ${report.summary.info} |`,
  "",
  `## GitHub size: ${GH_OPS} operations, 80 nested shared types, ${ghRevised.shared} shared-type edits + ${ghRevised.perOperation} per-operation edits`,
  "",
  "| build | parse one side (ms) | diff (ms) | diff heap growth (MiB) | findings | with consequences | shared-type findings | breaking / warning / info |",
  "|---|---:|---:|---:|---:|---:|---:|---:|",
  ...(github.before ? [row("before (baseline)", github.before)] : []),
  row("this build", github.after),
  ...(github.before ? ["", `Diff time after / before: **${github.diffRatio.toFixed(3)}×** (${(1 / github.diffRatio).toFixed(1)}× faster).`] : []),
  "",
];
writeFileSync("bench/results/diff.md", md.join("\n"));
console.log(md.join("\n"));
