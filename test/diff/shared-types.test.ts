/**
 * A change to a shared type (`types:`) is one edit, however many operations reach it: the diff
 * reports it once, on the type (shared-type-changed), listing the operations each side reaches,
 * with the worst severity over those sides; per-operation changes are reported as before.
 */
import { describe, expect, it } from "vitest";
import { allFindings, runDiff } from "../../src/diff/engine.js";
import { renderReport } from "../../src/diff/report/index.js";
import type { Finding } from "../../src/diff/rule.js";
import { parseContractText } from "../../src/contract/parse.js";

const N = 40;

/**
 * `User` is reached only through `Label` (its `owner`) by the label operations, and directly by
 * get_user. `Label` is returned by N reads and by create_label, and sent by create_label.
 */
function contract(edit: (text: string) => string = (t) => t): string {
  const lines = [
    "contract: labels", "version: 1.0.0", "changelog:", "  - { version: 1.0.0, date: 2026-01-01 }",
    "transport:", '  http: { baseUrl: "http://127.0.0.1:1" }',
    "types:",
    "  User:", "    type: object", "    required: [id]", "    properties:",
    "      id: { type: string }", "      login: { type: string }",
    "  Label:", "    type: object", "    required: [name]", "    properties:",
    "      name: { type: string }", '      owner: { $ref: "#/types/User" }',
    "errors:", "  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }", "operations:",
  ];
  for (let i = 0; i < N; i++) {
    lines.push(`  get_label_${i}:`, "    summary: Get a label.", `    http: { method: GET, path: /labels/${i} }`, "    effects: { kind: read }",
      "    input: { type: object, properties: {} }", '    output: { $ref: "#/types/Label" }', "    errors: [INVALID_FIELD]");
  }
  lines.push(
    "  create_label:", "    summary: Create a label.", "    http: { method: POST, path: /labels }", "    effects: { kind: mutating, idempotent: natural, destructive: false }",
    "    input:", "      type: object", "      required: [label]", "      properties:", '        label: { $ref: "#/types/Label" }', "        reason: { type: string }",
    '    output: { $ref: "#/types/Label" }', "    errors: [INVALID_FIELD]",
    "  get_user:", "    summary: Get a user.", "    http: { method: GET, path: /user }", "    effects: { kind: read }",
    "    input: { type: object, properties: {} }", '    output: { $ref: "#/types/User" }', "    errors: [INVALID_FIELD]",
  );
  return edit(`${lines.join("\n")}\n`);
}

const bump = (t: string) => t.replace("version: 1.0.0\n", "version: 2.0.0\n").replace("changelog:\n", "changelog:\n  - { version: 2.0.0, date: 2026-02-01 }\n");

