/**
 * Properties over random valid contracts (support/contract-arbitrary.ts, hostile names in every
 * name position): validate accepts them, generation never throws and is deterministic, a contract
 * diffed against itself has no findings, the generated CLI hands the client exactly the fields whose
 * flags were given (support/cli-flags.mjs), a diff against a lightly edited copy never throws, and
 * the generated packages compile.
 *
 * Bounded by run count and per-case work (≤ 6 operations, schemas ≤ 2 levels deep), never by the
 * clock: PROPERTY_RUNS (default 60) and PROPERTY_SEED override; the compile property builds
 * PROPERTY_COMPILE_RUNS (default 8) packages and runs one tsc over all of them. The timeouts only
 * catch a hang.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { FileTree } from "../../src/emit/index.js";
import { DIGIT_LOWERCASE_NAMES_BREAK_TYPES, OPTIONAL_PAGE_ITEMS_BREAK_COMPILE, PROTOTYPE_NAMES_BREAK_LOADER } from "./known-failing.js";
import { exerciseFlags } from "./support/cli-flags.mjs";
import { contractArbitrary, contractMutation } from "./support/contract-arbitrary.js";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const COMPILE_RUNS = Number(process.env.PROPERTY_COMPILE_RUNS ?? 8);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261201);
const HANG_MS = 120_000 + RUNS * 5_000;
const WORK = resolve("test-results/hostile-properties");

// The built modules, as the CLI runs them (npm test builds first).
type Parse = typeof import("../../src/contract/parse.js");
type Emit = typeof import("../../src/emit/index.js");
type Engine = typeof import("../../src/diff/engine.js");
type CliRuntime = typeof import("../../src/cli-runtime/program.js");
type CliEmit = typeof import("../../src/emit/cli/commands.js");
let parseContractText: Parse["parseContractText"];
let emitPackage: Emit["emitPackage"];
let runDiff: Engine["runDiff"];
let runCli: CliRuntime["runCli"];
let commandSpecs: CliEmit["commandSpecs"];

beforeAll(async () => {
  const load = async <T>(p: string) => (await import(pathToFileURL(resolve(p)).href)) as T;
  ({ parseContractText } = await load<Parse>("dist/src/contract/parse.js"));
  ({ emitPackage } = await load<Emit>("dist/src/emit/index.js"));
  ({ runDiff } = await load<Engine>("dist/src/diff/engine.js"));
  ({ runCli } = await load<CliRuntime>("dist/src/cli-runtime/program.js"));
  ({ commandSpecs } = await load<CliEmit>("dist/src/emit/cli/commands.js"));
}, HANG_MS);

const arbitrary = contractArbitrary({
  withoutPrototypeNames: PROTOTYPE_NAMES_BREAK_LOADER,
  withoutDigitLowercaseNames: DIGIT_LOWERCASE_NAMES_BREAK_TYPES,
  pageItemsRequired: OPTIONAL_PAGE_ITEMS_BREAK_COMPILE,
});
const toText = (c: unknown) => stringify(c, { aliasDuplicateObjects: false, lineWidth: 0 });
const errorsOf = (text: string) => parseContractText("prop.yaml", text).diagnostics.filter((d) => d.severity === "error");
const same = (a: FileTree, b: FileTree) => [...a.keys()].join("\n") === [...b.keys()].join("\n") && [...a].every(([k, v]) => b.get(k) === v);

describe("random valid contracts", () => {
  // Runs in a child process: the defect corrupts the process it happens in.
  (PROTOTYPE_NAMES_BREAK_LOADER ? it.fails : it)("Object.prototype member names as fields and types load and generate (known defect while PROTOTYPE_NAMES_BREAK_LOADER)", () => {
    const names = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"];
    const contract = fc.sample(contractArbitrary({ maxOperations: 1, withoutDigitLowercaseNames: true }), { numRuns: 1, seed: SEED })[0]!;
    const op = Object.values(contract.operations as Record<string, { output: { properties: Record<string, unknown> } }>)[0]!;
    // Added to what the contract has (its pagination and references stay valid), as own keys.
    const own = (target: Record<string, unknown>, key: string, value: unknown) => Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    for (const n of names) if (!Object.hasOwn(op.output.properties, n)) own(op.output.properties, n, { type: "string" });
    const types = (contract.types ??= {}) as Record<string, unknown>;
    for (const n of names.filter((n) => n !== "__proto__")) own(types, n, { type: "object", properties: Object.fromEntries(names.map((m) => [m, { type: "string" }])) });
    mkdirSync(WORK, { recursive: true });
    const file = join(WORK, "prototype-names.yaml");
    writeFileSync(file, toText(contract));
    // Twice in one process: the first run must not break the second.
    const script = `const { parseContract } = await import(${JSON.stringify(pathToFileURL(resolve("dist/src/contract/parse.js")).href)});
const { emitPackage } = await import(${JSON.stringify(pathToFileURL(resolve("dist/src/emit/index.js")).href)});
for (let i = 0; i < 2; i++) { const r = parseContract(${JSON.stringify(file)}); if (!r.model) throw new Error(r.diagnostics.map((d) => d.code).join()); await emitPackage(r.model); }
if (Object.isFrozen(Object.prototype)) throw new Error("Object.prototype frozen");`;
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", stdio: "pipe" });
  }, HANG_MS);

  it("validate accepts at least 90 % of them (the rest name the rule that disagrees)", () => {
    const rejected: string[] = [];
    const samples = fc.sample(arbitrary, { numRuns: RUNS, seed: SEED });
    for (const c of samples) {
      const errors = errorsOf(toText(c));
      if (errors.length) rejected.push(`${errors[0]!.code} at ${errors[0]!.location.pointer}: ${errors[0]!.message}`);
    }
    expect(rejected.length / samples.length, rejected.join("\n")).toBeLessThanOrEqual(0.1);
  }, HANG_MS);

  it("generation never throws, is deterministic, and diff(x, x) is empty", async () => {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        const text = toText(c);
        const result = parseContractText("prop.yaml", text);
        fc.pre(result.model !== undefined);
        const model = result.model!;
        // Two generations, the second from a second parse of the same text: no hidden state
        // between runs, no order that depends on anything but the contract.
        const first = await emitPackage(model);
        const again = parseContractText("prop.yaml", text).model!;
        expect(same(first, await emitPackage(again)), "two generations differ").toBe(true);
        const report = runDiff({ model, source: result.source, label: "a" }, { model: again, source: result.source, label: "b" });
        expect(report.findings.map((f) => `${f.rule}: ${f.message}`)).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, HANG_MS);

  it("the generated CLI hands the client exactly the fields whose flags were given, whatever their names", async () => {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (c) => {
        const result = parseContractText("prop.yaml", toText(c));
        fc.pre(result.model !== undefined);
        expect(await exerciseFlags(runCli, commandSpecs(result.model!))).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, HANG_MS);

  it("the diff against a lightly edited contract never throws", () => {
    fc.assert(
      fc.property(arbitrary, fc.array(contractMutation, { minLength: 1, maxLength: 3 }), (c, edits) => {
        const before = parseContractText("old.yaml", toText(c));
        fc.pre(before.model !== undefined);
        const edited = structuredClone(c);
        for (const edit of edits) edit(edited);
        const after = parseContractText("new.yaml", toText(edited));
        fc.pre(after.model !== undefined);
        const report = runDiff({ model: before.model!, source: before.source, label: "old.yaml" }, { model: after.model!, source: after.source, label: "new.yaml" });
        for (const f of report.findings) {
          expect(typeof f.rule).toBe("string");
          expect(f.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, HANG_MS);

  it("generated packages compile under tsc --strict (one tsc over a batch)", async () => {
    rmSync(WORK, { recursive: true, force: true });
    const samples = fc.sample(arbitrary, { numRuns: COMPILE_RUNS, seed: SEED + 1 });
    let written = 0;
    let options: Record<string, unknown> | undefined;
    for (const [i, c] of samples.entries()) {
      const text = toText(c);
      const model = parseContractText("prop.yaml", text).model;
      if (!model) continue;
      const dir = join(WORK, "out", `p${i}`);
      for (const [path, content] of await emitPackage(model)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), content);
      }
      // Kept beside the package (outside tsc's include) to reproduce a failure.
      writeFileSync(join(WORK, `p${i}.contract.yaml`), text);
      options ??= (JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> }).compilerOptions;
      written++;
    }
    expect(written).toBeGreaterThan(0);
    writeFileSync(join(WORK, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...options, strict: true, noEmit: true, declaration: false }, include: ["out/*/**/*.ts", "out/*/**/*.js"] }));
    let output = "";
    try {
      execFileSync(process.execPath, [resolve("node_modules/typescript/bin/tsc"), "-p", join(WORK, "tsconfig.json"), "--pretty", "false"], { encoding: "utf8" });
    } catch (e) {
      output = (e as { stdout?: string }).stdout ?? String(e);
    }
    expect(output.split("\n").filter((l) => /error TS/.test(l)).slice(0, 20)).toEqual([]);
  }, HANG_MS);
});
