// Benchmark of reading a contract's YAML (src/contract/load.ts): parseSource (js-yaml's event stream,
// falling back to the yaml library) against parseSourceSlow (the yaml library only), alternated in
// the same run so machine load hits both alike. Also reports whether the fast path was taken.
// Usage: node bench/yaml-load.mjs [contract.yaml …]   (default: /tmp/gh/gh.yaml when present, and specs/*.yaml)
// Writes bench/results/yaml-load.{json,md}.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { MAX_EXPANDED_NODES, MAX_YAML_DEPTH, parseSource, parseSourceSlow } from "../dist/src/contract/load.js";
import { fastParseOrReason } from "../dist/src/contract/yaml-fast.js";

const args = process.argv.slice(2);
const files = args.length > 0 ? args : [...(existsSync("/tmp/gh/gh.yaml") ? ["/tmp/gh/gh.yaml"] : []), ...readdirSync("specs").filter((f) => f.endsWith(".yaml")).map((f) => `specs/${f}`)];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const rows = [];
for (const file of files) {
  const bytes = readFileSync(file);
  let text = bytes.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const path = fastParseOrReason(text, MAX_YAML_DEPTH, MAX_EXPANDED_NODES);
  const runs = bytes.length > 1_000_000 ? 5 : 21;
  parseSource(file, bytes);
  parseSourceSlow(file, bytes);
  const fast = [];
  const slow = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    parseSourceSlow(file, bytes);
    slow.push(performance.now() - t);
    t = performance.now();
    parseSource(file, bytes);
    fast.push(performance.now() - t);
  }
  const row = { file, bytes: bytes.length, path: typeof path === "string" ? `yaml (${path})` : "fast", runs, yamlMs: median(slow), parseSourceMs: median(fast) };
  row.ratio = row.parseSourceMs / row.yamlMs;
  rows.push(row);
  console.log(`${file}: ${(row.bytes / 1e6).toFixed(2)} MB, ${row.path}: yaml ${row.yamlMs.toFixed(1)} ms → parseSource ${row.parseSourceMs.toFixed(1)} ms (${row.ratio.toFixed(2)}×)`);
}

mkdirSync("bench/results", { recursive: true });
const result = { date: new Date().toISOString(), node: process.version, rows };
writeFileSync("bench/results/yaml-load.json", `${JSON.stringify(result, null, 2)}\n`);
const md = [
  "# Reading contract YAML",
  "",
  `${result.date}, node ${result.node}. Median of the runs, the two readers alternated in one process.`,
  "",
  "| file | size | path | yaml library | parseSource | ratio |",
  "|---|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.file} | ${(r.bytes / 1e6).toFixed(2)} MB | ${r.path} | ${r.yamlMs.toFixed(1)} ms | ${r.parseSourceMs.toFixed(1)} ms | ${r.ratio.toFixed(2)}× |`),
  "",
];
writeFileSync("bench/results/yaml-load.md", md.join("\n"));
