// Scaling benchmark (issue 12, item 4). Every step runs as its own process under /usr/bin/time, so
// wall time and peak RSS belong to that step alone.
//
//  1. `contractgen generate` (every artefact: SDK, CLI, MCP server, tests, package files) of the
//     synthetic contract at 10, 100, 1,000 and 5,000 operations: wall, time per operation, peak RSS,
//     output size per artefact; the time of each phase (bench/phases.mjs, a second run of the same
//     pipeline); `tsc --noEmit` of each generated package.
//  2. Peers on GitHub's REST description (@octokit/openapi), in the same run: openapi-typescript
//     (types) and orval (fetch client), each with `tsc` of its output; contractgen's own pipeline on
//     the same document (import-openapi → generate → tsc) when import-openapi is available.
//  3. `contractgen diff` of two GitHub-size versions: ghes-3.18 vs ghes-3.19 imported, else two
//     synthetic 1,200-operation versions 100 changes apart.
// Writes bench/results/scaling.{json,md,svg}.
//
// Usage: npm run build && node bench/scaling.mjs [--sizes 10,100,1000,5000] [--quick] [--distinct]
//        [--no-peers] [--no-tsc-above N] [--timeout SECONDS]
//   --rounds N: head-to-head rounds with openapi-typescript on GitHub after the peers (default 3; 0: none).
//   --quick: sizes 10,100, no GitHub peers, a 100-operation synthetic diff; a run of about a minute.
import { spawnSync } from "node:child_process";
import { cpus, loadavg, totalmem } from "node:os";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { corpusPackage } from "../scripts/corpora.mjs";
import { lineChart } from "./chart.mjs";
import { dirBytes, measured } from "./measure.mjs";
import { reviseContract, syntheticContract } from "./synthetic.mjs";

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const quick = flag("quick");
const sizes = arg("sizes", quick ? "10,100" : "10,100,1000,5000").split(",").map(Number);
const distinct = flag("distinct");
const peers = !quick && !flag("no-peers");
const tscAbove = Number(arg("no-tsc-above", "Infinity"));
const timeoutSeconds = Number(arg("timeout", "1200"));
const rounds = Number(arg("rounds", "3"));

const root = resolve("test-results/bench-scaling");
const CLI = resolve("bin/contractgen.js");
const TSC = resolve("node_modules/typescript/bin/tsc");
// GitHub's documents and the peers come from on-demand sets in bench/corpora/ (installed on first use).
const github = () => join(corpusPackage("octokit", "@octokit/openapi"), "generated");
const OPENAPI_TYPESCRIPT = () => join(corpusPackage("generators", "openapi-typescript"), "bin", "cli.js");
const ORVAL = () => join(corpusPackage("generators", "orval"), "dist", "bin", "orval.js");
// Room for big outputs: an out-of-memory failure should mean really big, not node's default heap.
const BIG_HEAP = "--max-old-space-size=8192";
const ARTEFACTS = ["sdk", "cli", "mcp", "tests", "package"];
// The phases the pipeline reports (bench/phases.mjs); the chart and the linearity table join the
// first five into one step, reading and checking the contract.
const READ_PHASES = ["parse", "structure", "validate", "model", "budget"];
// "prepare types" turns the model's schemas into declarations for the generator; "emit types" is the
// wait for sdk/types.ts once the other artefacts are done: its compilation
// starts with emit (worker threads on a large contract) and runs beside them.
const PHASES = [...READ_PHASES, "prepare types", "emit sdk", "emit cli", "emit mcp", "emit tests", "emit package", "emit types", "write"];
const READING = "parse + validate + model";
const STEPS = [READING, ...PHASES.slice(READ_PHASES.length)];
/** ms of a step of one run: a phase, or the reading phases together. */
const stepMs = (phasesMs, name) =>
  !phasesMs || phasesMs.error ? undefined : name === READING ? READ_PHASES.reduce((s, p) => s + (phasesMs[p] ?? 0), 0) : phasesMs[name];

