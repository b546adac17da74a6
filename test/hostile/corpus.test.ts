/**
 * The hostile corpus, through the real CLI: every contract in test/hostile/corpus/ (and the cases
 * support/cases.ts writes at test time) is one an attacker or a careless user might write. The
 * invariants do not depend on which diagnostic a fix chooses:
 *
 * - `validate` and `generate` finish within a time and output bound, never exit 70 and never print
 *   a stack trace;
 * - either the contract is rejected (validate locates ≥1 error as file:line:col, generate exits 1
 *   and writes nothing) or it is generated, and then the output is byte-identical when generated
 *   twice, compiles under tsc --strict (one tsc run over every output), keeps contract text inside
 *   literals and comments, and loading and running it (every module imported, CLI help, every SDK
 *   method) never executes contract text;
 * - no output or generated file ever contains a secret from the environment or a file outside the
 *   contract's folder.
 *
 * `# expect: rejected|generated` in a case pins its branch. Cases that fail today are listed in
 * known-failing.ts with the defect; the lead empties that list as the fixes land.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { copyPackageData } from "../support/sdk-data.js";
import type { FileTree } from "../../src/emit/index.js";
import { KNOWN_FAILING } from "./known-failing.js";
import { type CorpusCase, caseNames, GLOBAL_FORBID, materialize, SECRET_ENV, WORK } from "./support/cases.js";
import { escapedIdentifiers, markdownInjections, readTree, treeDifferences, tscErrorsByCase } from "./support/inspect.js";
import { type Bounded, crashSigns, pool, runBounded } from "./support/run.js";

const BIN = resolve("bin/contractgen.js");
const TSC = resolve("node_modules/typescript/bin/tsc");
const LOADER = resolve("test/hostile/support/load-output.mjs");
const OUT = `${WORK}/out`;
const DIST = `${WORK}/dist`;
/** A payload that runs writes the file its loader names: one per case. */
const canaryFile = (name: string) => resolve(WORK, `canary-executed-${name}`);
// Memory bound for every child: an expansion bomb fails fast instead of eating the machine.
const NODE = [process.execPath, "--max-old-space-size=1024"] as const;
const ENV = { ...process.env, ...SECRET_ENV, NO_COLOR: "1", FORCE_COLOR: "0" };
const LOCATED_ERROR = /^.+:\d+:\d+: error \[[a-z0-9-]+\]/m;

interface Outcome {
  c: CorpusCase;
  validate?: Bounded;
  generate?: Bounded;
  /** The second generation, in process: files (without the manifest), or what went wrong. */
  regenerated?: FileTree | Error;
  /** The contract's tools/list (model side), as key-sorted JSON. */
  catalogue?: string;
  load?: Bounded;
}

