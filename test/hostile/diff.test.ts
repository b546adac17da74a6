/** Behaviour fidelity of the semantic diff: what it compares, how much it says, and where it points. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { allFindings, type DiffConfig, runDiff } from "../../src/diff/engine.js";
import type { Finding } from "../../src/diff/rule.js";
import { RULES } from "../../src/diff/rules/index.js";
import { parseContract, parseContractText } from "../../src/contract/parse.js";

const BIN = resolve("bin/contractgen.js");
const tmp = mkdtempSync(join(tmpdir(), "contractgen-hostile-diff-"));
const fixture = (id: string) => [`test/diff/rules/${id}/base.yaml`, `test/diff/rules/${id}/revision.yaml`] as const;

function diffFiles(basePath: string, revisionPath: string, config: DiffConfig = {}) {
  const a = parseContract(basePath, { checkBudget: false });
  const b = parseContract(revisionPath, { checkBudget: false });
  expect([...a.diagnostics, ...b.diagnostics].filter((d) => d.severity === "error")).toEqual([]);
  return runDiff({ model: a.model!, source: a.source, label: basePath }, { model: b.model!, source: b.source, label: revisionPath }, config);
}

/** The revision with its YAML text rewritten, parsed under its own path (so locations still point into it). */
function diffEdited(basePath: string, revisionPath: string, edit: (text: string) => string, config: DiffConfig = {}) {
  const a = parseContract(basePath, { checkBudget: false });
  const b = parseContractText(revisionPath, edit(readFileSync(revisionPath, "utf8")), { checkBudget: false });
  expect([...a.diagnostics, ...b.diagnostics].filter((d) => d.severity === "error")).toEqual([]);
  return runDiff({ model: a.model!, source: a.source, label: basePath }, { model: b.model!, source: b.source, label: revisionPath }, config);
}

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "diff", ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const rules = (findings: readonly Finding[]) => findings.map((f) => f.rule);