const log = (line) => console.error(`[bench] ${line}`);
/** One measured step, killed by `timeout` (exit 124) when it runs too long, so nothing is left behind. */
const step = (cmd, args, cwd = process.cwd()) => {
  const r = measured("timeout", [String(timeoutSeconds), cmd, ...args], { cwd });
  return { seconds: r.seconds, peakMiB: r.peakMiB, status: r.status, stdout: r.stdout, ...(r.status === 0 ? {} : { error: r.status === 124 ? `timed out after ${timeoutSeconds} s` : r.tail }) };
};
const brief = ({ stdout, ...rest }) => rest;
const contractgen = (...args) => step(process.execPath, [BIG_HEAP, CLI, ...args]);
/**
 * `tsc --noEmit` of a generated package (its own tsconfig) or of loose files with the given flags.
 * Type errors still make a complete check (exit 1 or 2 with "error TS" lines): timed, and counted.
 */
const tsc = (cwd, args = ["-p", "tsconfig.json"]) => {
  const r = step(process.execPath, [BIG_HEAP, TSC, "--noEmit", "--pretty", "false", ...args], cwd);
  const errors = (r.stdout.match(/error TS\d+/g) ?? []).length;
  if (errors === 0 || (r.status !== 1 && r.status !== 2)) return brief(r);
  const { error, ...done } = brief(r);
  return { ...done, status: 0, typeErrors: errors, firstError: r.stdout.split("\n").find((l) => l.includes("error TS")) };
};
const fresh = (dir) => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
};
/** Lets a generated package resolve its dependencies from ours. */
const linkModules = (dir) => existsSync(join(dir, "node_modules")) || symlinkSync(resolve("node_modules"), join(dir, "node_modules"));

/** Bytes per artefact: sdk/, cli/, mcp/, tests/ and the package's own files (the rest). */
function artefactBytes(out) {
  const bytes = { total: dirBytes(out) };
  for (const a of ARTEFACTS.slice(0, 4)) bytes[a] = existsSync(join(out, a)) ? dirBytes(join(out, a)) : 0;
  bytes.package = bytes.total - ARTEFACTS.slice(0, 4).reduce((s, a) => s + bytes[a], 0);
  return bytes;
}

/** Generate (CLI), the phase breakdown (second process), output sizes and tsc of one contract. */
function generateAndCheck(contract, dir, withTsc = true) {
  const out = join(dir, "out");
  const generate = brief(contractgen("generate", contract, "-o", out, "--no-progress"));
  const row = { generate };
  if (generate.status !== 0) return row;
  row.bytes = artefactBytes(out);
  const phases = step(process.execPath, [BIG_HEAP, resolve("bench/phases.mjs"), contract, join(dir, "phases-out")]);
  row.phasesMs = phases.status === 0 ? JSON.parse(phases.stdout) : { error: phases.error };
  rmSync(join(dir, "phases-out"), { recursive: true, force: true });
  if (withTsc) {
    linkModules(out);
    row.tsc = tsc(out);
    // The SDK alone (types, client, operation descriptors): what openapi-typescript's types and
    // orval's client correspond to, without the CLI, the MCP server and their libraries.
    writeFileSync(join(out, "tsconfig.sdk-only.json"), `${JSON.stringify({ extends: "./tsconfig.json", include: ["sdk/**/*.ts"] }, null, 2)}\n`);
    row.tscSdk = tsc(out, ["-p", "tsconfig.sdk-only.json"]);
  }
  return row;
}

const machine = () => ({ cores: cpus().length, memGiB: Math.round(totalmem() / 2 ** 30), loadavg: loadavg().map((l) => Number(l.toFixed(2))) });
const git = (...a) => spawnSync("git", a, { encoding: "utf8" }).stdout.trim();
const report = { date: new Date().toISOString(), node: process.version, commit: `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? " (with uncommitted changes)" : ""}`, distinct, machineAtStart: machine(), scaling: [], peers: null, diff: null };

