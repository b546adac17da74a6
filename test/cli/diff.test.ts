/** `contractgen diff` as reviewers and CI run it. */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";

const BIN = resolve("bin/contractgen.js");
const dir = mkdtempSync(join(tmpdir(), "contractgen-diff-"));
function diff(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, "diff", ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const V1 = "specs/billing.v1.yaml";
const V2 = "specs/billing.v2.yaml";

describe("contractgen diff", () => {
  it("billing v1 → v2: the dollars → cents change is breaking, recorded in the changelog, with a major bump", () => {
    const r = diff(V1, V2);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[input-unit-changed] The unit of input "amount" of "refund_invoice" changed from "dollars" to "cents".');
    expect(r.stdout).toMatch(/was specs\/billing\.v1\.yaml:\d+:\d+, now specs\/billing\.v2\.yaml:\d+:\d+/);
    expect(r.stdout).not.toContain("[changelog-entry-missing]");
    expect(r.stdout).not.toContain("[version-major-bump-required]");
    expect(diff(V1, V2, "--fail-on", "never").code).toBe(0);
  });

  it("requires a major bump and a changelog entry when they are missing", () => {
    const v2 = readFileSync(V2, "utf8");
    const sneaky = join(dir, "billing.v1.2.yaml");
    // Same changes, shipped as 1.2.0 with the unit changes left out of the changelog.
    writeFileSync(sneaky, v2.replace("version: 2.0.0\n", "version: 1.2.0\n").replace("  - version: 2.0.0\n", "  - version: 1.2.0\n").replace(/    changes:\n      - kind: unit\n[\s\S]*?(?=\n  - version: 1\.1\.0)/, ""));
    const r = diff(V1, sneaky, "--format", "json");
    type F = { rule: string; consequences: F[] };
    const report = JSON.parse(r.stdout) as { findings: F[] };
    const rules = report.findings.map((f) => f.rule);
    expect(rules).toContain("version-major-bump-required");
    // The changelog duty is reported under the unit change it is about, not as a line of its own.
    expect(rules).not.toContain("changelog-entry-missing");
    const unit = report.findings.filter((f) => f.rule === "input-unit-changed" || f.rule === "output-unit-changed");
    expect(unit.flatMap((f) => f.consequences.map((c) => c.rule))).toContain("changelog-entry-missing");
    expect(r.code).toBe(1);
  });

  it("JSON output matches its published schema, with locations on both sides", () => {
    const r = diff(V1, V2, "--format", "json");
    const report = JSON.parse(r.stdout);
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(readFileSync("schema/diff-report.schema.json", "utf8")));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const unit = report.findings.find((f: { rule: string }) => f.rule === "input-unit-changed");
    expect(unit).toMatchObject({ severity: "breaking", operation: "refund_invoice", old: { file: V1 }, new: { file: V2, pointer: "/operations/refund_invoice/input/properties/amount/x-unit" } });
  });

  it("renders Markdown, GitHub annotations and JUnit XML", () => {
    expect(diff(V1, V2, "--format", "markdown").stdout).toContain("| severity | rule | operation | change | where | migration |");
    const github = diff(V1, V2, "--format", "github").stdout.trim().split("\n");
    expect(github.every((l) => /^::(error|warning|notice) file=[^,]+,line=\d+,col=\d+,title=/.test(l))).toBe(true);
    const junit = diff(V1, V2, "--format", "junit").stdout;
    expect(junit).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="contract diff" tests="\d+" failures="[1-9]\d*">/);
  });

  it("takes a side from git (rev:path) and labels it so", () => {
    const r = diff(`HEAD:${V1}`, V2, "--format", "json");
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout);
    expect(report.old.file).toBe(`HEAD:${V1}`);
    expect(report.findings.find((f: { rule: string }) => f.rule === "input-unit-changed").old.file).toBe(`HEAD:${V1}`);
    expect(diff("HEAD:specs/nope.yaml", V2).code).toBe(2);
  });

  it("reports nothing for identical contracts", () => {
    const r = diff(V2, V2);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("No changes found.");
  });

  it("applies a config: severity overrides, and ignores only with a reason", () => {
    const config = join(dir, "diff.yaml");
    writeFileSync(config, "rules:\n  input-unit-changed: warning\nignore:\n  - rule: output-unit-changed\n    reason: Clients read amounts through the SDK, which converts them.\n");
    const r = diff(V1, V2, "--config", config, "--format", "json");
    const report = JSON.parse(r.stdout);
    expect(report.findings.find((f: { rule: string }) => f.rule === "input-unit-changed").severity).toBe("warning");
    expect(report.ignored.map((f: { rule: string }) => f.rule)).toContain("output-unit-changed");
    expect(report.findings.map((f: { rule: string }) => f.rule)).not.toContain("output-unit-changed");
    writeFileSync(config, "ignore:\n  - rule: output-unit-changed\n");
    const bad = diff(V1, V2, "--config", config);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("needs a reason");
    writeFileSync(config, "rules:\n  no-such-rule: off\n");
    expect(diff(V1, V2, "--config", config).stderr).toContain("no such rule");
  });

  it("refuses to compare an invalid contract", () => {
    const r = diff(V1, "test/fixtures/invalid/idempotency-key-missing.yaml");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("[idempotency-key-missing]");
  });
});

