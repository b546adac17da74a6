/**
 * allOf/anyOf/oneOf members are matched by identity (the type they reference, the value of their
 * discriminating property, their title, else their content and then their structure), never by
 * position: a member added or removed is one finding, an edited member is compared with itself.
 */
import { describe, expect, it } from "vitest";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { parseContractText } from "../../src/contract/parse.js";

function contract(payment: string[], input: string[] = ["      type: object", "      properties: {}"]): string {
  return [
    "contract: pay", "version: 1.0.0", "changelog:", "  - { version: 1.0.0, date: 2026-01-01 }",
    "transport:", '  http: { baseUrl: "http://127.0.0.1:1" }',
    "types:",
    "  Card:", "    type: object", "    required: [kind, last4]", "    properties:", "      kind: { const: card }", "      last4: { type: string }",
    "  Bank:", "    type: object", "    required: [kind, iban]", "    properties:", "      kind: { const: bank }", "      iban: { type: string }",
    "errors:", "  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }",
    "operations:",
    "  get_payment:", "    summary: Get a payment.", "    http: { method: POST, path: /payment }", "    effects: { kind: read }",
    "    input:", ...input,
    "    output:", "      type: object", "      properties:", "        method:", ...payment.map((l) => `          ${l}`),
    "    errors: [INVALID_FIELD]",
    "",
  ].join("\n");
}

function diff(before: string, after: string) {
  const a = parseContractText("old.yaml", before);
  const b = parseContractText("new.yaml", after);
  expect(a.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(b.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return allFindings(runDiff({ model: a.model!, source: a.source, label: "old.yaml" }, { model: b.model!, source: b.source, label: "new.yaml" }).findings).filter((f) => f.category !== "version");
}

const anonymous = (names: string[]) => names.flatMap((n) => [`  - type: object`, `    required: [${n}]`, `    properties: { ${n}: { type: string } }`]);

describe("combinator members are matched by identity", () => {
  it("inserting an anonymous member before the others is one finding, not a cascade", () => {
    const before = contract(["oneOf:", ...anonymous(["a", "b", "c"])]);
    const after = contract(["oneOf:", ...anonymous(["z", "a", "b", "c"])]);
    const findings = diff(before, after);
    expect(findings.map((f) => [f.rule, f.message])).toEqual([["output-schema-widened", 'Output "method" of "get_payment" gained oneOf member 0.']]);
    expect(findings[0]!.new).toMatchObject({ pointer: "/operations/get_payment/output/properties/method/oneOf/0" });
  });

  it("removing a member by reference is one finding on that member; reordering is none", () => {
    const before = contract(["anyOf:", '  - $ref: "#/types/Card"', '  - $ref: "#/types/Bank"']);
    const removed = diff(before, contract(["anyOf:", '  - $ref: "#/types/Bank"']));
    expect(removed.map((f) => [f.rule, f.severity, f.message])).toEqual([["output-constraint-tightened", "info", 'Output "method" of "get_payment" lost anyOf member 0 ($ref Card).']]);
    expect(removed[0]!.old).toMatchObject({ pointer: "/operations/get_payment/output/properties/method/anyOf" });
    expect(diff(before, contract(["anyOf:", '  - $ref: "#/types/Bank"', '  - $ref: "#/types/Card"']))).toEqual([]);
  });

  it("an anonymous member edited in place is compared with itself", () => {
    const before = contract(["oneOf:", ...anonymous(["a", "b"])]);
    const after = contract(["oneOf:", ...anonymous(["a"]), "  - type: object", "    required: [b]", "    properties: { b: { type: string, maxLength: 4 } }"]);
    const findings = diff(before, after);
    expect(findings.map((f) => [f.rule, f.message])).toEqual([["output-constraint-tightened", 'Output "method.b" of "get_payment" gained a maximum length of 4.']]);
  });

  it("members keyed by their discriminating constant match across a reorder and an edit", () => {
    const member = (kind: string, extra: string) => [`  - type: object`, `    properties: { kind: { const: ${kind} }, ${extra} }`];
    const before = contract(["oneOf:", ...member("card", "last4: { type: string }"), ...member("bank", "iban: { type: string }")]);
    const after = contract(["oneOf:", ...member("bank", "iban: { type: string }, bic: { type: string }"), ...member("card", "last4: { type: string }")]);
    const findings = diff(before, after);
    expect(findings.map((f) => [f.rule, f.message])).toEqual([["output-property-added", 'Output property "method.bic" of "get_payment" was added.']]);
  });

  it("an allOf member added to an input narrows it (breaking); an anyOf member added widens it (info)", () => {
    const input = (lines: string[]) => ["      type: object", "      properties:", "        method:", ...lines.map((l) => `          ${l}`)];
    const base = contract(["type: string"], input(["anyOf:", "  - { type: string, maxLength: 3 }", "  - { type: integer }"]));
    const widened = diff(base, contract(["type: string"], input(["anyOf:", "  - { type: string, maxLength: 3 }", "  - { type: integer }", "  - { type: boolean }"])));
    expect(widened.map((f) => [f.rule, f.severity])).toEqual([["input-constraint-loosened", "info"]]);
    const narrowed = diff(base, contract(["type: string"], input(["anyOf:", "  - { type: string, maxLength: 3 }", "  - { type: integer }", "allOf:", "  - { not: { const: 0 } }"])));
    expect(narrowed.map((f) => [f.rule, f.severity])).toEqual([["input-constraint-tightened", "breaking"]]);
  });

  it("a property moved from an object into one of its allOf members is not removed", () => {
    const before = contract(["type: object", "properties: { last4: { type: string }, kind: { type: string } }"]);
    const after = contract(["allOf:", '  - $ref: "#/types/Card"', "  - type: object", "    properties: { kind: { type: string } }"]);
    const findings = diff(before, after);
    expect(findings.filter((f) => f.rule.endsWith("property-removed") || f.rule.endsWith("property-added"))).toEqual([]);
    // Composition itself is still reported.
    expect(findings.map((f) => f.rule)).toContain("output-constraint-tightened");
  });

  it("a long union rewritten member by member is still paired member by member", () => {
    const union = (max: number) => ["anyOf:", ...Array.from({ length: 1200 }, (_, i) => `  - { type: object, required: [k${i}], properties: { k${i}: { type: string, maxLength: ${max} } } }`)];
    const findings = diff(contract(union(5)), contract(union(6)));
    expect(findings).toHaveLength(1200);
    expect(new Set(findings.map((f) => f.rule))).toEqual(new Set(["output-constraint-loosened"]));
  });
});
