// Child process of bench/scaling.mjs: what the run-time compiled validators cost a generated package.
// Reads the package's sdk/schemas.json with the SDK runtime's own loader (src/runtime/validation.ts)
// and runs every validator once on `{}`, timing each first call (the one that compiles it).
// Prints JSON: operations' validators, load ms, first-call ms (median, p95, max) and all of them together.
// Usage: node bench/first-validation.mjs <generated package>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validatorTable } from "../dist/src/runtime/validation.js";

const file = join(process.argv[2], "sdk", "schemas.json");
let t = performance.now();
const data = JSON.parse(readFileSync(file, "utf8"));
const loadMs = performance.now() - t;
const validator = validatorTable(() => data, file);
const names = Object.keys(data.validators);
const firstCalls = [];
t = performance.now();
for (const name of names) {
  const v = validator(name);
  const s = performance.now();
  v({});
  firstCalls.push(performance.now() - s);
}
const allMs = performance.now() - t;
firstCalls.sort((a, b) => a - b);
const at = (q) => firstCalls[Math.min(firstCalls.length - 1, Math.floor(q * firstCalls.length))];
const round = (x) => Math.round(x * 10) / 10;
console.log(JSON.stringify({ validators: names.length, bytes: readFileSync(file).length, loadMs: round(loadMs), firstCallMs: { median: round(at(0.5)), p95: round(at(0.95)), max: round(firstCalls.at(-1)) }, allMs: Math.round(allMs) }));
