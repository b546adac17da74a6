/**
 * The diff rules about the generated Agent Skill (skill-listing-changed, skill-body-changed,
 * budget-skill-tokens-exceeded) beyond their fixtures: they count tokens as `contractgen budget`
 * does, and they do not report what changes the emitted text without changing what it says (a new
 * version, operations reordered in the document).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { skillTokens } from "../../src/budget/skill.js";
import { parseContractText } from "../../src/contract/parse.js";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { bodyTokens, cutLine, lineChange, listingTokens } from "../../src/diff/rules/_skill.js";
import { skillBody } from "../../src/emit/skill/skill.js";

const BASE = readFileSync("test/diff/rules/budget-catalog-tokens-exceeded/base.yaml", "utf8");
const SKILL_RULES = new Set(["skill-listing-changed", "skill-body-changed", "budget-skill-tokens-exceeded"]);

function parse(text: string, file = "contract.yaml") {
  const r = parseContractText(file, text, { checkBudget: false });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r;
}

function skillFindings(before: string, after: string) {
  const a = parse(before, "old.yaml");
  const b = parse(after, "new.yaml");
  const report = runDiff({ model: a.model!, source: a.source, label: "old.yaml" }, { model: b.model!, source: b.source, label: "new.yaml" });
  return allFindings(report.findings).filter((f) => SKILL_RULES.has(f.rule)).map((f) => `${f.rule}: ${f.message}`);
}

/** The fixture contract at another version, with its changelog entry. */
function bumped(text: string, version: string): string {
  return text.replace("version: 1.0.0\nchangelog:\n", `version: ${version}\nchangelog:\n  - { version: ${version}, date: 2026-02-01, summary: Bumped. }\n`);
}

/** The same contract with its operations written in the reverse order. */
function operationsReversed(text: string): string {
  const [head, ops] = text.split(/^operations:\n/m) as [string, string];
  const blocks = ops.split(/^(?=  \S)/m);
  return `${head}operations:\n${blocks.reverse().map((b) => (b.endsWith("\n") ? b : `${b}\n`)).join("")}`;
}

describe("skill rules", () => {
  it("count the listing and the body as contractgen budget does", () => {
    for (const [file, text] of [["base", BASE], ["billing", readFileSync("specs/billing.v2.yaml", "utf8")]] as const) {
      const model = parse(text, file).model!;
      expect(listingTokens(model), file).toBe(skillTokens(model).listing.o200k_base);
      expect(bodyTokens(model), file).toBe(skillTokens(model).body.o200k_base);
    }
  });

  it("do not report a new version alone (the version rules judge it), whether or not the skill names it", () => {
    expect(skillFindings(BASE, bumped(BASE, "1.1.0"))).toEqual([]);
    expect(skillFindings(BASE, bumped(BASE, "10.0.0"))).toEqual([]);
  });

  it("do not report operations reordered in the document, though the skill lists them in that order", () => {
    const reordered = operationsReversed(BASE);
    expect(skillBody(parse(reordered).model!)).not.toBe(skillBody(parse(BASE).model!));
    expect(skillFindings(BASE, reordered)).toEqual([]);
  });

  it("report a summary changed in a reordered document once, quoting the changed line", () => {
    const changed = operationsReversed(BASE).replace("summary: List orders, a bounded page at a time.", 'summary: "List \\"open\\" orders."');
    const found = skillFindings(BASE, changed);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^skill-body-changed: The skill's body changed \(1 line added and 1 removed, first added ".*List \\"open\\" orders\.*"\): \d+ → \d+ tokens\.$/);
  });

  it("budget-skill-tokens-exceeded: an excess the old side had against the same cap is not reported again, even reordered; growth is", () => {
    const capped = BASE.replace("budget: { catalogTokens: 4000, maxTools: 10 }", "budget: { catalogTokens: 4000, maxTools: 10, skill: { bodyTokens: 100 } }");
    expect(skillFindings(capped, capped)).toEqual([]);
    expect(skillFindings(capped, operationsReversed(capped))).toEqual([]);
    const grown = capped.replace("summary: Cancel an order and refund it, once.", "summary: Cancel an order and refund it, once, with the refund sent back to the card the order was paid with.");
    expect(skillFindings(capped, grown).filter((f) => f.startsWith("budget-skill-tokens-exceeded"))).toEqual([
      expect.stringMatching(/^budget-skill-tokens-exceeded: The skill's body exceeded budget\.skill\.bodyTokens of 100: it takes \d+ tokens \(was \d+\)\.$/),
    ]);
    // A stricter cap than before is reported though nothing grew.
    const stricter = capped.replace("skill: { bodyTokens: 100 }", "skill: { bodyTokens: 90 }");
    expect(skillFindings(capped, stricter).filter((f) => f.startsWith("budget-skill-tokens-exceeded"))).toHaveLength(1);
  });

  it("lineChange counts lines as multisets, so a moved line is neither added nor removed", () => {
    expect(lineChange("a\nb\nc", "b\na\nc")).toEqual({ added: 0, removed: 0, first: null });
    expect(lineChange("a\nb\n\nc", "a\nB\n\n\nc\nd")).toEqual({ added: 3, removed: 1, first: { line: "B", side: "added" } });
    expect(lineChange("a\nb\nb", "a\nb")).toEqual({ added: 0, removed: 1, first: { line: "b", side: "removed" } });
  });

  it("cutLine keeps a quoted line to 100 characters", () => {
    expect(cutLine("x".repeat(100))).toBe("x".repeat(100));
    expect(cutLine("y".repeat(101))).toBe(`${"y".repeat(99)}…`);
  });
});