/** JSON with object keys sorted, own keys only (the same form the loader reports). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]])) : v,
  );
}

const names = caseNames();
const outcomes = new Map<string, Outcome>();
let tscErrors = new Map<string, string[]>();
let tscRun: Bounded | undefined;

function contractgen(c: CorpusCase, args: string[]): Promise<Bounded> {
  return runBounded(NODE[0], [...NODE.slice(1), BIN, ...args], { timeoutMs: c.timeoutMs, env: ENV });
}

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const cases = materialize();
  await pool(cases, 2, async (c) => {
    const o: Outcome = { c };
    outcomes.set(c.name, o);
    o.validate = await contractgen(c, ["validate", c.file]);
    if (o.validate.hang) return; // one hang is enough to know
    o.generate = await contractgen(c, ["generate", c.file, "-o", `${OUT}/${c.name}`, "--mcp", c.mcp, "--server", c.server]);
  });
  // The second generation runs in this process (no second node start-up per case): the same
  // emitter must produce the same bytes as the CLI did. Only for cases the CLI generated within
  // its bounds, so none of them can hang here.
  const { parseContract } = (await import(pathToFileURL(resolve("dist/src/contract/parse.js")).href)) as typeof import("../../src/contract/parse.js");
  const { emitPackage } = (await import(pathToFileURL(resolve("dist/src/emit/index.js")).href)) as typeof import("../../src/emit/index.js");
  const { catalogTools } = (await import(pathToFileURL(resolve("dist/src/budget/catalog.js")).href)) as typeof import("../../src/budget/catalog.js");
  for (const o of outcomes.values()) {
    if (o.generate?.code !== 0) continue;
    try {
      const result = parseContract(o.c.file);
      o.regenerated = result.model ? await emitPackage(result.model, { mcp: o.c.mcp, server: o.c.server }) : new Error("no model in process");
      if (result.model) o.catalogue = canonicalJson(catalogTools(result.model));
    } catch (e) {
      o.regenerated = e as Error;
    }
  }

  const generated = [...outcomes.values()].filter((o) => o.generate?.code === 0 && existsSync(`${OUT}/${o.c.name}`));
  if (generated.length > 0) {
    // One tsc over every output, with the generated packages' own compiler options.
    const own = JSON.parse(readFileSync(`${OUT}/${generated[0]!.c.name}/tsconfig.json`, "utf8")) as { compilerOptions: Record<string, unknown> };
    writeFileSync(
      `${WORK}/tsconfig.json`,
      JSON.stringify({
        compilerOptions: { ...own.compilerOptions, strict: true, rootDir: "out", outDir: "dist" },
        include: ["out/*/**/*.ts"],
        exclude: ["out/*/node_modules", "out/*/dist"],
      }),
    );
    tscRun = await runBounded(process.execPath, ["--max-old-space-size=3072", TSC, "-p", `${WORK}/tsconfig.json`, "--pretty", "false"], { timeoutMs: 600_000, maxOutput: 16 * 1024 * 1024 });
    tscErrors = tscErrorsByCase(tscRun.stdout, OUT);
    // As each package's build script does: the contract data (JSON) is copied, not compiled.
    for (const o of generated) {
      copyPackageData(`${OUT}/${o.c.name}`, `${DIST}/${o.c.name}`);
    }
    await pool(generated, 2, async (o) => {
      o.load = await runBounded(process.execPath, [LOADER, resolve(DIST, o.c.name)], { timeoutMs: o.c.timeoutMs, env: { ...ENV, CANARY_FILE: canaryFile(o.c.name) } });
    });
  }
  writeFileSync(`${WORK}/summary.json`, JSON.stringify([...outcomes.values()].map((o) => ({ name: o.c.name, problems: problems(o.c.name), ms: { validate: o.validate?.ms, generate: o.generate?.ms, load: o.load?.ms } })), null, 2));
}, 20 * 60_000);

/** Everything wrong with one case; empty when it holds every invariant. */
function problems(name: string): string[] {
  const o = outcomes.get(name);
  if (!o) return ["case did not run"];
  const { c } = o;
  const p: string[] = [];
  const forbid = [...GLOBAL_FORBID, ...c.forbid];
  const checkProcess = (what: string, r: Bounded | undefined, codes: readonly number[]) => {
    if (!r) return;
    if (r.hang) p.push(`${what}: hang (killed after ${c.timeoutMs / 1000} s)`);
    if (r.flood) p.push(`${what}: output flood (killed past the output bound)`);
    if (r.code === 70) p.push(`${what}: exit 70 (internal error): ${r.stderr.split("\n").find((l) => /internal error/.test(l)) ?? ""}`);
    else if (!r.hang && !r.flood && (r.code === null || !codes.includes(r.code))) p.push(`${what}: exit ${r.code ?? r.signal}`);
    for (const sign of crashSigns(r.stderr + r.stdout)) p.push(`${what}: crash output: ${sign}`);
    for (const f of forbid) if ((r.stdout + r.stderr).includes(f)) p.push(`${what}: output contains forbidden text ${JSON.stringify(f)}`);
  };
  checkProcess("validate", o.validate, [0, 1]);
  checkProcess("generate", o.generate, [0, 1]);
  if (!o.validate || o.validate.hang || o.validate.flood || !o.generate) return p;

  const accepted = o.validate.code === 0;
  const out = `${OUT}/${name}`;
  if (!accepted) {
    if (!LOCATED_ERROR.test(o.validate.stderr)) p.push("validate: rejected without a located error (file:line:col: error [code])");
    if (o.generate.code === 0) p.push("generate: succeeded although validate rejected the contract");
    if (existsSync(out)) p.push("generate: wrote output for a rejected contract");
    if (c.expect === "generated") p.push(`expected generated, but rejected: ${o.validate.stderr.split("\n").find((l) => LOCATED_ERROR.test(l)) ?? o.validate.stderr.slice(0, 300)}`);
    return p;
  }
  if (c.expect === "rejected") p.push("expected rejected, but validate accepted it");
  if (o.generate.code !== 0) {
    p.push(`generate: exit ${o.generate.code} although validate accepted the contract: ${o.generate.stderr.slice(0, 300)}`);
    return p;
  }
  if (!existsSync(out)) return [...p, "generate: exit 0 but no output folder"];

  const first = readTree(out);
  if (o.regenerated instanceof Error) p.push(`generate (again, in process): ${o.regenerated.message}`);
  else if (o.regenerated) {
    const again = new Map([...o.regenerated].map(([path, text]) => [path, Buffer.from(text, "utf8")]));
    const cliFiles = new Map([...first].filter(([path]) => path !== ".contractgen.json"));
    p.push(...treeDifferences(cliFiles, again));
  }
  for (const [path, bytes] of first) {
    const text = bytes.toString("utf8");
    for (const f of forbid) if (text.includes(f)) p.push(`${path}: contains forbidden text ${JSON.stringify(f)}`);
    if (/\.(?:ts|js|mjs|cjs)$/.test(path)) p.push(...escapedIdentifiers(path, text));
    else if (path.endsWith(".md")) p.push(...markdownInjections(path, text));
    else if (path.endsWith(".json")) {
      try {
        JSON.parse(text);
      } catch (e) {
        p.push(`${path}: not JSON: ${(e as Error).message}`);
      }
    }
  }
  for (const line of (tscErrors.get(name) ?? []).slice(0, 5)) p.push(`tsc: ${line}`);
  if ((tscErrors.get(name)?.length ?? 0) > 5) p.push(`tsc: … ${tscErrors.get(name)!.length - 5} more errors`);

  const load = o.load;
  if (!load) p.push("load: did not run");
  else {
    if (load.hang) p.push(`load: hang (killed after ${c.timeoutMs / 1000} s)`);
    const all = load.stdout + load.stderr;
    if (all.includes("CANARY-EXECUTED")) p.push("load: contract text executed (CANARY-EXECUTED printed)");
    if (existsSync(canaryFile(name))) p.push("load: contract text executed (wrote the canary file)");
    for (const f of forbid) if (all.includes(f)) p.push(`load: output contains forbidden text ${JSON.stringify(f)}`);
    const last = load.stdout.trim().split("\n").pop() ?? "";
    try {
      const report = JSON.parse(last) as { modules: number; methods: number; tools: number; described: number; catalogue: string | null; errors: string[] };
      if (report.modules === 0) p.push("load: no module imported");
      // Every generated client has at least one operation method: none called means the check did not run.
      if (report.methods === 0) p.push("load: no SDK method called");
      // The discovery-mode server found and described every tool the direct one listed.
      if (report.described !== report.tools) p.push(`load: discovery described ${report.described} of ${report.tools} tools`);
      // What the server lists is the contract's catalogue, every schema key kept (a __proto__ property included).
      if (o.catalogue !== undefined && report.catalogue !== o.catalogue) p.push(`load: the served tools/list differs from the contract's catalogue`);
      for (const e of report.errors.slice(0, 5)) p.push(`load: ${e}`);
    } catch {
      p.push(`load: no report (exit ${load.code ?? load.signal}): ${load.stderr.slice(0, 300)}`);
    }
  }
  return p;
}

