#!/usr/bin/env node
/**
 * How silent is the diff? Runs N random mutations per kind (test/diff/mutate.mjs) over every
 * contract of specs/ and examples/ and every diff rule fixture, and prints per kind: tried /
 * invalid (discarded) / models differ / silent (differ but no finding) / false (equal but findings),
 * then one concrete example of each silent or false kind.
 *
 * Reads the built diff: run `npx tsc -p tsconfig.json` first.
 *
 *   node scripts/silent-report.mjs [N per kind, default 40] [--seed S] [--kind substring] [--json]
 */
import { parseContractText } from "../dist/src/contract/parse.js";
import { allFindings, runDiff } from "../dist/src/diff/engine.js";
import { KINDS, checkCase, describeCase, loadCorpus } from "../test/diff/mutate.mjs";

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const seed0 = Number(flag("--seed") ?? 24);
const only = flag("--kind");
const json = args.includes("--json");
const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 40);

const metaValid = new Set();
const engine = {
  parse: (path, text) => parseContractText(path, text, { checkBudget: false, metaValid }),
  diff: (before, after) => runDiff(before, after),
  allFindings,
};

const started = Date.now();
const corpus = loadCorpus(engine);
const rows = [];
const examples = [];
for (const [k, kind] of KINDS.entries()) {
  if (only && !kind.name.includes(only)) continue;
  const row = { kind: kind.name, tried: 0, invalid: 0, differ: 0, silent: 0, false: 0 };
  let example = null;
  // Cycle through the files; a kind with no place in a file does not count as tried.
  for (let i = 0, attempts = 0; row.tried < n && attempts < n * 6; i++, attempts++) {
    const entry = corpus[(i * 7919 + k * 104_729 + seed0) % corpus.length];
    const r = checkCase(engine, entry, kind, seed0 * 100_003 + i);
    if (r.status === "n/a") continue;
    row.tried++;
    if (r.status === "invalid") row.invalid++;
    if (r.differ) row.differ++;
    if (r.status === "silent") row.silent++;
    if (r.status === "false") row.false++;
    if ((r.status === "silent" || r.status === "false") && example === null) example = r;
  }
  rows.push(row);
  if (example) examples.push(example);
}

if (json) {
  console.log(JSON.stringify({ rows, examples }, null, 2));
} else {
  const header = ["kind", "tried", "invalid", "differ", "silent", "false"];
  const width = Math.max(...rows.map((r) => r.kind.length), 4);
  const line = (cells) => `| ${cells[0].padEnd(width)} | ${cells.slice(1).map((c) => String(c).padStart(7)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${"-".repeat(width + 2)}|${header.slice(1).map(() => "-".repeat(9)).join("|")}|`);
  for (const r of rows) console.log(line([r.kind, r.tried, r.invalid, r.differ, r.silent, r.false]));
  const total = rows.reduce((t, r) => ({ tried: t.tried + r.tried, invalid: t.invalid + r.invalid, differ: t.differ + r.differ, silent: t.silent + r.silent, false: t.false + r.false }), { tried: 0, invalid: 0, differ: 0, silent: 0, false: 0 });
  console.log(line(["total", total.tried, total.invalid, total.differ, total.silent, total.false]));
  console.log(`\n${corpus.length} contracts, ${n} mutations per kind, seed ${seed0}, ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  for (const e of examples) console.log(describeCase(e) + "\n");
}