describe("12. everything an operation returns is compared", () => {
  it("billing v1 → v2: the preview's amount going dollars → cents is seen, and its changelog entry matches it", () => {
    const report = diffFiles("specs/billing.v1.yaml", "specs/billing.v2.yaml");
    // RefundPreview is a shared type: its change is reported under the type's finding.
    const preview = allFindings(report.findings).find((f) => f.rule === "output-unit-changed" && f.message.includes("preview output"));
    expect(preview?.message).toBe('The unit of preview output "amount" of type "RefundPreview" (used by "refund_invoice") changed from "dollars" to "cents".');
    expect(report.findings.find((f) => f.consequences.includes(preview!))).toMatchObject({ rule: "shared-type-changed", operations: ["refund_invoice"] });
    expect(preview?.new?.pointer).toBe("/types/RefundPreview/properties/amount/x-unit");
    expect(rules(allFindings(report.findings))).not.toContain("changelog-entry-unmatched");
  });

  it("a property removed from a preview output is reported as such", () => {
    const [base, revision] = fixture("output-unit-changed");
    const report = diffEdited(base, revision, (t) => t.replace("refund: { type: integer, x-unit: dollars }, ", "").replace(/      - \{ kind: unit, target: \/operations\/cancel_order\/preview.*\n/, ""));
    expect(report.findings.map((f) => f.message)).toContain('Optional preview output property "refund" of "cancel_order" was removed.');
  });
});

describe("13. the version policy counts only changes a consumer can observe", () => {
  it("a catalogue over its budget is breaking but does not ask for a major version", () => {
    const [base, revision] = fixture("budget-catalog-tokens-exceeded");
    const report = diffEdited(base, revision, (t) => t.replace("version: 2.0.0\n", "version: 1.1.0\n").replace("{ version: 2.0.0,", "{ version: 1.1.0,"));
    expect(rules(report.findings)).toContain("budget-catalog-tokens-exceeded");
    expect(rules(report.findings)).not.toContain("version-major-bump-required");
  });

  it("which categories count is data on the category, documented in docs/diff-rules.md", async () => {
    const { CATEGORIES } = await import("../../src/diff/rule.js");
    expect(CATEGORIES.budget.observable).toBe(false);
    expect(CATEGORIES.input.observable).toBe(true);
    expect(readFileSync("docs/diff-rules.md", "utf8")).toMatch(/\| budget \| \d+ \| \d+ \| \d+ \| \d+ \| no \|/);
  });
});

describe("14. no noise", () => {
  it("(a) an open output's change is no MCP output-schema notice, unless clients validate strictly", () => {
    const [base, revision] = fixture("output-property-added");
    expect(rules(allFindings(diffFiles(base, revision).findings))).not.toContain("mcp-output-schema-changed");
    const strict = allFindings(diffFiles(base, revision, { strictOutputValidation: true }).findings);
    expect(rules(strict)).toContain("mcp-output-schema-changed");
  });

  it("(a) strict validation is declared in the config file, as a boolean", async () => {
    const { loadDiffConfig, ConfigError } = await import("../../src/diff/config.js");
    const ok = join(tmp, "strict.yaml");
    writeFileSync(ok, "strictOutputValidation: true\n");
    expect(loadDiffConfig(ok, RULES).strictOutputValidation).toBe(true);
    const bad = join(tmp, "strict-bad.yaml");
    writeFileSync(bad, "strictOutputValidation: yes please\n");
    expect(() => loadDiffConfig(bad, RULES)).toThrow(ConfigError);
  });

  it("(b) a derived MCP annotation change is a consequence of the effect change, not a line of its own", () => {
    const report = diffFiles(...fixture("effect-destructive-added"));
    expect(rules(report.findings)).not.toContain("mcp-annotation-changed");
    const effect = report.findings.find((f) => f.rule === "effect-destructive-added");
    expect(rules(effect!.consequences)).toContain("mcp-annotation-changed");
  });

  it("(b) a CLI flag lost with its input property is a consequence of the removal", () => {
    const report = diffFiles(...fixture("input-property-removed"));
    expect(rules(report.findings)).not.toContain("cli-flag-removed");
    expect(report.findings.filter((f) => f.rule === "input-property-removed").flatMap((f) => rules(f.consequences))).toContain("cli-flag-removed");
  });

  it("(b) the changelog duty of a unit change is reported under it, and the text report indents it", () => {
    const [base, revision] = fixture("output-unit-changed");
    const report = diffEdited(base, revision, (t) => t.replace(/    changes:\n(      - .*\n)+/, ""));
    expect(rules(report.findings)).not.toContain("changelog-entry-missing");
    expect(report.findings.filter((f) => f.rule === "output-unit-changed").every((f) => rules(f.consequences).includes("changelog-entry-missing"))).toBe(true);
    const text = cli(base, revision).stdout;
    expect(text).not.toMatch(/^  breaking \[changelog-entry-missing\]/m);
  });

  it("(c) a change to a shared type is reported once, listing the operations it reaches", () => {
    const report = diffFiles(...fixture("output-unit-changed"));
    const total = allFindings(report.findings).filter((f) => f.rule === "output-unit-changed" && f.message.includes('"total"'));
    expect(total).toHaveLength(1);
    expect(total[0]).toMatchObject({ operation: null, operations: ["cancel_order", "list_orders", "update_note"] });
    expect(total[0]!.message).toBe('The unit of output "total" of type "Order" (used by 3 operations) changed from "cents" to "dollars".');
    // On the type: one finding for all of Order's changes, with the operations it reaches.
    const order = report.findings.filter((f) => f.rule === "shared-type-changed" && f.type?.name === "Order");
    expect(order).toHaveLength(1);
    expect(order[0]!.consequences).toContain(total[0]);
    expect(order[0]!.operations).toEqual(["cancel_order", "list_orders", "update_note"]);
  });

  it("(c) an input shared type too, and the MCP notices of every tool go under the one finding", () => {
    const report = diffFiles(...fixture("mcp-output-schema-changed"));
    const added = allFindings(report.findings).filter((f) => f.rule === "output-property-added" && f.message.includes('"currency"'));
    expect(added).toHaveLength(1);
    expect(rules(report.findings)).not.toContain("mcp-output-schema-changed");
    // One notice for the type, naming every tool it reaches (not one per tool), under the type's finding
    // (beside the property added, the type's maxLength was raised: the notice follows the first of them).
    const group = report.findings.find((f) => f.rule === "shared-type-changed" && f.type?.name === "Order");
    const notices = allFindings(group!.consequences).filter((c) => c.rule === "mcp-output-schema-changed");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.operations).toEqual(["cancel_order", "list_orders"]);
  });

  it("(d) policy findings sort after the changes they are about", () => {
    const report = diffFiles(...fixture("version-major-bump-required"));
    const i = report.findings.findIndex((f) => f.rule === "version-major-bump-required");
    expect(i).toBeGreaterThanOrEqual(0);
    expect(report.findings.slice(i).every((f) => RULES.find((r) => r.id === f.rule)?.phase === "policy")).toBe(true);
    expect(i).toBeGreaterThan(0);
  });

  it("(e) a changed input default is as severe as a flipped dry-run default", () => {
    const severity = (id: string) => RULES.find((r) => r.id === id)!.severity;
    expect(severity("input-default-changed")).toBe(severity("preview-dry-run-default-flipped"));
    expect(readFileSync("docs/diff-rules.md", "utf8")).toContain("`input-default-changed`, the same kind of change");
  });

  it("(e) flipping the dry-run default (schema and preview together) is one finding, not two", () => {
    const report = diffFiles(...fixture("preview-dry-run-default-flipped"));
    expect(rules(allFindings(report.findings))).not.toContain("input-default-changed");
  });
});

