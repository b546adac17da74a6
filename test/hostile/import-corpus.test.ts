/**
 * The importer's hostile corpus, through the real CLI: every OpenAPI document in
 * test/hostile/import-corpus/ (and the large ones support/import-cases.ts writes at test time) is
 * imported by `contractgen import-openapi` in a child process with a 512 MB heap and a time bound,
 * so a crash, an out-of-memory or a hang is one failed case, never the end of the run. Whatever a
 * fix chooses, each case must hold:
 *
 * - no crash, no hang, no stack trace or internal error in the output, exit 0 or 1;
 * - refused (exit 1): at least one located error (file:line:col) with a registered code, the code
 *   the case expects, and no contract written;
 * - imported (exit 0): the contract validates (parseContract, 0 errors); for the cases marked
 *   `# check: typecheck`, the generated package compiles under tsc --strict (one tsc run over all of
 *   them) and every validator of its SDK runs on sample values without throwing;
 * - no output or written file holds a secret from outside the document's folder.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../../src/diagnostics/codes.js";
import type { FileTree } from "../../src/emit/index.js";
import { validatorTable, type SchemaData } from "../../src/runtime/validation.js";
import { parseContract } from "../../src/contract/parse.js";
import { generateInto, tscStrict } from "./harness.js";
import { GENERATED, IMPORT_WORK, type ImportCase, materialize, staticCaseNames } from "./support/import-cases.js";
import { type Bounded, crashSigns, pool, runBounded } from "./support/run.js";

const BIN = resolve("bin/contractgen.js");
const OUT = join(IMPORT_WORK, "out");
const PACKAGES = join(IMPORT_WORK, "packages");
// A memory bound for every import: an expansion bomb must be refused well inside it.
const NODE = [process.execPath, "--max-old-space-size=512"] as const;
const TIMEOUT_MS = 30_000;
const LOCATED = /^(.+):(\d+):(\d+): error \[([a-z0-9-]+)\]/gm;
/** Values every SDK validator is run on: it must answer, never throw (a stack overflow, a compile error). */
const SAMPLES: readonly unknown[] = [null, 0, "x", [], {}, { a: { a: { a: [] } } }, [[[{}]]], { name: "n", children: [{ name: "c", children: [] }] }];

interface Outcome {
  readonly c: ImportCase;
  readonly run: Bounded;
  /** Contract validation errors, when imported. */
  validateErrors?: string[];
  files?: FileTree;
  /** Validators that threw on a sample, with the error. */
  validatorFailures?: string[];
}

let cases: readonly ImportCase[] = [];
const outcomes = new Map<string, Outcome>();
let tscOutput = "";

