// Benchmark of `contractgen diff`: two synthetic 1,000-operation contracts that differ in 100
// scattered places. Reports parse time per side, diff time (both stages + all rules, median), and
// the diff's ratio to parsing one side in the same run. Usage: npm run bench:diff
import { mkdirSync, writeFileSync } from "node:fs";
import { runDiff } from "../dist/src/diff/engine.js";
import { parseContractText } from "../dist/src/spec/parse.js";
import { syntheticContract } from "./synthetic.mjs";

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
/** 100 changes, one every 10 operations, cycling through kinds of change. */
function revise(text) {
  const lines = text.split("\n");
  let changes = 0;
  for (let i = 0; i < OPS && changes < 100; i += 10) {
    const header = lines.findIndex((l) => l === `  list_items_${i}:` || l === `  create_item_${i}:`);
    const kind = changes % 5;
    const end = lines.findIndex((l, j) => j > header && /^  [a-z]/.test(l));
    const block = lines.slice(header, end === -1 ? undefined : end);
    const edit = (from, to) => {
      const k = block.findIndex((l) => l.includes(from));
      if (k >= 0) block[k] = block[k].replace(from, to);
      return k >= 0;
    };
    const done =
      kind === 0 ? edit("maximum: 50", "maximum: 20") && edit("max: 50", "max: 20")
      : kind === 1 ? edit("summary: List items, a bounded page at a time.", "summary: List items page by page.") || edit("summary: Create an item once per key.", "summary: Create an item.")
      : kind === 2 ? edit("retention: 24h", "retention: 1h") || edit("filters: [name]", "filters: []")
      : kind === 3 ? edit("minLength: 1", "minLength: 3") || edit("total: { type: integer }", "total: { type: integer, minimum: 0 }")
      : edit("errors: [INVALID_FIELD]", "errors: [INVALID_FIELD, KEY_REUSED]") || edit("errors: [INVALID_FIELD, KEY_REUSED]", "errors: [INVALID_FIELD]");
    if (done) changes++;
    lines.splice(header, block.length, ...block);
  }
  return { text: lines.join("\n").replace("version: 1.0.0\n", "version: 2.0.0\n").replace("changelog:\n", "changelog:\n  - { version: 2.0.0, date: 2026-02-01 }\n"), changes };
}

const revised = revise(base);
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
