// OpenAPI-first speed (issue 25, item 6): `contractgen generate` straight from GitHub's REST
// description (1,223 operations, imported in memory, every artefact written) against openapi-typescript
// on the same document, side by side in one run. Each round runs both as their own processes under
// /usr/bin/time, alternating which goes first; the ratios are taken round by round (a shared machine
// drifts within minutes) and their median is the figure to quote. A second table gives the phases of
// one in-process generation (bench/phases.mjs), so a regression can be placed.
// Writes bench/results/openapi-first.{json,md}.
//
// Usage: npm run build && node bench/openapi-first.mjs [--rounds N] [--document FILE]
import { spawnSync } from "node:child_process";
import { loadavg, cpus, totalmem } from "node:os";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { corpusPackage } from "../scripts/corpora.mjs";
import { measured } from "./measure.mjs";

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const rounds = Number(arg("rounds", "5"));
// GitHub's document and openapi-typescript come from on-demand sets in bench/corpora/ (installed on first use).
const doc = resolve(arg("document", "") || join(corpusPackage("octokit", "@octokit/openapi"), "generated", "api.github.com.json"));
const root = resolve("test-results/bench-openapi-first");
const CLI = resolve("bin/contractgen.js");
const OTS = join(corpusPackage("generators", "openapi-typescript"), "bin", "cli.js");
const log = (line) => console.error(`[bench] ${line}`);

rmSync(root, { recursive: true, force: true });
mkdirSync(root, { recursive: true });
const run = (cmd, args) => {
  const r = measured(cmd, args);
  return { seconds: r.seconds, peakMiB: r.peakMiB, status: r.status, ...(r.status === 0 ? {} : { error: r.tail }) };
};
// Both with node's default heap: what a user gets from `npx`.
const ours = () => run(process.execPath, [CLI, "generate", doc, "-o", join(root, "contractgen"), "--no-progress"]);
const theirs = () => run(process.execPath, [OTS, doc, "-o", join(root, "openapi-typescript.ts")]);

log(`warm-up (file cache) …`);
ours();
theirs();
const list = [];
for (let i = 0; i < rounds; i++) {
  log(`round ${i + 1} of ${rounds} …`);
  const first = i % 2 === 0 ? "contractgen" : "openapi-typescript";
  rmSync(join(root, "contractgen"), { recursive: true, force: true });
  const pair = first === "contractgen" ? { contractgen: ours(), openapiTypescript: theirs() } : { openapiTypescript: theirs(), contractgen: ours() };
  list.push({ first, ...pair });
}
const ok = (m) => (m?.status === 0 ? m : undefined);
const summary = (get) => {
  const xs = list.map((r) => (get(ok(r.contractgen)) && get(ok(r.openapiTypescript)) ? get(r.contractgen) / get(r.openapiTypescript) : undefined)).filter((x) => x !== undefined).sort((a, b) => a - b);
  return xs.length === 0 ? undefined : { median: xs[Math.floor(xs.length / 2)], min: xs[0], max: xs[xs.length - 1], rounds: xs.length };
};
const median = (xs) => (xs.length === 0 ? undefined : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
const phases = spawnSync(process.execPath, [resolve("bench/phases.mjs"), doc, join(root, "phases-out")], { encoding: "utf8" });

const git = (...a) => spawnSync("git", a, { encoding: "utf8" }).stdout.trim();
const report = {
  date: new Date().toISOString(),
  node: process.version,
  commit: git("rev-parse", "--short", "HEAD"),
  machine: { cores: cpus().length, memGiB: Math.round(totalmem() / 2 ** 30), loadavgAtEnd: loadavg().map((l) => Number(l.toFixed(2))) },
  document: { file: basename(doc), bytes: statSync(doc).size },
  rounds: list,
  wall: summary((t) => t?.seconds),
  peakRss: summary((t) => t?.peakMiB),
  medians: {
    contractgen: { seconds: median(list.map((r) => ok(r.contractgen)?.seconds).filter(Boolean)), peakMiB: median(list.map((r) => ok(r.contractgen)?.peakMiB).filter(Boolean)) },
    openapiTypescript: { seconds: median(list.map((r) => ok(r.openapiTypescript)?.seconds).filter(Boolean)), peakMiB: median(list.map((r) => ok(r.openapiTypescript)?.peakMiB).filter(Boolean)) },
  },
  phasesMs: phases.status === 0 ? JSON.parse(phases.stdout) : { error: phases.stderr.slice(-500) },
};
rmSync(join(root, "phases-out"), { recursive: true, force: true });

const x = (s) => (s ? `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)}×, ${s.rounds} rounds)` : "n/a");
const md = `# OpenAPI-first: generate straight from the document

${report.date}, node ${report.node}, commit ${report.commit}, ${report.machine.cores} cores, load at the end ${report.machine.loadavgAtEnd.join(" / ")}.

\`contractgen generate ${report.document.file} -o …\` (the OpenAPI document imported in memory, every
artefact: SDK, CLI, MCP server, contract tests, package) against \`openapi-typescript ${report.document.file}\`
(types only), each its own process, ${rounds} rounds alternating which goes first; ratios are per round.

| | contractgen generate | openapi-typescript | ratio (median of rounds) |
|---|---:|---:|---:|
| wall | ${report.medians.contractgen.seconds} s | ${report.medians.openapiTypescript.seconds} s | ${x(report.wall)} |
| peak RSS | ${report.medians.contractgen.peakMiB} MiB | ${report.medians.openapiTypescript.peakMiB} MiB | ${x(report.peakRss)} |

Phases of one in-process generation (ms): ${Object.entries(report.phasesMs).map(([k, v]) => `${k} ${typeof v === "number" ? Math.round(v) : v}`).join(", ")}.
`;
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/openapi-first.json", `${JSON.stringify(report, null, 2)}\n`);
writeFileSync("bench/results/openapi-first.md", md);
console.log(md);
