#!/usr/bin/env node
// Writes docs/benchmarks.md from bench/results/: every *.md there, sorted by file name, each under a
// heading naming its source file and, when a script in bench/ writes that file by name, that script.
// The figures are never typed by hand, so the page cannot drift from the results.
//
//   node scripts/benchmarks-doc.mjs           write docs/benchmarks.md
//   node scripts/benchmarks-doc.mjs --check   exit 1 when docs/benchmarks.md differs from what it would write
//
// (npm run docs:benchmarks runs the first form.)
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = join(root, "bench", "results");
const benchDir = join(root, "bench");
const target = join(root, "docs", "benchmarks.md");
// Links in the page are relative to docs/.
const fromDocs = "../bench/results/";

/** Which bench/*.mjs writes bench/results/<file>, found by the literal path in its source. */
function writerOf(file) {
  const scripts = readdirSync(benchDir).filter((f) => f.endsWith(".mjs")).sort();
  const writers = scripts.filter((s) => readFileSync(join(benchDir, s), "utf8").includes(`bench/results/${file}`));
  return writers.length > 0 ? writers.map((s) => `bench/${s}`) : null;
}

/** One result file's text, its headings pushed two levels down and its relative links made relative to docs/. */
function embed(text) {
  let inFence = false;
  return text
    .replace(/\r\n/g, "\n")
    .trimEnd()
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence) return line;
      const heading = /^(#{1,6})(\s.*)$/.exec(line);
      if (heading) line = `${"#".repeat(Math.min(6, heading[1].length + 2))}${heading[2]}`;
      return line.replace(/\]\(([^)\s]+)\)/g, (whole, href) => {
        if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("/")) return whole;
        return `](${fromDocs}${href})`;
      });
    })
    .join("\n");
}

export function render() {
  const files = readdirSync(resultsDir).filter((f) => f.endsWith(".md")).sort();
  const out = [];
  out.push("# Benchmarks");
  out.push("");
  out.push("<!-- Written by `node scripts/benchmarks-doc.mjs` (npm run docs:benchmarks) from bench/results/*.md. Do not edit by hand: re-run the benchmark, then the script. -->");
  out.push("");
  out.push("Every figure on this page is copied from a results file in [`bench/results/`](../bench/results/),");
  out.push("which the benchmark scripts in [`bench/`](../bench/) write (`npm run bench` runs most of them; the");
  out.push("`bench:*` scripts in package.json run one each). The sections follow the results files sorted by");
  out.push("name. Each names its source file, the script that writes it (when one writes it by that name) and");
  out.push("the raw data next to it. Dates, machines and commits are those the results file states: a section");
  out.push("is as old as its last run.");
  out.push("");
  out.push("`node scripts/benchmarks-doc.mjs --check` fails when this page is older than the results files.");
  out.push("");
  out.push("## Contents");
  out.push("");
  for (const f of files) out.push(`- [\`${f}\`](#${anchor(f)})`);
  for (const f of files) {
    const base = f.slice(0, -3);
    const writers = writerOf(f);
    out.push("");
    out.push(`## ${f}`);
    out.push("");
    const parts = [`Source: [\`bench/results/${f}\`](${fromDocs}${f})`];
    if (writers) parts.push(`written by ${writers.map((w) => `\`node ${w}\``).join(", ")}`);
    else parts.push("no script in bench/ writes this file by name (a kept record; its text says how it was made)");
    const extras = [];
    if (existsSync(join(resultsDir, `${base}.json`))) extras.push(`[\`${base}.json\`](${fromDocs}${base}.json)`);
    if (existsSync(join(resultsDir, `${base}.svg`))) extras.push(`[\`${base}.svg\`](${fromDocs}${base}.svg)`);
    let line = parts.join("; ") + ".";
    if (extras.length > 0) line += ` Data: ${extras.join(", ")}.`;
    out.push(line);
    out.push("");
    out.push(embed(readFileSync(join(resultsDir, f), "utf8")));
  }
  // Charts no .md embeds are still shown.
  const text = out.join("\n");
  const charts = readdirSync(resultsDir).filter((f) => f.endsWith(".svg")).sort();
  const extra = charts.filter((c) => !new RegExp(`!\\[[^\\]]*\\]\\(${escape(fromDocs + c)}\\)`).test(text));
  if (extra.length > 0) {
    out.push("");
    out.push("## Charts");
    for (const c of extra) {
      out.push("");
      out.push(`![${c}](${fromDocs}${c})`);
    }
  }
  return out.join("\n") + "\n";
}

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function anchor(heading) {
  return heading.toLowerCase().replace(/[^a-z0-9 _-]/g, "").replace(/ /g, "-");
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const wanted = render();
  if (process.argv.includes("--check")) {
    const current = existsSync(target) ? readFileSync(target, "utf8") : null;
    if (current !== wanted) {
      console.error(
        current === null
          ? "docs/benchmarks.md is missing: run `npm run docs:benchmarks`."
          : "docs/benchmarks.md differs from bench/results/: run `npm run docs:benchmarks`.",
      );
      process.exit(1);
    }
    console.log("docs/benchmarks.md is up to date.");
  } else {
    writeFileSync(target, wanted);
    console.log(`wrote docs/benchmarks.md from ${readdirSync(resultsDir).filter((f) => f.endsWith(".md")).length} results files`);
  }
}
