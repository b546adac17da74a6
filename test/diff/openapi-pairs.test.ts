/**
 * The diff as a review gate on OpenAPI documents changed the way teams change them (issue 40):
 * test/diff/openapi-pairs/<harmless|breaking>/<case>/{base,revision}.yaml, each file opening with a
 * comment that says what changed. Both sides are OpenAPI documents, imported in memory as
 * `contractgen diff` reads them, judged on a fixed date (sunsets are judged by the date the diff runs
 * when a document gives no release date).
 *
 * - harmless: no breaking finding (consequences included: a CLI flag under an input counts), no
 *   finding of a fallback rule (a change nobody judged is a warning a reviewer must clear by hand),
 *   and at least one finding (the documents differ: nothing silent);
 * - breaking: the rules named in BREAKING_BY report a breaking finding.
 *
 * A case the diff still gets wrong is listed in KNOWN_WRONG with the reason, and runs as it.fails.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { diffFacts, openContract } from "../../src/import/open.js";

const DIR = "test/diff/openapi-pairs";
/** The day the pairs are judged on: x-sunset dates in the corpus lie on both sides of it. */
const TODAY = "2026-12-07";
const FALLBACK_RULES = new Set(["contract-field-changed", "schema-keyword-changed"]);

/** What each breaking case must be reported as. */
const BREAKING_BY: Readonly<Record<string, readonly string[]>> = {
  "body-closed-to-unevaluated": ["input-additional-properties-closed"],
  "body-dependent-required-added": ["input-constraint-tightened"],
  "body-dependent-schema-added": ["input-constraint-tightened"],
  "empty-pattern-filled": ["input-pattern-added"],
  "extensible-enum-value-removed-from-request": ["input-extensible-enum-value-removed"],
  "json-body-property-declared-text": ["input-property-type-narrowed"],
  "operation-removed-before-sunset": ["operation-removed-before-sunset"],
  "parameter-removed-before-sunset": ["input-property-removed-before-sunset"],
  "path-parameter-replaced": ["http-path-changed"],
  "request-conditional-added": ["input-constraint-tightened"],
  "request-media-type-removed": ["request-media-type-removed"],
  "response-media-type-removed": ["output-media-type-removed"],
  "response-wrapped-in-oneof": ["output-schema-widened"],
  "shared-type-under-alpha-and-stable": ["output-property-became-optional"],
  "stability-decreased": ["operation-stability-decreased"],
  "stable-parameter-removed": ["input-property-removed"],
  "text-response-const-changed": ["output-constraint-loosened"],
  "tuple-item-type-changed": ["input-property-type-changed"],
  "webhook-payload-property-removed": ["output-property-removed"],
  "webhook-payload-type-property-removed": ["output-property-removed"],
  "webhook-removed": ["webhook-removed"],
};

const KNOWN_WRONG: Readonly<Record<string, string>> = {
};

const cases = (kind: string) => readdirSync(join(DIR, kind), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

async function findings(kind: string, name: string) {
  const [base, revision] = await Promise.all(["base.yaml", "revision.yaml"].map((f) => openContract(join(DIR, kind, name, f))));
  for (const side of [base!, revision!]) expect(side.diagnostics.filter((d) => d.severity === "error"), `${kind}/${name}`).toEqual([]);
  const report = runDiff(
    { model: base!.model!, source: base!.source, label: "base.yaml", ...diffFacts(base!) },
    { model: revision!.model!, source: revision!.source, label: "revision.yaml", ...diffFacts(revision!) },
    { today: TODAY },
  );
  return allFindings(report.findings);
}

describe("OpenAPI document pairs", () => {
  describe("harmless changes", () => {
    for (const name of cases("harmless")) {
      const test = KNOWN_WRONG[name] ? it.fails : it;
      test(`${name}: nothing breaking, nothing left to the fallback, something reported`, async () => {
        const all = await findings("harmless", name);
        const shown = all.map((f) => `${f.severity} ${f.rule}: ${f.message}`).join("\n");
        expect(all.filter((f) => f.severity === "breaking"), shown).toEqual([]);
        expect(all.filter((f) => FALLBACK_RULES.has(f.rule)), shown).toEqual([]);
        expect(all.length).toBeGreaterThan(0);
      });
    }
  });

  describe("breaking changes", () => {
    it("every case names the rules it must be reported by", () => {
      expect(cases("breaking")).toEqual(Object.keys(BREAKING_BY).sort());
    });
    for (const name of cases("breaking")) {
      it(`${name}: reported breaking by ${(BREAKING_BY[name] ?? []).join(", ")}`, async () => {
        const all = await findings("breaking", name);
        const breaking = new Set(all.filter((f) => f.severity === "breaking").map((f) => f.rule));
        for (const rule of BREAKING_BY[name] ?? []) expect([...breaking], all.map((f) => `${f.severity} ${f.rule}`).join("\n")).toContain(rule);
      });
    }
  });
});
