// Prints the findings of one rule on its fixture pair, in expected.json form, to help write fixtures.
// Usage: node scripts/diff-fixture.mjs <rule-id>   (after npm run build). Check every location by hand.
import { runDiff } from "../dist/src/diff/engine.js";
import { parseContract } from "../dist/src/contract/parse.js";

const id = process.argv[2];
const dir = `test/diff/rules/${id}`;
const sides = ["base.yaml", "revision.yaml"].map((f) => {
  const r = parseContract(`${dir}/${f}`, { checkBudget: false });
  for (const d of r.diagnostics) console.error(`${d.location.file}:${d.location.line}:${d.location.col} ${d.severity} [${d.code}] ${d.message}`);
  return { model: r.model, source: r.source, label: `${dir}/${f}` };
});
if (!sides[0].model || !sides[1].model) process.exit(1);
const report = runDiff(sides[0], sides[1]);
const mine = report.findings.filter((f) => f.rule === id).map((f) => ({
  operation: f.operation,
  message: f.message,
  old: f.old ? `${f.old.line}:${f.old.col}` : null,
  new: f.new ? `${f.new.line}:${f.new.col}` : null,
}));
console.log(JSON.stringify(mine, null, 2));
console.error(`other rules on this pair: ${[...new Set(report.findings.filter((f) => f.rule !== id).map((f) => f.rule))].join(", ") || "none"}`);