beforeAll(async () => {
  rmSync(IMPORT_WORK, { recursive: true, force: true });
  cases = materialize().cases;
  await pool(cases, 2, async (c) => {
    const out = join(OUT, c.name);
    const run = await runBounded(NODE[0], [...NODE.slice(1), BIN, "import-openapi", c.entry, "-o", join(out, "contract.yaml"), "--report", join(out, "review"), "--no-progress", ...c.args], { timeoutMs: TIMEOUT_MS, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    outcomes.set(c.name, { c, run });
  });
  const typecheck: Outcome[] = [];
  for (const o of outcomes.values()) {
    const contract = join(OUT, o.c.name, "contract.yaml");
    if (o.run.code !== 0 || !existsSync(contract)) continue;
    const parsed = parseContract(contract);
    o.validateErrors = parsed.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.location.pointer} ${d.message}`.slice(0, 300));
    if (o.c.typecheck && parsed.model && o.validateErrors.length === 0) {
      o.files = await generateInto(join(PACKAGES, o.c.name), parsed.model);
      o.validatorFailures = runValidators(o.files);
      typecheck.push(o);
    }
  }
  // One tsc over every package that was generated.
  if (typecheck.length > 0) tscOutput = tscStrict(PACKAGES);
  // What each case did, for reading a failure (and the README's table): exit, time, codes reported.
  const summary = [...outcomes.values()].map(({ c, run }) => ({ name: c.name, exit: run.code ?? run.signal, hang: run.hang, ms: run.ms, codes: [...run.stderr.matchAll(LOCATED)].map((m) => m[4]), problems: problems(c.name) }));
  writeFileSync(join(IMPORT_WORK, "summary.json"), `${JSON.stringify(summary, null, 1)}\n`);
}, 10 * 60_000);

/** Every validator of the package's SDK on every sample value, as the SDK runs them. */
function runValidators(files: FileTree): string[] {
  const text = files.get("sdk/schemas.json");
  if (text === undefined) return ["sdk/schemas.json was not generated"];
  const data = JSON.parse(text) as SchemaData;
  const validator = validatorTable(() => data, "sdk/schemas.json");
  const failures: string[] = [];
  for (const name of Object.keys(data.validators)) {
    for (const sample of SAMPLES) {
      try {
        validator(name)(sample);
      } catch (e) {
        failures.push(`${name}(${JSON.stringify(sample)}): ${(e as Error).message.slice(0, 200)}`);
        break;
      }
    }
  }
  return failures;
}

/** Everything wrong with one case; empty when it holds every invariant. */
function problems(name: string): string[] {
  const o = outcomes.get(name);
  if (!o) return ["case did not run"];
  const { c, run } = o;
  const p: string[] = [];
  const output = run.stdout + run.stderr;
  const first = (text: string) => text.split("\n").find((l) => l.trim() !== "")?.slice(0, 300) ?? "";
  if (run.hang) return [`hang: killed after ${TIMEOUT_MS / 1000} s`];
  if (run.flood) p.push("output flood (killed past the output bound)");
  if (run.code !== 0 && run.code !== 1) p.push(`exit ${run.code ?? run.signal}: ${first(run.stderr)}`);
  for (const sign of crashSigns(output)) p.push(`crash output: ${sign}`);
  if (/internal error/i.test(output)) p.push(`internal error: ${first(run.stderr)}`);
  for (const f of c.forbid) if (output.includes(f)) p.push(`output contains forbidden text ${JSON.stringify(f)}`);
  const out = join(OUT, name);
  const contract = join(out, "contract.yaml");
  if (run.code === 1) {
    const located = [...run.stderr.matchAll(LOCATED)];
    if (located.length === 0) p.push(`refused without a located error (file:line:col: error [code]): ${first(run.stderr)}`);
    for (const m of located) if (!Object.hasOwn(DIAGNOSTIC_CODES, m[4]!)) p.push(`refused with an unregistered code ${m[4]}`);
    if (existsSync(contract)) p.push("refused, but a contract was written");
    // --strict refuses a document it mapped: the report of what it lost is still written.
    if (located.some((m) => m[4] === "openapi-strict") && !existsSync(join(out, "review.json"))) p.push("refused by --strict, but no review report was written");
    if (c.expect === "imported") p.push(`expected imported, but refused: ${first(run.stderr)}`);
    else if (c.expect !== "either" && !located.some((m) => c.expect !== "either" && c.expect !== "imported" && c.expect.refused.includes(m[4]!))) {
      p.push(`expected a refusal with ${c.expect.refused.join(" or ")}, got: ${located.map((m) => m[4]).join(", ") || first(run.stderr)}`);
    }
    return p;
  }
  if (run.code !== 0) return p;
  if (typeof c.expect === "object") p.push(`expected a refusal with ${c.expect.refused.join(" or ")}, but imported`);
  if (!existsSync(contract)) return [...p, "exit 0 but no contract written"];
  for (const f of c.forbid) if (readFileSync(contract, "utf8").includes(f)) p.push(`contract contains forbidden text ${JSON.stringify(f)}`);
  for (const e of (o.validateErrors ?? []).slice(0, 5)) p.push(`validate: ${e}`);
  if (c.review.length > 0) {
    const report = JSON.parse(readFileSync(join(out, "review.json"), "utf8")) as { items: Array<{ kind: string }> };
    for (const kind of c.review) if (!report.items.some((i) => i.kind === kind)) p.push(`the review report has no ${kind} item`);
  }
  if (c.typecheck) {
    if (!o.files) p.push("not generated (the contract did not validate)");
    const errors = tscOutput.split("\n").filter((l) => l.includes(`/${name}/`));
    for (const line of errors.slice(0, 5)) p.push(`tsc: ${line}`);
    for (const f of (o.validatorFailures ?? []).slice(0, 5)) p.push(`validator threw: ${f}`);
  }
  return p;
}

describe("the importer's hostile corpus: import-openapi never crashes, hangs or writes a contract that does not validate", () => {
  it("every case is listed in the corpus README, and tsc found no error outside a case", () => {
    const readme = readFileSync("test/hostile/import-corpus/README.md", "utf8");
    for (const name of [...staticCaseNames(), ...GENERATED.map((g) => g.name)]) expect(readme, `README.md lists ${name}`).toContain(`\`${name}\``);
    const stray = tscOutput.split("\n").filter((l) => /error TS/.test(l) && !cases.some((c) => l.includes(`/${c.name}/`)));
    expect(stray).toEqual([]);
  });

  for (const name of [...staticCaseNames(), ...GENERATED.map((g) => g.name)]) {
    it(name, () => {
      expect(problems(name)).toEqual([]);
    });
  }
});
