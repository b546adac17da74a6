/**
 * The diff is never silent (issue 24 item 5): a seeded property test mutates every contract of
 * specs/ and examples/ and every diff rule fixture (test/diff/rules/<id>/{base,revision}.yaml) at a
 * random place with one mutation kind (test/diff/mutate.mjs: every JSON Schema 2020-12 keyword at
 * any depth of any schema position, operation fields, the error taxonomy, transport, budget,
 * version, and no-op rewrites), then asserts
 *
 *   models differ ⇒ at least one finding (consequences included);  models equal ⇒ none.
 *
 * "Models differ" compares canonicalModel() of both sides: the ContractModel as JSON with sorted
 * keys, without source locations (`loc`), with set-like lists sorted (see mutate.mjs). A mutation
 * that makes the contract invalid (an error diagnostic) is discarded and another seed is tried.
 *
 * One test per mutation kind, so a run shows every kind that is silent, each with its first
 * counterexample: file, mutation kind, JSON pointer, value before and after, and the seed.
 * NOTHING_SILENT_RUNS=<n> changes the runs per kind (default 6); scripts/silent-report.mjs prints
 * the whole table.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { parseContractText } from "../../src/contract/parse.js";
// @ts-expect-error plain JavaScript module shared with scripts/silent-report.mjs
import { KINDS, applies, canonicalModel, checkCase, describeCase, loadCorpus, mutate } from "./mutate.mjs";

interface Kind {
  name: string;
  group: "schema" | "contract" | "noop";
}
interface CaseResult {
  status: "n/a" | "invalid" | "differ" | "equal" | "silent" | "false";
  differ?: boolean;
  findings?: string[];
}

const RUNS = Number(process.env.NOTHING_SILENT_RUNS ?? 6);
/** Seeds tried per run until one gives a valid contract. */
const ATTEMPTS = 4;
const metaValid = new Set<string>();
const engine = {
  parse: (path: string, text: string) => parseContractText(path, text, { checkBudget: false, metaValid }),
  diff: runDiff,
  allFindings,
};
const corpus = loadCorpus(engine) as Array<{ file: string; doc: unknown; text: string }>;
const kinds = KINDS as Kind[];
const counts = new Map<string, Record<string, number>>();

/** The corpus files where the kind has a place to mutate. */
function applicable(kind: Kind) {
  return corpus.filter((entry) => [1, 2].some((seed) => applies(entry.doc, kind, seed)));
}

describe("the diff is never silent", () => {
  it("reads every contract of specs/ and examples/ and every rule fixture", () => {
    expect(corpus.filter((e) => e.file.startsWith("specs/")).length).toBeGreaterThanOrEqual(5);
    expect(corpus.filter((e) => e.file.startsWith("test/diff/rules/")).length).toBeGreaterThan(200);
  });

  it.each(kinds.map((k) => [k.name, k] as const))("%s: models differ ⇒ a finding; equal ⇒ none", (_name, kind) => {
    const files = applicable(kind);
    expect(files.length, `no contract has a place for ${kind.name}`).toBeGreaterThan(0);
    const tally: Record<string, number> = { tried: 0, invalid: 0, differ: 0, equal: 0 };
    counts.set(kind.name, tally);
    fc.assert(
      fc.property(fc.nat({ max: files.length - 1 }), fc.nat({ max: 1_000_000 }), (index, seed) => {
        for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
          const r = checkCase(engine, files[index]!, kind, seed + attempt * 1_000_003) as CaseResult;
          if (r.status === "n/a") continue;
          tally.tried!++;
          if (r.status === "invalid") {
            tally.invalid!++;
            continue;
          }
          tally[r.differ ? "differ" : "equal"]!++;
          if (kind.group === "noop" && r.differ) throw new Error(`a no-op rewrite changed the model\n${describeCase({ ...r, status: "false" })}`);
          if (r.status === "silent" || r.status === "false") throw new Error(describeCase(r));
          return;
        }
      }),
      // Seeded: every run tries the same mutations. No shrinking: the mutation is already one edit.
      { seed: 24, numRuns: RUNS, endOnFailure: true },
    );
  });

  it("no-op rewrites (reformatting, mapping keys reordered, set-like lists reordered) keep the model and give no finding", () => {
    const noops = kinds.filter((k) => k.group === "noop");
    fc.assert(
      fc.property(fc.nat({ max: corpus.length - 1 }), fc.constantFrom(...noops), fc.nat({ max: 1_000_000 }), (index, kind, seed) => {
        const entry = corpus[index]!;
        const mutated = mutate(entry.doc, kind, seed) as { text: string; mutation: unknown } | null;
        if (mutated === null) return;
        const before = engine.parse(entry.file, entry.text);
        const after = engine.parse(entry.file, mutated.text);
        expect(after.diagnostics.filter((d) => d.severity === "error"), `${entry.file} ${kind.name} seed ${seed}`).toEqual([]);
        expect(canonicalModel(after.model), `${entry.file} ${kind.name} seed ${seed}: the model changed`).toBe(canonicalModel(before.model));
        const report = runDiff({ model: before.model!, source: before.source, label: entry.file }, { model: after.model!, source: after.source, label: entry.file });
        expect(allFindings(report.findings).map((f) => `${f.rule}: ${f.message}`), `${entry.file} ${kind.name} seed ${seed}`).toEqual([]);
      }),
      { seed: 24, numRuns: 30, endOnFailure: true },
    );
  });

  afterAll(() => {
    const total = [...counts.values()].reduce((t, c) => ({ tried: t.tried + c.tried!, invalid: t.invalid + c.invalid!, differ: t.differ + c.differ!, equal: t.equal + c.equal! }), { tried: 0, invalid: 0, differ: 0, equal: 0 });
    console.log(`nothing-silent: ${corpus.length} contracts, ${counts.size} kinds, ${total.tried} mutations tried, ${total.invalid} invalid (discarded), ${total.differ} changed the model, ${total.equal} did not`);
  });
});