// 1. Scaling on the synthetic contract.
for (const n of sizes) {
  const dir = fresh(join(root, `synthetic-${n}`));
  const contract = join(dir, "contract.yaml");
  writeFileSync(contract, syntheticContract(n, { distinct }));
  log(`synthetic ${n} operations …`);
  const row = { operations: n, ...generateAndCheck(contract, dir, n <= tscAbove) };
  report.scaling.push(row);
  log(`synthetic ${n}: ${JSON.stringify(row)}`);
  rmSync(join(dir, "out"), { recursive: true, force: true });
}

// 2. Peers on the GitHub document.
const importAvailable = contractgen("import-openapi", "--help").stdout.includes("Usage: contractgen import-openapi");
if (peers) {
  const doc = join(github(), "api.github.com.json");
  const dir = fresh(join(root, "github"));
  const result = { document: "@octokit/openapi 23.0.2 generated/api.github.com.json", documentBytes: statSync(doc).size, tools: {} };

  log("openapi-typescript …");
  const otsDir = fresh(join(dir, "openapi-typescript"));
  const ots = brief(step(process.execPath, [BIG_HEAP, OPENAPI_TYPESCRIPT(), doc, "-o", join(otsDir, "gh.ts")]));
  result.tools["openapi-typescript 7.13.0 (types)"] = {
    generate: ots,
    bytes: ots.status === 0 ? { total: statSync(join(otsDir, "gh.ts")).size } : undefined,
    tsc: ots.status === 0 ? tsc(otsDir, ["--strict", "--skipLibCheck", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "gh.ts"]) : undefined,
  };

  log("orval …");
  const orvalDir = fresh(join(dir, "orval"));
  // orval reads its settings from a config file; this one asks for one fetch client file.
  writeFileSync(join(orvalDir, "orval.config.cjs"), `module.exports = ${JSON.stringify({ gh: { input: { target: doc }, output: { target: "./out/gh.ts", client: "fetch", mode: "single" } } }, null, 2)};\n`);
  const orval = brief(step(process.execPath, [BIG_HEAP, ORVAL(), "--config", "./orval.config.cjs"], orvalDir));
  const orvalOut = join(orvalDir, "out");
  result.tools["orval 7.13.2 (fetch client)"] = {
    generate: orval,
    bytes: orval.status === 0 ? { total: dirBytes(orvalOut) } : undefined,
    tsc: orval.status === 0 ? tsc(orvalOut, ["--strict", "--skipLibCheck", "--target", "es2022", "--lib", "es2022,dom", "--module", "esnext", "--moduleResolution", "bundler", "gh.ts"]) : undefined,
  };

  if (importAvailable) {
    log("contractgen import-openapi + generate …");
    const cgDir = fresh(join(dir, "contractgen"));
    const contract = join(cgDir, "gh.yaml");
    const imported = brief(contractgen("import-openapi", doc, "-o", contract));
    const entry = { import: imported };
    if (imported.status === 0) {
      Object.assign(entry, generateAndCheck(contract, cgDir));
      // The skeleton package (handlers the team fills in) of the same contract, and its tsc.
      const skeletonOut = join(cgDir, "skeleton-out");
      const skeletonGenerate = brief(contractgen("generate", contract, "-o", skeletonOut, "--mcp", "skeleton", "--no-progress"));
      entry.skeleton = { generate: skeletonGenerate };
      if (skeletonGenerate.status === 0) {
        linkModules(skeletonOut);
        entry.skeleton.tsc = tsc(skeletonOut);
      }
      rmSync(skeletonOut, { recursive: true, force: true });
      // Validators compile at run time now: what that costs a process, per first call and for all.
      const first = step(process.execPath, [resolve("bench/first-validation.mjs"), join(cgDir, "out")]);
      entry.firstValidation = first.status === 0 ? JSON.parse(first.stdout) : { error: first.error };
    }
    result.tools["contractgen (import-openapi → generate, every artefact)"] = entry;
  } else {
    result.tools["contractgen (import-openapi → generate, every artefact)"] = { skipped: "import-openapi not available (branch i12b-import not merged yet)" };
  }
  for (const [name, t] of Object.entries(result.tools)) log(`${name}: ${JSON.stringify(t)}`);
  report.peers = result;

  // One run each says little on a shared machine (its speed drifts by a quarter within minutes):
  // `--rounds` more runs of generate (fresh output) and tsc, the two tools alternating which goes
  // first, give per-round ratios whose median is the figure to quote.
  const cg = result.tools["contractgen (import-openapi → generate, every artefact)"];
  const contract = join(dir, "contractgen", "gh.yaml");
  if (rounds > 0 && cg?.import?.status === 0 && ots.status === 0) {
    const otsRun = () => ({
      generate: brief(step(process.execPath, [BIG_HEAP, OPENAPI_TYPESCRIPT(), doc, "-o", join(otsDir, "gh.ts")])),
      tsc: tsc(otsDir, ["--strict", "--skipLibCheck", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "gh.ts"]),
    });
    const cgRun = () => {
      const out = join(dir, "contractgen", "round-out");
      rmSync(out, { recursive: true, force: true });
      const generate = brief(contractgen("generate", contract, "-o", out, "--no-progress"));
      if (generate.status !== 0) return { generate };
      linkModules(out);
      return { generate, tsc: tsc(out) };
    };
    const list = [];
    for (let i = 0; i < rounds; i++) {
      log(`head-to-head round ${i + 1} of ${rounds} …`);
      let ours;
      let theirs;
      if (i % 2 === 0) {
        ours = cgRun();
        theirs = otsRun();
      } else {
        theirs = otsRun();
        ours = cgRun();
      }
      list.push({ contractgen: ours, openapiTypescript: theirs, first: i % 2 === 0 ? "contractgen" : "openapi-typescript" });
    }
    const ratio = (r, get) => (get(r.contractgen) && get(r.openapiTypescript) ? get(r.contractgen) / get(r.openapiTypescript) : undefined);
    const summary = (get) => {
      const xs = list.map((r) => ratio(r, get)).filter((x) => x !== undefined).sort((a, b) => a - b);
      return xs.length === 0 ? undefined : { median: xs[Math.floor(xs.length / 2)], min: xs[0], max: xs[xs.length - 1], rounds: xs.length };
    };
    const ok = (m) => (m?.status === 0 ? m : undefined);
    report.headToHead = {
      rounds: list,
      wall: summary((t) => ok(t.generate)?.seconds),
      peakRss: summary((t) => ok(t.generate)?.peakMiB),
      tscWall: summary((t) => ok(t.tsc)?.seconds),
    };
    log(`head-to-head: ${JSON.stringify({ wall: report.headToHead.wall, peakRss: report.headToHead.peakRss, tscWall: report.headToHead.tscWall })}`);
  }
}