describe("contractgen budget", () => {
  const budget = (...args: string[]) => spawnSync(process.execPath, [BIN, "budget", ...args], { encoding: "utf8" });
  it("counts the catalogue per tool and in total, and passes within budget", () => {
    const r = budget("specs/billing.v2.yaml", "--format", "json");
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ contract: "billing", tokenizer: "o200k_base", toolCount: 6, withinBudget: true, budget: { catalogTokens: 2800, maxTools: 15 }, totals: { o200k_base: expect.any(Number), cl100k_base: expect.any(Number) } });
    expect(report.tools.map((t: { name: string }) => t.name)).toContain("refund_invoice");
    const sum = report.tools.reduce((n: number, t: { tokens: number }) => n + t.tokens, 0);
    // The whole response wraps the tools in one object, so it costs about the sum of its parts.
    expect(Math.abs(report.total - sum)).toBeLessThan(report.tools.length * 4 + 10);
  });
  it("measures an over-budget contract and exits 1", () => {
    const r = budget("test/fixtures/invalid/budget-catalog-tokens-exceeded.yaml");
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("Over budget.");
  });

  it("a schema whose definitions double per level is compared within a bound, with a located warning (it ran past 100 s)", () => {
    const dag = join(dir, "dag");
    mkdirSync(dag, { recursive: true });
    const defs = (rootKind: string) =>
      [
        `D0:\n  type: object\n  properties:\n    kind: { type: ${rootKind} }\n    a: { $ref: "#/D1" }\n    b: { $ref: "#/D1" }`,
        ...Array.from({ length: 29 }, (_, i) => `D${i + 1}:\n  type: object\n  properties:\n    a: { $ref: "#/D${i + 2}" }\n    b: { $ref: "#/D${i + 2}" }`),
        "D30: { type: string }",
      ].join("\n");
    const contract = (defsFile: string) =>
      [
        "contract: dag",
        "version: 1.0.0",
        "changelog:",
        "  - { version: 1.0.0, date: 2026-01-01 }",
        "transport:",
        '  http: { baseUrl: "http://127.0.0.1:1" }',
        "errors:",
        "  BAD_INPUT: { class: invalid_input, action: fix_field, http: 400 }",
        "operations:",
        "  get_dag:",
        "    summary: Read.",
        '    http: { method: GET, path: "/dag" }',
        "    effects: { kind: read }",
        "    input: { type: object }",
        `    output: { $ref: "./${defsFile}#/D0" }`,
        "",
      ].join("\n");
    writeFileSync(join(dag, "defs-old.yaml"), `${defs("string")}\n`);
    writeFileSync(join(dag, "defs-new.yaml"), `${defs("integer")}\n`);
    writeFileSync(join(dag, "old.yaml"), contract("defs-old.yaml"));
    writeFileSync(join(dag, "new.yaml"), contract("defs-new.yaml"));
    const r = spawnSync(process.execPath, [BIN, "diff", join(dag, "old.yaml"), join(dag, "new.yaml"), "--format", "json"], { encoding: "utf8", timeout: 60_000 });
    expect(r.error).toBeUndefined(); // finished
    // A change near the root is still found.
    const report = JSON.parse(r.stdout) as { findings: Array<{ rule: string; message: string }> };
    expect(report.findings.map((f) => f.message).join("\n")).toMatch(/kind/);
    expect(r.stderr).toContain("old.yaml:15:13: warning [diff-schema-too-large] The schema at /operations/get_dag/output expands to more than 50,000 nodes");
    expect(r.stderr).toContain("new.yaml:15:13: warning [diff-schema-too-large]");
  });
});
