// Benchmark of `contractgen diff`: two synthetic 1,000-operation contracts that differ in 100
// scattered places. Reports parse time per side, diff time (both stages + all rules, median), and
// the diff's ratio to parsing one side in the same run. Usage: npm run bench:diff
import { mkdirSync, writeFileSync } from "node:fs";
import { runDiff } from "../dist/src/diff/engine.js";
import { parseContractText } from "../dist/src/spec/parse.js";
import { reviseContract, syntheticContract } from "./synthetic.mjs";

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
const revised = reviseContract(base, OPS, 100);
let a;
let b;
const parseMs = timeIt(() => (a = parseContractText("old.yaml", base)), 3);
b = parseContractText("new.yaml", revised.text);
if (!a.model || !b.model) throw new Error(`synthetic contract invalid: ${[...a.diagnostics, ...b.diagnostics][0]?.message}`);
let report;
const diffMs = timeIt(() => (report = runDiff({ model: a.model, source: a.source, label: "old" }, { model: b.model, source: b.source, label: "new" })));
const result = { date: new Date().toISOString(), node: process.version, operations: OPS, changesMade: revised.changes, findings: report.findings.length, summary: report.summary, parseOneSideMs: parseMs, diffMs, diffToParse: diffMs / parseMs };
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/diff.json", `${JSON.stringify(result, null, 2)}\n`);
const md = [
  "# diff benchmark",
  "",
  `Node ${process.version}; medians. Two synthetic contracts of ${OPS} operations differing in ${revised.changes} places.`,
  "",
  "| parse one side (ms) | diff: tree + structural + all rules (ms) | diff / parse | findings | breaking | warning | info |",
  "|---:|---:|---:|---:|---:|---:|---:|",
  `| ${parseMs.toFixed(0)} | ${diffMs.toFixed(0)} | ${result.diffToParse.toFixed(2)} | ${report.findings.length} | ${report.summary.breaking} | ${report.summary.warning} | ${report.summary.info} |`,
  "",
];
writeFileSync("bench/results/diff.md", md.join("\n"));
console.log(md.join("\n"));
