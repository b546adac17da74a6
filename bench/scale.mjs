// Scale benchmark of generated code: generate a synthetic contract of N operations with the CLI,
// then type-check (`tsc --noEmit`) and build (`npm run build`'s script) the generated package, each
// as its own process measured by /usr/bin/time (wall, peak RSS). Records the output size and the
// size of the precompiled validators, and checks the built SDK loads and validates.
// Usage: npm run build && node bench/scale.mjs [--ops 1000,5000] [--no-tsc-above 2000] [--label after]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dirBytes, measured as measuredIn } from "./measure.mjs";
import { syntheticContract } from "./synthetic.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const sizes = arg("ops", "1000,5000").split(",").map(Number);
const tscAbove = Number(arg("no-tsc-above", "2000"));
const label = arg("label", "current");
// --distinct: every operation's input gets its own property names, so no two inputs are equal (the
// plain synthetic contract repeats two operation shapes, which flatters deduplication).
const distinct = process.argv.includes("--distinct");
const contractText = (n) => syntheticContract(n, { distinct });
const root = resolve("test-results/bench-scale");
const TSC = resolve("node_modules/typescript/bin/tsc");
// --repo <dir>: generate with another checkout's build (e.g. the commit before a change).
const cli = resolve(arg("repo", "."), "bin/contractgen.js");

const measured = (cmd, args, cwd) => measuredIn(cmd, args, { cwd });

const rows = [];
for (const n of sizes) {
  const dir = join(root, String(n));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const contract = join(dir, "contract.yaml");
  writeFileSync(contract, contractText(n));
  const out = join(dir, "out");
  const gen = measured(process.execPath, [cli, "generate", contract, "-o", out], process.cwd());
  const row = { operations: n, generate: { seconds: gen.seconds, peakMiB: gen.peakMiB, status: gen.status } };
  if (gen.status !== 0) {
    row.generate.error = gen.tail;
    rows.push(row);
    console.error(`${n} ops: generate failed (exit ${gen.status})\n${gen.tail}`);
    continue;
  }
  row.outputBytes = dirBytes(out);
  row.validatorBytes = dirBytes(join(out, "sdk"), (p) => p.endsWith("schemas.json"));
  if (n <= tscAbove) {
    symlinkSync(resolve("node_modules"), join(out, "node_modules"));
    const check = measured(process.execPath, [TSC, "-p", "tsconfig.json", "--noEmit"], out);
    row.typecheck = { seconds: check.seconds, peakMiB: check.peakMiB, status: check.status };
    if (check.status !== 0) row.typecheck.error = check.tail;
    const script = JSON.parse(readFileSync(join(out, "package.json"), "utf8")).scripts.build;
    const env = { ...process.env, PATH: `${resolve("node_modules/.bin")}:${process.env.PATH}` };
    const t = performance.now();
    const build = spawnSync("/usr/bin/time", ["-f", "@@TIME %e %M", "sh", "-c", script], { cwd: out, encoding: "utf8", env });
    const m = /@@TIME ([\d.]+) (\d+)/.exec(build.stderr);
    row.build = { seconds: m ? Number(m[1]) : (performance.now() - t) / 1000, peakMiB: m ? Math.round(Number(m[2]) / 1024) : NaN, status: build.status };
    if (build.status !== 0) row.build.error = `${build.stdout}${build.stderr}`.slice(-800);
    // The built package must load and validate: a bad input is refused before any request.
    const smoke = spawnSync(process.execPath, ["--input-type=module", "-e", [
      `const ops = await import(${JSON.stringify(join(out, "dist/sdk/operations.js"))});`,
      `await import(${JSON.stringify(join(out, "dist/sdk/index.js"))});`,
      "const v = { validateCreateItem1Input: ops.create_item_1.validateInput };",
      `const ok = v.validateCreateItem1Input({ ${distinct ? "name_1" : "name"}: 'a',`+" idempotency_key: '8f0c2a4e-1b2c-4d3e-9f00-0123456789ab' });",
      `console.log(ok === true && v.validateCreateItem1Input({ ${distinct ? "name_1" : "name"}: '' }) === false`+" ? 'ok' : 'wrong');",
    ].join("\n")], { encoding: "utf8" });
    row.builtLoads = smoke.status === 0 && smoke.stdout.trim() === "ok";
    if (!row.builtLoads) row.buildLoadError = smoke.stderr.slice(-800);
  }
  rows.push(row);
  console.error(`${n} ops: ${JSON.stringify(row)}`);
  rmSync(join(out, "dist"), { recursive: true, force: true });
}

const mb = (b) => (b === undefined ? "–" : (b / 1e6).toFixed(2));
const t = (x) => (x ? `${x.seconds.toFixed(1)} s / ${x.peakMiB} MiB${x.status === 0 ? "" : ` (exit ${x.status})`}` : "–");
const md = [
  `## ${label} (${new Date().toISOString()})`,
  "",
  `Node ${process.version}; synthetic contract (bench/synthetic.mjs${distinct ? ", every input distinct" : ""}). Each step is one process: wall / peak RSS.`,
  "",
  "| operations | generate | output MB | schemas JSON MB | tsc --noEmit | build | built SDK loads |",
  "|---:|---|---:|---:|---|---|---|",
  ...rows.map((r) => `| ${r.operations} | ${t(r.generate)} | ${mb(r.outputBytes)} | ${mb(r.validatorBytes)} | ${t(r.typecheck)} | ${t(r.build)} | ${r.builtLoads === undefined ? "–" : r.builtLoads ? "yes" : "NO"} |`),
  "",
];
console.log(md.join("\n"));
mkdirSync("bench/results", { recursive: true });
const jsonPath = "bench/results/scale.json";
const previous = existsSync(jsonPath) ? JSON.parse(readFileSync(jsonPath, "utf8")) : { runs: [] };
const runs = [...previous.runs.filter((r) => r.label !== label), { label, distinct, date: new Date().toISOString(), node: process.version, rows }];
writeFileSync(jsonPath, `${JSON.stringify({ runs }, null, 2)}\n`);
const mdPath = "bench/results/scale.md";
const before = existsSync(mdPath) ? readFileSync(mdPath, "utf8").split(/^(?=## )/m).filter((s) => s.startsWith("## ") && !s.startsWith(`## ${label} `)) : [];
const sections = [...before.map((s) => s.trimEnd()), md.join("\n").trimEnd()];
writeFileSync(mdPath, `# Scale benchmark of generated code\n\n${sections.join("\n\n")}\n`);