// 3. diff of two GitHub-size versions.
{
  const dir = fresh(join(root, "diff"));
  let sides;
  if (importAvailable && !quick) {
    log("diff: importing ghes-3.18 and ghes-3.19 …");
    sides = ["ghes-3.18", "ghes-3.19"].map((v) => ({ name: v, file: join(dir, `${v}.yaml`), made: brief(contractgen("import-openapi", join(github(), `${v}.json`), "-o", join(dir, `${v}.yaml`))) }));
  } else {
    // bench/synthetic-shared.mjs (from the diff work, when present): GitHub-shaped, with nested shared
    // types and 30 of the 100 changes inside them. Else the plain synthetic contract.
    const ops = quick ? 100 : 1200;
    const shared = existsSync("bench/synthetic-shared.mjs") ? await import("./synthetic-shared.mjs") : undefined;
    const base = shared ? shared.githubShapedContract(ops) : syntheticContract(ops);
    const revised = shared ? shared.reviseGithubShaped(base, { shared: 30, perOperation: 70 }) : reviseContract(base, ops, 100);
    const changes = shared ? `${revised.shared} shared-type + ${revised.perOperation} per-operation changes` : `${revised.changes} changes`;
    writeFileSync(join(dir, "old.yaml"), base);
    writeFileSync(join(dir, "new.yaml"), revised.text);
    sides = [
      { name: `synthetic${shared ? ", GitHub-shaped" : ""}: ${ops} operations`, file: join(dir, "old.yaml"), made: { status: 0 } },
      { name: `same, ${changes}`, file: join(dir, "new.yaml"), made: { status: 0 } },
    ];
  }
  const entry = { old: sides[0].name, new: sides[1].name };
  if (sides.every((s) => s.made.status === 0)) {
    log("diff …");
    const d = contractgen("diff", sides[0].file, sides[1].file, "-f", "json", "--fail-on", "never", "--no-progress");
    entry.run = brief(d);
    if (d.status === 0) {
      const json = JSON.parse(d.stdout);
      const all = (fs) => fs.reduce((n, f) => n + 1 + all(f.consequences ?? []), 0);
      entry.findings = json.findings.length;
      entry.findingsWithConsequences = all(json.findings);
      entry.summary = json.summary;
      // The same diff again, for a median of what one run measured; each round also times a process
      // that only reads the two files with js-yaml (the floor under any YAML diff in Node), so the
      // ratio between them holds on a busy machine.
      const DIFF_PHASES = resolve("bench/diff-phases.mjs");
      const times = [entry.run.seconds];
      const floors = [];
      for (let i = 0; i < Math.max(1, rounds); i++) {
        const floor = step(process.execPath, [DIFF_PHASES, "yaml", sides[0].file, sides[1].file]);
        if (floor.status === 0) floors.push(floor.seconds);
        if (i === 0) continue;
        const again = contractgen("diff", sides[0].file, sides[1].file, "-f", "json", "--fail-on", "never", "--no-progress");
        if (again.status === 0) times.push(again.seconds);
      }
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      entry.runsSeconds = [...times].sort((a, b) => a - b);
      entry.medianSeconds = median(times);
      if (floors.length > 0) {
        entry.yamlFloorSeconds = median(floors);
        entry.floorRatio = entry.medianSeconds / entry.yamlFloorSeconds;
      }
      const phases = step(process.execPath, [BIG_HEAP, DIFF_PHASES, "phases", sides[0].file, sides[1].file]);
      if (phases.status === 0) entry.phasesMs = JSON.parse(phases.stdout);
    }
  } else entry.importFailed = sides.map((s) => ({ side: s.name, ...s.made }));
  report.diff = entry;
  log(`diff: ${JSON.stringify(entry)}`);
}
report.machineAtEnd = machine();

