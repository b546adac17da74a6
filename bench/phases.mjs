// Child process of bench/scaling.mjs: runs generate's pipeline (parse → emit every artefact → write)
// on one contract and prints how long each phase took, as JSON on stdout. The phases are the ones the
// pipeline reports through its onProgress callback (the same the terminal progress line shows), so
// the benchmark and the progress line cannot disagree about what a phase is.
// Usage: node bench/phases.mjs <contract.yaml> <out-dir>
import { statSync } from "node:fs";
import { emitPackage, prepareToEmit, writeOnceFiles } from "../dist/src/emit/index.js";
import { openContract } from "../dist/src/import/open.js";
import { writeTree } from "../dist/src/write/tree.js";

const [spec, out] = process.argv.slice(2);
const ms = new Map();
let current;
let since = performance.now();
/** Charges the time since the last phase change to the phase that was running. */
function phase(name) {
  const now = performance.now();
  if (current) ms.set(current, (ms.get(current) ?? 0) + (now - since));
  current = name;
  since = now;
}
const onProgress = (name) => phase(name);

phase("parse");
prepareToEmit(statSync(spec).size); // as generate does
const result = await openContract(spec, { onProgress });
if (!result.model) {
  console.error(result.diagnostics.filter((d) => d.severity === "error").slice(0, 3).map((d) => d.message).join("\n"));
  process.exit(1);
}
const files = await emitPackage(result.model, { onProgress });
phase("write");
writeTree(out, { header: { generator: "contractgen-bench" }, files, writeOnce: writeOnceFiles(result.model) });
phase(undefined);
// The final "emit" report marks the end of the last artefact, it is not a phase of its own.
ms.delete("emit");
console.log(JSON.stringify(Object.fromEntries([...ms].map(([k, v]) => [k, Math.round(v)]))));
