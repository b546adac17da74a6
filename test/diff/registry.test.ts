/** Meta-tests over the diff rule registry. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RULES } from "../../src/diff/rules/index.js";

/** Every rule id ever published. Ids are never removed: a retired rule stays with `replacedBy`. */
const PUBLISHED = readFileSync("test/diff/published-ids.txt", "utf8").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));

describe("diff rule registry", () => {
  it("registers every rule file (run `npm run update:rules`)", () => {
    const files = readdirSync("src/diff/rules").filter((f) => f.endsWith(".ts") && f !== "index.ts" && !f.startsWith("_")).map((f) => f.replace(/\.ts$/, "")).sort();
    expect(RULES.map((r) => r.id)).toEqual(files);
  });

  it("has at least 80 rules", () => {
    expect(RULES.filter((r) => !r.replacedBy).length).toBeGreaterThanOrEqual(80);
  });

  it.each(RULES.map((r) => [r.id, r] as const))("%s has a full description, hint, severity, category and a fixture", (id, rule) => {
    expect(id).toMatch(/^[a-z]+(-[a-z0-9]+)+$/);
    expect(["breaking", "warning", "info"]).toContain(rule.severity);
    expect(rule.category.length).toBeGreaterThan(0);
    expect(rule.description).toMatch(/\.$/);
    expect(rule.hint.length).toBeGreaterThan(10);
    if (rule.replacedBy) {
      expect(RULES.map((r) => r.id)).toContain(rule.replacedBy);
      return;
    }
    for (const f of ["base.yaml", "revision.yaml", "expected.json"]) expect(existsSync(`test/diff/rules/${id}/${f}`), `test/diff/rules/${id}/${f}`).toBe(true);
  });

  it("never drops a published id, and publishes every id", () => {
    const ids = RULES.map((r) => r.id);
    for (const id of PUBLISHED) expect(ids, `published rule ${id} was removed`).toContain(id);
    for (const id of ids) expect(PUBLISHED, `add ${id} to test/diff/published-ids.txt`).toContain(id);
  });

  it("documents every rule in docs/diff-rules.md (run `npm run docs:rules`)", () => {
    const doc = readFileSync("docs/diff-rules.md", "utf8");
    for (const r of RULES) expect(doc).toContain(`\`${r.id}\``);
  });

  it("does not modify the models it compares", async () => {
    const { parseContract } = await import("../../src/contract/parse.js");
    const { runDiff } = await import("../../src/diff/engine.js");
    const a = parseContract("specs/billing.v1.yaml");
    const b = parseContract("specs/billing.v2.yaml");
    const before = JSON.stringify([a.model, b.model]);
    runDiff({ model: a.model!, source: a.source, label: "a" }, { model: b.model!, source: b.source, label: "b" });
    expect(JSON.stringify([a.model, b.model])).toBe(before);
  });
});