describe("15. loosened input constraints are visible", () => {
  it.each([
    "input-maximum-raised",
    "input-minimum-lowered",
    "input-max-length-raised",
    "input-min-length-lowered",
    "input-max-items-raised",
    "input-min-items-lowered",
    "input-pattern-removed",
    "input-additional-properties-opened",
  ])("%s is an info rule", (id) => {
    expect(RULES.find((r) => r.id === id)?.severity).toBe("info");
    expect(rules(diffFiles(...fixture(id)).findings)).toContain(id);
  });
});

describe("16. locations a tool can use", () => {
  it("a required name is addressed by index and located at the item", () => {
    const report = diffFiles(...fixture("output-property-became-optional"));
    const f = allFindings(report.findings).find((x) => x.rule === "output-property-became-optional" && x.message.includes("Order"))!;
    expect(f.old?.pointer).toBe("/types/Order/required/2");
    const line = readFileSync(fixture("output-property-became-optional")[0], "utf8").split("\n")[f.old!.line - 1]!;
    expect(line.slice(f.old!.col - 1)).toMatch(/^total\b/);
  });

  it("an enum value and an operation's error code are addressed by index", () => {
    const enumRemoved = diffFiles(...fixture("input-enum-value-removed")).findings.find((f) => f.rule === "input-enum-value-removed")!;
    expect(enumRemoved.old?.pointer).toMatch(/\/enum\/\d+$/);
    const errorAdded = diffFiles(...fixture("operation-error-added")).findings.find((f) => f.rule === "operation-error-added")!;
    expect(errorAdded.new?.pointer).toMatch(/\/errors\/\d+$/);
  });

  it("GitHub annotations of removed things attach to the new file at the nearest surviving parent, relative to the repository root", () => {
    const [base, revision] = fixture("input-property-removed");
    const lines = cli(resolve(base), resolve(revision), "--format", "github").stdout.trim().split("\n");
    const removed = lines.filter((l) => l.includes("title=input-property-removed"));
    expect(removed.length).toBeGreaterThan(0);
    for (const l of removed) expect(l).toMatch(new RegExp(`file=${revision.replace(/[.]/g, "\\.")},line=\\d+,col=\\d+`));
  });

  it("GitHub annotations name the file of a git side by its path from the repository root", () => {
    const [base, revision] = fixture("input-property-removed");
    const out = cli(base, `HEAD:${revision}`, "--format", "github").stdout;
    expect(out).toContain(`file=${revision},`);
    expect(out).not.toContain("file=HEAD");
  });

  it("GitHub annotations of a file outside the repository are relative to the repository root too", () => {
    const copy = join(tmp, "revision.yaml");
    writeFileSync(copy, readFileSync(fixture("input-property-removed")[1], "utf8"));
    const out = cli(fixture("input-property-removed")[0], copy, "--format", "github").stdout;
    expect(out).toMatch(/file=(\.\.\/)+[^,]*revision\.yaml,/);
  });

  it("the Markdown report shows both sides with line and column", () => {
    const md = cli("specs/billing.v1.yaml", "specs/billing.v2.yaml", "--format", "markdown").stdout;
    expect(md).toMatch(/was `specs\/billing\.v1\.yaml:\d+:\d+`<br>now `specs\/billing\.v2\.yaml:\d+:\d+`/);
  });
});