function diff(revision: string) {
  const a = parseContractText("old.yaml", contract());
  const b = parseContractText("new.yaml", bump(revision));
  expect(a.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  expect(b.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return runDiff({ model: a.model!, source: a.source, label: "old.yaml" }, { model: b.model!, source: b.source, label: "new.yaml" });
}

const labelOps = [...Array.from({ length: N }, (_, i) => `get_label_${i}`), "create_label"].sort();
const onType = (findings: readonly Finding[], name: string) => findings.filter((f) => f.rule === "shared-type-changed" && f.type?.name === name);

describe("shared-type changes are reported once, on the type", () => {
  it("an optional property added to a type returned by N+1 operations is one finding listing them all", () => {
    const report = diff(contract((t) => t.replace("      name: { type: string }\n", "      name: { type: string }\n      color: { type: string }\n")));
    const [group, ...others] = onType(report.findings, "Label");
    expect(others).toEqual([]);
    expect(group!.operations).toEqual(labelOps);
    expect(group!.type!.sides.find((s) => s.side === "output")!.operations).toEqual(labelOps);
    // Nothing about Label is reported per operation, at the top level or under another finding.
    expect(report.findings.filter((f) => f !== group && f.message.includes('"Label"'))).toEqual([]);
    expect(allFindings(report.findings).filter((f) => f.rule === "output-property-added")).toHaveLength(1);
    expect(report.findings.length).toBeLessThan(5);
  });

  it("a new required property breaks the side that sends the type, not the side that reads it", () => {
    const report = diff(contract((t) => t.replace("    required: [name]\n", "    required: [name, color]\n").replace("      name: { type: string }\n", "      name: { type: string }\n      color: { type: string }\n")));
    const [group] = onType(report.findings, "Label");
    expect(group!.severity).toBe("breaking");
    expect(group!.type!.sides).toEqual([
      { side: "input", severity: "breaking", operations: ["create_label"] },
      { side: "output", severity: "info", operations: labelOps },
    ]);
    expect(group!.message).toBe(`Shared type "Label" changed, reaching ${N + 1} operations: breaking for inputs (1 operation), info for outputs (${N + 1} operations).`);
    expect(group!.consequences.map((c) => [c.rule, c.severity])).toEqual(
      expect.arrayContaining([
        ["input-required-property-added", "breaking"],
        ["output-property-added", "info"],
      ]),
    );
    // Only on the output side: compatible for readers, so the whole finding is not breaking.
    const outputOnly = diff(contract((t) => t.replace("      login: { type: string }\n", "      login: { type: string }\n      avatar: { type: string }\n").replace("    required: [id]\n", "    required: [id, avatar]\n")));
    const user = onType(outputOnly.findings, "User")[0]!;
    // User is sent inside Label by create_label, so that side still breaks; get_user only reads it.
    expect(user.type!.sides.map((s) => [s.side, s.severity])).toEqual([
      ["input", "breaking"],
      ["output", "info"],
    ]);
  });

  it("a change inside a nested type is reported on that type, reaching the operations that use it through another type", () => {
    const report = diff(contract((t) => t.replace("      id: { type: string }\n", "      id: { type: integer }\n")));
    const groups = report.findings.filter((f) => f.rule === "shared-type-changed");
    expect(groups.map((g) => g.type!.name)).toEqual(["User"]);
    const [user] = groups;
    expect(user!.operations).toEqual([...labelOps, "get_user"].sort());
    expect(user!.type!.sides).toEqual([
      { side: "input", severity: "breaking", operations: ["create_label"] },
      { side: "output", severity: "breaking", operations: [...labelOps, "get_user"].sort() },
    ]);
    expect(user!.new).toMatchObject({ file: "new.yaml", pointer: "/types/User" });
    expect(user!.consequences.map((c) => c.message)).toContain(`The type of output "id" of type "User" (used by ${N + 2} operations) changed from "string" to "integer".`);
  });

  it("per-operation changes are reported per operation, as before", () => {
    const report = diff(
      contract((t) =>
        t
          .replace("  get_user:\n    summary: Get a user.", "  get_user:\n    summary: Get the user.")
          .replace("        reason: { type: string }\n", "        reason: { type: string, maxLength: 100 }\n"),
      ),
    );
    expect(report.findings.filter((f) => f.rule === "shared-type-changed")).toEqual([]);
    expect(report.findings.filter((f) => f.category !== "version").map((f) => [f.rule, f.operation, f.operations, f.message])).toEqual([
      // The summary is also a line of the skill's command index (its wording is the skill emitter's).
      ["skill-body-changed", null, [], expect.stringMatching(/^The skill's body changed \(1 line added and 1 removed, first added ".*`get-user`.*Get the user\..*"\): \d+ → \d+ tokens\.$/)],
      ["input-max-length-lowered", "create_label", ["create_label"], 'Input "reason" of "create_label" gained a maximum length of 100.'],
      ["operation-summary-changed", "get_user", ["get_user"], expect.any(String)],
    ]);
    // An operation that swaps one type for another is compared as the schemas it now has, on the operation.
    const swapped = diff(contract((t) => t.replace('    output: { $ref: "#/types/User" }', '    output: { $ref: "#/types/Label" }')));
    expect(swapped.findings.filter((f) => f.rule === "shared-type-changed")).toEqual([]);
    expect(swapped.findings.filter((f) => f.rule.endsWith("property-removed")).map((f) => [f.operation, f.message])).toEqual([
      ["get_user", 'Output property "id" of "get_user" was removed.'],
      ["get_user", 'Optional output property "login" of "get_user" was removed.'],
    ]);
  });

  it("every report format shows the grouping; JSON lists the operations of each side in fields", () => {
    const report = diff(contract((t) => t.replace("    required: [name]\n", "    required: [name, color]\n").replace("      name: { type: string }\n", "      name: { type: string }\n      color: { type: string }\n")));
    const json = JSON.parse(renderReport(report, "json", false)) as { findings: Array<{ rule: string; operations: string[]; type?: { name: string; sides: Array<{ side: string; severity: string; operations: string[] }> }; consequences: unknown[] }> };
    const group = json.findings.find((f) => f.rule === "shared-type-changed")!;
    expect(group.operations).toEqual(labelOps);
    expect(group.type).toEqual({
      name: "Label",
      sides: [
        { side: "input", severity: "breaking", operations: ["create_label"] },
        { side: "output", severity: "info", operations: labelOps },
      ],
    });
    expect(group.consequences.length).toBeGreaterThanOrEqual(2);
    const text = renderReport(report, "text", false);
    expect(text).toContain("shared types:\n  breaking [shared-type-changed] Shared type \"Label\" changed");
    expect(text).toContain("inputs (breaking, 1): create_label");
    expect(text).toMatch(/outputs \(info, 41\): create_label, get_label_0, .* … and 29 more/);
    expect(text).toContain("↳ breaking [input-required-property-added]");
    const md = renderReport(report, "markdown", false);
    expect(md).toContain("inputs (breaking, 1): `create_label`");
    expect(md).toContain("<details><summary>outputs (info, 41)</summary>");
    for (const format of ["github", "junit"] as const) expect(renderReport(report, format, false)).toContain("inputs (breaking): create_label");
  });
});