describe("hostile corpus: contractgen never crashes, hangs, leaks or executes contract text", () => {
  it("the corpus is large enough to mean something", () => {
    expect(names.static.length + names.generated.length).toBeGreaterThanOrEqual(40);
    for (const known of Object.keys(KNOWN_FAILING)) expect([...names.static, ...names.generated], `KNOWN_FAILING names a case that does not exist: ${known}`).toContain(known);
  });

  it("tsc ran over the generated outputs, and nothing polluted a prototype", () => {
    if (!tscRun) return;
    expect(tscRun.hang, "tsc hang").toBe(false);
    const stray = tscErrors.get("") ?? [];
    expect(stray, "tsc errors outside any case folder").toEqual([]);
    // Hostile contracts also went through the emitter in this process: no key reached a prototype.
    expect(({} as Record<string, unknown>).polluted, "Object.prototype polluted").toBeUndefined();
    expect(Object.isFrozen(Object.prototype), "Object.prototype frozen").toBe(false);
  });

  for (const name of [...names.static, ...names.generated]) {
    const known = KNOWN_FAILING[name];
    // it.fails: green while the defect is there; turns red the day it is fixed, so the entry goes.
    (known ? it.fails : it)(known ? `${name} (known failing: ${known})` : name, () => {
      expect(problems(name)).toEqual([]);
    });
  }
});
