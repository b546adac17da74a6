// Benchmark of `contractgen generate`: time to emit each example package in-process (median of
// runs after a warm-up), its ratio to validating the same contract in the same run, and the
// end-to-end CLI time (process start included). Usage: npm run bench:generate
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emitPackage } from "../dist/src/emit/index.js";
import { parseContract } from "../dist/src/contract/parse.js";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timeIt(fn, runs = 5) {
  await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const rows = [];
const out = mkdtempSync(join(tmpdir(), "contractgen-bench-gen-"));
for (const spec of readdirSync("specs").filter((f) => f.endsWith(".yaml")).sort()) {
  const path = `specs/${spec}`;
  const validateMs = await timeIt(() => parseContract(path));
  const model = parseContract(path).model;
  const emitMs = await timeIt(() => emitPackage(model));
  const files = (await emitPackage(model)).size;
  const cli = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, ["bin/contractgen.js", "generate", path, "-o", join(out, spec)], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(r.stderr);
    cli.push(performance.now() - t);
  }
  rows.push({ spec: path, operations: model.operations.length, files, validateMs, emitMs, emitToValidate: emitMs / validateMs, cliMs: median(cli) });
}

const report = { date: new Date().toISOString(), node: process.version, generate: rows };
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/generate.json", `${JSON.stringify(report, null, 2)}\n`);
const md = [
  "# generate benchmark",
  "",
  `Node ${process.version}; medians. emit = model → files in memory; CLI = \`contractgen generate\` end to end (process start, parse, emit, atomic write).`,
  "",
  "| spec | operations | files | validate ms | emit ms | emit / validate | CLI ms |",
  "|---|---:|---:|---:|---:|---:|---:|",
  ...rows.map((r) => `| ${r.spec} | ${r.operations} | ${r.files} | ${r.validateMs.toFixed(1)} | ${r.emitMs.toFixed(0)} | ${r.emitToValidate.toFixed(1)} | ${r.cliMs.toFixed(0)} |`),
  "",
];
writeFileSync("bench/results/generate.md", md.join("\n"));
console.log(md.join("\n"));
