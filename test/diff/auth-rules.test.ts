/**
 * The auth rules beyond their fixtures: adding a credential requirement is breaking, removing one
 * is info (never auth-scheme-changed), and what counts is what travels on the wire, not scheme names.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { parseContractText } from "../../src/contract/parse.js";

const BASE = readFileSync("test/diff/rules/auth-scheme-changed/base.yaml", "utf8");
const BEARER = "  auth: { type: bearer, tokenEnv: SHOP_TOKEN }\n";

function withAuth(auth: string, version = "1.0.0"): string {
  const text = BASE.replace(BEARER, auth);
  return version === "1.0.0" ? text : text.replace("version: 1.0.0\nchangelog:\n", `version: ${version}\nchangelog:\n  - { version: ${version}, date: 2026-02-01, summary: Credentials changed. }\n`);
}

function findings(before: string, after: string) {
  const a = parseContractText("before.yaml", before, { checkBudget: false });
  const b = parseContractText("after.yaml", after, { checkBudget: false });
  expect(a.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(b.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const report = runDiff({ model: a.model!, source: a.source, label: "before.yaml" }, { model: b.model!, source: b.source, label: "after.yaml" });
  return allFindings(report.findings)
    .filter((f) => f.rule.startsWith("auth-"))
    .map((f) => [f.rule, f.severity, f.operation, f.message]);
}

/** Every breaking finding, of any rule. */
function breaking(before: string, after: string) {
  const a = parseContractText("before.yaml", before, { checkBudget: false });
  const b = parseContractText("after.yaml", after, { checkBudget: false });
  const report = runDiff({ model: a.model!, source: a.source, label: "before.yaml" }, { model: b.model!, source: b.source, label: "after.yaml" });
  return allFindings(report.findings).filter((f) => f.severity === "breaking").map((f) => [f.rule, f.message]);
}

const SCHEMES = (require: string) => `  auth:
    schemes:
      key: { type: apiKey, in: header, name: X-Api-Key, tokenEnv: SHOP_API_KEY }
      oauth: { type: bearer, tokenEnv: SHOP_TOKEN }
    require: ${require}
`;

describe("auth rules", () => {
  it("removing auth is info (auth-removed), not a breaking auth-scheme-changed", () => {
    expect(findings(BASE, withAuth("", "1.1.0"))).toEqual([["auth-removed", "info", null, "Requests no longer need a credential."]]);
    expect(findings(BASE, withAuth("  auth: { type: none }\n", "1.1.0"))).toEqual([["auth-removed", "info", null, "Requests no longer need a credential."]]);
  });

  it("removing an API key or named schemes entirely is info too, and nothing about it is breaking", () => {
    const KEY = "  auth: { type: apiKey, header: X-Api-Key, tokenEnv: SHOP_API_KEY }\n";
    for (const [before, after] of [
      [KEY, ""],
      [KEY, "  auth: { type: none }\n"],
      [SCHEMES("[[key], [oauth]]"), ""],
      [SCHEMES("[[key, oauth]]"), "  auth: { type: none }\n"],
    ] as const) {
      expect(findings(withAuth(before), withAuth(after, "1.1.0")), `${before} → ${after || "(absent)"}`).toEqual([["auth-removed", "info", null, "Requests no longer need a credential."]]);
      expect(breaking(withAuth(before), withAuth(after, "1.1.0"))).toEqual([]);
    }
  });

  it("adding auth where there was none is breaking (auth-credential-required)", () => {
    expect(findings(withAuth(""), withAuth(BEARER, "2.0.0"))).toEqual([["auth-credential-required", "breaking", null, 'Requests now need "bearer token": none was needed before.']]);
  });

  it("dropping an alternative is breaking; adding one is not", () => {
    expect(findings(withAuth(SCHEMES("[[key], [oauth]]")), withAuth(SCHEMES("[[key]]"), "2.0.0"))).toEqual([
      ["auth-credential-required", "breaking", null, 'Requests now need "API key in header x-api-key": callers with only the credentials required before are refused.'],
    ]);
    expect(findings(withAuth(SCHEMES("[[key]]")), withAuth(SCHEMES("[[key], [oauth]]"), "1.1.0"))).toEqual([]);
  });

  it("the single bearer form and a named bearer scheme are the same credential", () => {
    expect(findings(BASE, withAuth(SCHEMES("[[oauth]]"), "1.0.1"))).toEqual([]);
  });

  it("a scheme sent together with another one is breaking", () => {
    expect(findings(withAuth(SCHEMES("[[oauth]]")), withAuth(SCHEMES("[[oauth, key]]"), "2.0.0"))).toEqual([
      ["auth-credential-required", "breaking", null, 'Requests now need "API key in header x-api-key": callers with only the credentials required before are refused.'],
    ]);
  });
});
