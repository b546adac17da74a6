// Child processes of bench/scaling.mjs for the diff of two versions.
//   node bench/diff-phases.mjs phases <old.yaml> <new.yaml>
//     runs `contractgen diff`'s pipeline in one process and prints, as JSON, how long each phase of
//     each side took (the phases its progress line reports) and the comparison itself (runDiff).
//   node bench/diff-phases.mjs yaml <old.yaml> <new.yaml>
//     only reads both files with js-yaml (the fastest YAML parser in JavaScript here, and the one the
//     contract reader walks): the floor under any YAML diff in Node, run as a whole process like the CLI.
import { readFileSync } from "node:fs";
import { load } from "js-yaml";
import { runDiff } from "../dist/src/diff/engine.js";
import { parseContract } from "../dist/src/contract/parse.js";

const [mode, before, after] = process.argv.slice(2);
if (mode === "yaml") {
  for (const file of [before, after]) load(readFileSync(file, "utf8"));
  process.exit(0);
}

const ms = {};
let current;
let since = performance.now();
/** Charges the time since the last phase change to the phase that was running. */
function phase(name) {
  const now = performance.now();
  if (current) ms[current] = Math.round((ms[current] ?? 0) + (now - since));
  current = name;
  since = now;
}
// As the CLI does: the two sides share the schemas already meta-validated.
const metaValid = new Set();
const sides = [["old", before], ["new", after]].map(([label, file]) => {
  phase(`${label}: parse`);
  const result = parseContract(file, { checkBudget: false, metaValid, onProgress: (name) => phase(`${label}: ${name}`) });
  if (!result.model) {
    console.error(`${file}: not a valid contract`);
    process.exit(1);
  }
  return result;
});
phase("compare");
runDiff({ model: sides[0].model, source: sides[0].source, label: before }, { model: sides[1].model, source: sides[1].source, label: after });
phase(undefined);
console.log(JSON.stringify(ms));
