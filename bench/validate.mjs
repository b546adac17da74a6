// Benchmark of `contractgen validate`: time per contract, and the ratio to a bare YAML parse of the
// same text with the same library (the floor any YAML-based validator pays), measured in one run.
// Also: how fast an alias bomb is refused, end to end through the CLI.
// Usage: npm run bench  (writes bench/results/validate.json and .md)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { parse } from "yaml";
import { parseContractText } from "../dist/src/contract/parse.js";
import { syntheticContract } from "./synthetic.mjs";

function median(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
function timeIt(fn, { minRuns = 5, minMs = 400 } = {}) {
  fn(); // warm-up
  const samples = [];
  const started = performance.now();
  while (samples.length < minRuns || performance.now() - started < minMs) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

function aliasBomb() {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(",")}]`);
  lines.push("contract: *a9");
  return `${lines.join("\n")}\n`;
}

const inputs = readdirSync("specs").filter((f) => f.endsWith(".yaml")).sort().map((f) => ({ name: `specs/${f}`, text: readFileSync(`specs/${f}`, "utf8") }));
inputs.push({ name: "synthetic 1,000 operations", text: syntheticContract(1000) });

const rows = [];
for (const { name, text } of inputs) {
  const result = parseContractText(name, text);
  if (!result.model) throw new Error(`${name} is not valid: ${result.diagnostics[0]?.message}`);
  const validateMs = timeIt(() => parseContractText(name, text));
  const yamlMs = timeIt(() => parse(text));
  rows.push({ input: name, bytes: Buffer.byteLength(text), operations: result.model.operations.length, validateMs, yamlParseMs: yamlMs, ratio: validateMs / yamlMs });
}

mkdirSync("/tmp/contractgen-bench", { recursive: true });
writeFileSync("/tmp/contractgen-bench/bomb.yaml", aliasBomb());
const cliRuns = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const r = spawnSync(process.execPath, ["bin/contractgen.js", "validate", "/tmp/contractgen-bench/bomb.yaml"], { encoding: "utf8" });
  cliRuns.push({ ms: performance.now() - t, exit: r.status });
}
const baseline = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  spawnSync(process.execPath, ["bin/contractgen.js", "validate", "specs/billing.v2.yaml"], { encoding: "utf8" });
  baseline.push(performance.now() - t);
}
const bomb = { exitCodes: [...new Set(cliRuns.map((r) => r.exit))], cliMs: median(cliRuns.map((r) => r.ms)), cliValidExampleMs: median(baseline) };

const report = { date: new Date().toISOString(), node: process.version, validate: rows, aliasBomb: bomb };
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/validate.json", `${JSON.stringify(report, null, 2)}\n`);
const md = [
  "# validate benchmark",
  "",
  `Node ${process.version}; medians. Ratio = validate time / bare \`yaml.parse\` of the same text (same run).`,
  "",
  "| input | bytes | operations | validate ms | yaml.parse ms | ratio |",
  "|---|---:|---:|---:|---:|---:|",
  ...rows.map((r) => `| ${r.input} | ${r.bytes} | ${r.operations} | ${r.validateMs.toFixed(1)} | ${r.yamlParseMs.toFixed(1)} | ${r.ratio.toFixed(2)} |`),
  "",
  `Alias bomb (9^10 nodes if expanded): CLI exits ${bomb.exitCodes.join("/")} in ${bomb.cliMs.toFixed(0)} ms; the CLI validating billing.v2.yaml takes ${bomb.cliValidExampleMs.toFixed(0)} ms (process start included).`,
  "",
];
writeFileSync("bench/results/validate.md", md.join("\n"));
console.log(md.join("\n"));