// Near-linearity: time per operation at the largest size over the same at the smallest (and at 1,000).
const perOp = (row, get) => (get(row) > 0 ? get(row) / row.operations : undefined);
const measures = [
  ["generate (CLI, wall)", (r) => (r.generate.status === 0 ? r.generate.seconds * 1000 : undefined)],
  ...STEPS.map((p) => [p, (r) => stepMs(r.phasesMs, p)]),
  ["tsc --noEmit", (r) => (r.tsc?.status === 0 ? r.tsc.seconds * 1000 : undefined)],
];
const ok = report.scaling.filter((r) => r.generate.status === 0);
const first = ok[0];
const mid = ok.find((r) => r.operations === 1000);
const last = ok[ok.length - 1];
report.linearity = ok.length < 2 ? [] : measures.map(([name, get]) => {
  const row = { measure: name, msPerOp: Object.fromEntries(ok.map((r) => [r.operations, perOp(r, get)])) };
  const a = perOp(first, get);
  const b = perOp(last, get);
  row[`ratio ${first.operations}→${last.operations}`] = a && b ? b / a : undefined;
  if (mid && mid !== last) row[`ratio 1000→${last.operations}`] = perOp(mid, get) && b ? b / perOp(mid, get) : undefined;
  return row;
});

// Ratios to openapi-typescript on the GitHub document.
if (report.peers) {
  const tools = report.peers.tools;
  const base = tools["openapi-typescript 7.13.0 (types)"];
  for (const t of Object.values(tools)) {
    if (t === base || !base || base.generate.status !== 0) continue;
    const wall = t.import ? (t.import.seconds ?? 0) + (t.generate?.seconds ?? NaN) : t.generate?.seconds;
    const rss = t.import ? Math.max(t.import.peakMiB ?? 0, t.generate?.peakMiB ?? NaN) : t.generate?.peakMiB;
    t.vsOpenapiTypescript = {
      wall: wall / base.generate.seconds,
      peakRss: rss / base.generate.peakMiB,
      tscWall: t.tsc?.status === 0 && base.tsc?.status === 0 ? t.tsc.seconds / base.tsc.seconds : undefined,
      tscRss: t.tsc?.status === 0 && base.tsc?.status === 0 ? t.tsc.peakMiB / base.tsc.peakMiB : undefined,
      ...(t.import ? { generateOnlyWall: t.generate?.seconds / base.generate.seconds, generateOnlyRss: t.generate?.peakMiB / base.generate.peakMiB } : {}),
      ...(t.tscSdk?.status === 0 && base.tsc?.status === 0 ? { tscSdkWall: t.tscSdk.seconds / base.tsc.seconds, tscSdkRss: t.tscSdk.peakMiB / base.tsc.peakMiB } : {}),
    };
  }
}

