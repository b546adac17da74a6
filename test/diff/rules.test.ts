/**
 * Each rule's fixture: test/diff/rules/<rule-id>/{base,revision}.yaml and expected.json, the exact
 * findings of that rule — operation, message, and line:col on both sides (null where a side has
 * nothing to point at). Findings of other rules on the same pair are not this test's business.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { parseContract } from "../../src/contract/parse.js";

const DIR = "test/diff/rules";
const ruleDirs = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

interface Expected {
  operation: string | null;
  message: string;
  old: string | null;
  new: string | null;
}

export function diffFiles(basePath: string, revisionPath: string) {
  const base = parseContract(basePath, { checkBudget: false });
  const revision = parseContract(revisionPath, { checkBudget: false });
  expect(base.diagnostics.filter((d) => d.severity === "error"), basePath).toEqual([]);
  expect(revision.diagnostics.filter((d) => d.severity === "error"), revisionPath).toEqual([]);
  return runDiff({ model: base.model!, source: base.source, label: basePath }, { model: revision.model!, source: revision.source, label: revisionPath });
}

describe("diff rule fixtures", () => {
  it.each(ruleDirs)("%s reports exactly its expected findings", (id) => {
    const dir = join(DIR, id);
    expect(existsSync(join(dir, "expected.json")), `${dir}/expected.json`).toBe(true);
    const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected[];
    expect(expected.length, "a fixture must expect at least one finding").toBeGreaterThan(0);
    const report = diffFiles(join(dir, "base.yaml"), join(dir, "revision.yaml"));
    // Consequences count: they are reported under the finding they follow from.
    const actual = allFindings(report.findings)
      .filter((f) => f.rule === id)
      .map((f) => ({
        operation: f.operation,
        message: f.message,
        old: f.old ? `${f.old.line}:${f.old.col}` : null,
        new: f.new ? `${f.new.line}:${f.new.col}` : null,
      }));
    expect(actual).toEqual(expected);
  });
});
