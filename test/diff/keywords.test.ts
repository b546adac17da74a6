/**
 * One fixture per schema keyword × position × direction: test/diff/keywords/<keyword>-<input|output>-<narrowed|widened|changed>/
 * {base,revision}.yaml (written by scripts/keyword-fixtures.mjs) and expected.json, every finding of
 * the pair (rule, severity, message, line:col on both sides) except the version rules: both sides
 * keep version 1.0.0 so that no changelog entry is needed (one would add a finding to every pair).
 *
 * Two checks per directory: the findings equal expected.json, and a check read from the directory
 * name alone, independent of expected.json:
 * - input-narrowed: at least one breaking finding (calls that were valid can fail);
 * - input-widened: no breaking finding, and at least one finding (nothing silent);
 * - output-widened: at least one breaking or warning finding (consumers see values they were not promised);
 * - output-narrowed: no breaking and no warning finding, and at least one finding;
 * - input-changed / output-changed: at least one breaking / breaking-or-warning finding.
 *
 * A case the diff gets wrong stays, marked `it.fails` below with the reason: fix the diff, then
 * drop the mark (vitest reports a marked case that passes).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { RULES } from "../../src/diff/rules/index.js";
import { parseContract } from "../../src/contract/parse.js";

const DIR = "test/diff/keywords";
const dirs = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

/** expected.json leaves out a finding the diff reports but should not: the exact check fails until the diff is fixed. */
const EXACT_FAILS: Readonly<Record<string, string>> = {};

/**
 * Where a rule judges the change in another direction than the fixture's name, on purpose. Findings
 * about derived surfaces (category "surface": a CLI flag that cannot carry a union type, the MCP
 * output-schema notice for strict clients) have their own semantics and are not direction checks.
 */
const SEMANTIC_FAILS: Readonly<Record<string, string>> = {
  // output-optional-property-removed (warning) for an optional property removed from a closed output
  // object: every new value was valid before, but consumers that use the property lose its data.
  "properties-output-narrowed": "an optional output property removed is a warning for readers, whatever validation says",
  // output-property-added (info) for a property added to a closed output object: readers ignore what
  // they do not read; clients that validate strictly get the MCP surface notice (mcp-output-schema-changed).
  "properties-output-widened": "an output property added is compatible for readers",
};

interface Row {
  rule: string;
  severity: string;
  message: string;
  old: string | null;
  new: string | null;
}

function findings(dir: string): Row[] {
  const [base, revision] = ["base.yaml", "revision.yaml"].map((f) => {
    const parsed = parseContract(join(DIR, dir, f), { checkBudget: false });
    expect(parsed.diagnostics.filter((d) => d.severity === "error"), `${dir}/${f}`).toEqual([]);
    return { model: parsed.model!, source: parsed.source, label: join(DIR, dir, f) };
  });
  const report = runDiff(base!, revision!);
  return allFindings(report.findings)
    .filter((f) => !f.rule.startsWith("version-"))
    .map((f) => ({ rule: f.rule, severity: f.severity, message: f.message, old: f.old ? `${f.old.line}:${f.old.col}` : null, new: f.new ? `${f.new.line}:${f.new.col}` : null }));
}

/**
 * Rules about derived surfaces (CLI flags, the MCP output-schema notice): see SEMANTIC_FAILS. The SDK
 * source rules (category "sdk") judge the generated TypeScript, not the wire, and are left out of the
 * direction check too: a removed output literal narrows the wire and breaks `status === "x"`.
 */
const SURFACE_RULES: ReadonlySet<string> = new Set(RULES.filter((r) => r.category === "surface" || r.category === "sdk").map((r) => r.id));

function checkDirection(dir: string, rows: readonly Row[]): void {
  const m = /-(input|output)-(narrowed|widened|changed)$/.exec(dir);
  expect(m, `${dir}: name must end in -<input|output>-<narrowed|widened|changed>`).not.toBeNull();
  const [, position, direction] = m!;
  rows = rows.filter((r) => !SURFACE_RULES.has(r.rule));
  const breaking = rows.filter((r) => r.severity === "breaking");
  const warning = rows.filter((r) => r.severity === "warning");
  const shown = JSON.stringify(rows, null, 2);
  if (position === "input" && direction !== "widened") expect(breaking.length, `${dir}: a narrowed or changed input is breaking\n${shown}`).toBeGreaterThan(0);
  if (position === "input" && direction === "widened") {
    expect(breaking, `${dir}: a widened input breaks no call`).toEqual([]);
    expect(rows.length, `${dir}: a widened input is reported`).toBeGreaterThan(0);
  }
  if (position === "output" && direction !== "narrowed") expect(breaking.length + warning.length, `${dir}: a widened or changed output is breaking or a warning\n${shown}`).toBeGreaterThan(0);
  if (position === "output" && direction === "narrowed") {
    expect([...breaking, ...warning], `${dir}: a narrowed output shows consumers nothing new`).toEqual([]);
    expect(rows.length, `${dir}: a narrowed output is reported`).toBeGreaterThan(0);
  }
}

describe("keyword × position × direction fixtures", () => {
  it("has fixtures", () => expect(dirs.length).toBeGreaterThan(100));

  for (const dir of dirs) {
    describe(dir, () => {
      (dir in EXACT_FAILS ? it.fails : it)("reports exactly expected.json", () => {
        const expected = JSON.parse(readFileSync(join(DIR, dir, "expected.json"), "utf8")) as Row[];
        expect(findings(dir)).toEqual(expected);
      });
      (dir in SEMANTIC_FAILS ? it.fails : it)("judges the change in the direction its name says", () => {
        checkDirection(dir, findings(dir));
      });
    });
  }
});