// Reports.
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/scaling.json", `${JSON.stringify(report, null, 2)}\n`);

const MB = (b) => (b === undefined ? "–" : (b / 1e6).toFixed(2));
const cell = (s) => String(s).split("\n")[0].replace(/\|/g, "\\|").slice(0, 160);
const run = (x) =>
  !x ? "–"
  : x.status !== 0 ? `failed (${cell(x.error ?? `exit ${x.status}`)})`
  : `${x.seconds.toFixed(1)} s / ${x.peakMiB} MiB${x.typeErrors ? ` (${x.typeErrors} type errors, first: ${cell(x.firstError)})` : ""}`;
const fx = (v, d = 2) => (v === undefined || Number.isNaN(v) ? "–" : v.toFixed(d));
const load = (m) => `load average ${m.loadavg.join(" / ")} (1/5/15 min) on ${m.cores} cores, ${m.memGiB} GiB`;
const md = [
  "# Scaling benchmark",
  "",
  `${report.date}, Node ${process.version}, contractgen ${report.commit}. Machine at start: ${load(report.machineAtStart)}; at end: ${load(report.machineAtEnd)}.`,
  "The machine is shared: ratios measured in this one run matter more than absolute times.",
  "Every step is its own process: wall / peak RSS (`/usr/bin/time`).",
  "",
  `## generate at growing size (synthetic contract, bench/synthetic.mjs${distinct ? ", every input distinct" : ""})`,
  "",
  "| operations | generate (all artefacts) | ms per operation | output MB | sdk / cli / mcp / tests / package MB | tsc --noEmit of the package |",
  "|---:|---|---:|---:|---|---|",
  ...report.scaling.map((r) => `| ${r.operations.toLocaleString("en-US")} | ${run(r.generate)} | ${r.generate.status === 0 ? fx((r.generate.seconds * 1000) / r.operations, 1) : "–"} | ${MB(r.bytes?.total)} | ${r.bytes ? ARTEFACTS.map((a) => MB(r.bytes[a])).join(" / ") : "–"} | ${run(r.tsc)} |`),
  "",
  "Phases of the same pipeline (a second process, ms; the phases the progress line reports):",
  "",
  `| operations | ${PHASES.join(" | ")} |`,
  `|---:|${PHASES.map(() => "---:").join("|")}|`,
  ...report.scaling.map((r) => `| ${r.operations.toLocaleString("en-US")} | ${PHASES.map((p) => r.phasesMs?.[p] ?? "–").join(" | ")} |`),
  "",
];
if (report.linearity.length) {
  const keys = Object.keys(report.linearity[0]).filter((k) => k.startsWith("ratio"));
  md.push(
    "### Near-linearity: time per operation (ms), and its ratio from the smallest size to the largest",
    "",
    "A ratio of 1 is linear; below 1, fixed costs (process start, runtime files) are spread over more operations.",
    "",
    `| measure | ${ok.map((r) => r.operations.toLocaleString("en-US")).join(" | ")} | ${keys.join(" | ")} |`,
    `|---|${ok.map(() => "---:").join("|")}|${keys.map(() => "---:").join("|")}|`,
    ...report.linearity.map((l) => `| ${l.measure} | ${ok.map((r) => fx(l.msPerOp[r.operations], 3)).join(" | ")} | ${keys.map((k) => fx(l[k])).join(" | ")} |`),
    "",
  );
}
md.push("![time vs operations](scaling.svg)", "");
if (report.peers) {
  md.push(
    `## Peers on GitHub's REST description (${report.peers.document}, ${MB(report.peers.documentBytes)} MB)`,
    "",
    "| tool | import | generate | output MB | tsc --noEmit of the output | vs openapi-typescript: wall / RSS / tsc wall / tsc RSS |",
    "|---|---|---|---:|---|---|",
    ...Object.entries(report.peers.tools).map(([name, t]) => {
      if (t.skipped) return `| ${name} | ${t.skipped} | | | | |`;
      const v = t.vsOpenapiTypescript;
      return `| ${name} | ${t.import ? run(t.import) : "–"} | ${run(t.generate)} | ${MB(t.bytes?.total)} | ${run(t.tsc)} | ${v ? [v.wall, v.peakRss, v.tscWall, v.tscRss].map((x) => `${fx(x)}×`).join(" / ") : "–"} |`;
    }),
    "",
    "Wall and RSS of contractgen count import + generate (wall summed, RSS the larger of the two).",
    "",
  );
  for (const [name, t] of Object.entries(report.peers.tools)) {
    const v = t.vsOpenapiTypescript;
    if (!v || v.generateOnlyWall === undefined) continue;
    md.push(
      `${name}, generate alone (a contract already imported): ${run(t.generate)}, ${fx(v.generateOnlyWall)}× / ${fx(v.generateOnlyRss)}× openapi-typescript's wall / RSS.`,
      ...(t.skeleton ? [`The skeleton package (\`--mcp skeleton\`): generate ${run(t.skeleton.generate)}, tsc --noEmit ${t.skeleton.tsc ? run(t.skeleton.tsc) : "–"}.`] : []),
      ...(t.tscSdk ? [`tsc of its sdk/ alone (types, client, operation descriptors; no CLI or MCP server): ${run(t.tscSdk)}${v.tscSdkWall !== undefined ? `, ${fx(v.tscSdkWall)}× / ${fx(v.tscSdkRss)}× openapi-typescript's gh.ts` : ""}.`] : []),
      "",
    );
  }
  const h = report.headToHead;
  if (h) {
    const line = (label, m) => (m ? `${label} median ${fx(m.median)}× (${fx(m.min)}–${fx(m.max)}×)` : `${label} –`);
    md.push(
      `Head-to-head, ${h.rounds.length} more rounds of contractgen generate (the imported contract, fresh output) and openapi-typescript, alternating which runs first; ratios per round, contractgen / openapi-typescript: ` +
        `${[line("wall", h.wall), line("peak RSS", h.peakRss), line("tsc --noEmit wall", h.tscWall)].join("; ")}.`,
      "",
      "| round | first | contractgen generate | openapi-typescript | contractgen tsc | openapi-typescript tsc |",
      "|---:|---|---|---|---|---|",
      ...h.rounds.map((r, i) => `| ${i + 1} | ${r.first} | ${run(r.contractgen.generate)} | ${run(r.openapiTypescript.generate)} | ${r.contractgen.tsc ? run(r.contractgen.tsc) : "–"} | ${run(r.openapiTypescript.tsc)} |`),
      "",
    );
  }
  const cg = Object.values(report.peers.tools).find((t) => t.phasesMs);
  if (cg && !cg.phasesMs.error) md.push(`contractgen phases on GitHub (ms): ${PHASES.map((p) => `${p} ${cg.phasesMs[p] ?? "–"}`).join(", ")}.`, "");
  const fv = cg?.firstValidation;
  if (fv && !fv.error) {
    md.push(
      `Validators at run time (bench/first-validation.mjs: each compiled from sdk/schemas.json, ${MB(fv.bytes)} MB, on its first call): ` +
        `reading the file ${fv.loadMs} ms; first call of one validator median ${fv.firstCallMs.median} ms, p95 ${fv.firstCallMs.p95} ms, max ${fv.firstCallMs.max} ms; ` +
        `all ${fv.validators} compiled in one process ${(fv.allMs / 1000).toFixed(1)} s (what generate used to spend on them, for every package).`,
      "",
    );
  }
}
if (report.diff) {
  const d = report.diff;
  md.push(
    "## diff of two versions",
    "",
    "| old | new | diff (CLI, JSON report) | findings | counting consequences | breaking / warning / info |",
    "|---|---|---|---:|---:|---|",
    d.run
      ? `| ${d.old} | ${d.new} | ${run(d.run)} | ${d.findings ?? "–"} | ${d.findingsWithConsequences ?? "–"} | ${d.summary ? `${d.summary.breaking} / ${d.summary.warning} / ${d.summary.info}` : "–"} |`
      : `| ${d.old} | ${d.new} | import failed: ${d.importFailed.map((s) => `${s.side}: ${cell(s.error ?? s.status)}`).join("; ")} | | | |`,
    "",
  );
  if (d.runsSeconds?.length > 1) md.push(`The diff ${d.runsSeconds.length} times: median ${d.medianSeconds.toFixed(1)} s (${d.runsSeconds.map((x) => x.toFixed(1)).join(", ")} s).`, "");
  if (d.yamlFloorSeconds) {
    md.push(`Only reading the two files with js-yaml, in a process of its own (the floor under any YAML diff in Node): median ${d.yamlFloorSeconds.toFixed(1)} s; the diff takes ${d.floorRatio.toFixed(1)}× that.`, "");
  }
  if (d.phasesMs) {
    const keys = Object.keys(d.phasesMs);
    md.push("Phases of the same diff in one process (ms; the phases its progress line reports, then the comparison itself):", "", `| ${keys.join(" | ")} |`, `|${keys.map(() => "---:").join("|")}|`, `| ${keys.map((k) => d.phasesMs[k]).join(" | ")} |`, "");
  }
  if (!importAvailable) md.push("GitHub-size versions need import-openapi (not available): two synthetic versions instead.", "");
}
writeFileSync("bench/results/scaling.md", md.join("\n"));

// The chart: one line per phase, the whole CLI run and tsc, against operations (log-log).
const series = [
  { name: "generate (CLI, wall)", points: report.scaling.map((r) => [r.operations, r.generate.status === 0 ? r.generate.seconds : 0]) },
  ...STEPS.map((p) => ({ name: p, points: report.scaling.map((r) => [r.operations, (stepMs(r.phasesMs, p) ?? 0) / 1000]) })),
  { name: "tsc --noEmit", dashed: true, points: report.scaling.map((r) => [r.operations, r.tsc?.status === 0 ? r.tsc.seconds : 0]) },
];
writeFileSync("bench/results/scaling.svg", lineChart({
  title: "contractgen generate: time vs operations",
  subtitle: `synthetic contract${distinct ? " (every input distinct)" : ""}, Node ${process.version}; both axes logarithmic`,
  xLabel: "operations",
  yLabel: "seconds",
  xTicks: report.scaling.map((r) => r.operations),
  series,
}));
console.log(md.join("\n"));
