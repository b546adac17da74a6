/**
 * A renamed operation is compared with its old self (issue 24): update_note becomes edit_note (same
 * HTTP method and path) and, in the same release, drops a success status and an output property and
 * requires a new input property. Besides operation-renamed, every change inside is reported under the
 * new id, located in the old file at the old operation.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { parseContract } from "../../src/contract/parse.js";

const DIR = "test/diff/rename-compared";

function diffFiles(basePath: string, revisionPath: string) {
  const [base, revision] = [basePath, revisionPath].map((p) => parseContract(p, { checkBudget: false }));
  expect([...base!.diagnostics, ...revision!.diagnostics].filter((d) => d.severity === "error")).toEqual([]);
  return runDiff({ model: base!.model!, source: base!.source, label: basePath }, { model: revision!.model!, source: revision!.source, label: revisionPath });
}

describe("a renamed operation", () => {
  const report = diffFiles(join(DIR, "base.yaml"), join(DIR, "revision.yaml"));
  const all = allFindings(report.findings);
  const row = (f: (typeof all)[number]) => ({
    rule: f.rule,
    severity: f.severity,
    operation: f.operation,
    message: f.message,
    old: f.old ? `${f.old.line}:${f.old.col} ${f.old.pointer}` : null,
    new: f.new ? `${f.new.line}:${f.new.col}` : null,
  });

  it("is reported once as a rename, with the derived tool name and command under it", () => {
    const renamed = report.findings.filter((f) => f.rule === "operation-renamed");
    expect(renamed.map(row)).toEqual([
      {
        rule: "operation-renamed",
        severity: "breaking",
        operation: "update_note",
        message: 'Operation "update_note" was renamed to "edit_note" (same HTTP method and path).',
        old: "72:3 /operations/update_note",
        new: "74:3",
      },
    ]);
    expect(renamed[0]!.consequences.map((f) => f.rule).sort()).toEqual(["cli-command-renamed", "mcp-tool-name-changed", "sdk-method-removed"]);
    expect(all.filter((f) => f.rule === "operation-removed" || f.rule === "operation-added")).toEqual([]);
  });

  it("has what changed inside compared under the new id, located at the old operation in the old file", () => {
    const inside = report.findings.filter((f) => f.rule !== "operation-renamed" && f.category !== "version").map(row);
    expect(inside).toEqual([
      // The skill's command index names the command by the new id (its wording is the skill emitter's).
      {
        rule: "skill-body-changed",
        severity: "info",
        operation: null,
        message: expect.stringMatching(/^The skill's body changed \(1 line added and 1 removed, first added ".*`edit-note`.*"\): \d+ → \d+ tokens\.$/),
        old: expect.stringMatching(/^\d+:\d+ $/),
        new: expect.stringMatching(/^\d+:\d+$/),
      },
      {
        rule: "input-required-property-added",
        severity: "breaking",
        operation: "edit_note",
        message: 'Input property "reason" of "edit_note" was added as required.',
        old: null,
        new: "87:9",
      },
      {
        rule: "http-success-status-removed",
        severity: "warning",
        operation: "edit_note",
        message: '"edit_note" no longer succeeds with HTTP 202.',
        old: "75:77 /operations/update_note/http/successStatus/1",
        new: null,
      },
      {
        rule: "output-optional-property-removed",
        severity: "warning",
        operation: "edit_note",
        message: 'Optional output property "revision" of "edit_note" was removed.',
        old: "91:9 /operations/update_note/output/properties/revision",
        new: "88:5",
      },
      // A warning on the wire, but code that reads it no longer compiles against the new SDK.
      {
        rule: "sdk-property-removed",
        severity: "warning",
        operation: "edit_note",
        message: 'Output property "revision" of SDK method "updateNote()" was removed: code that reads "revision" no longer compiles.',
        old: "91:9 /operations/update_note/output/properties/revision",
        new: "88:5",
      },
    ]);
  });
});
