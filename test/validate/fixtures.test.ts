/**
 * The invalid-contract corpus: each file in test/fixtures/invalid/ states, in `# expect:` comments,
 * every diagnostic it must produce (code and line:col), and nothing else may be reported.
 *   # expect: idempotency-key-missing 31:26
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContract } from "../../src/contract/parse.js";

const DIR = "test/fixtures/invalid";
const fixtures = readdirSync(DIR).filter((f) => f.endsWith(".yaml")).sort();

function expectations(path: string): string[] {
  const text = readFileSync(path, "latin1");
  return [...text.matchAll(/^# expect: ([a-z0-9-]+) (\d+):(\d+)\s*$/gm)].map((m) => `${m[1]} ${m[2]}:${m[3]}`);
}

describe("invalid contract corpus", () => {
  it("has at least 40 fixtures", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(40);
  });

  it.each(fixtures)("%s reports exactly its expected diagnostics", (name) => {
    const path = join(DIR, name);
    const expected = expectations(path);
    expect(expected.length, `${name} declares no '# expect:' line`).toBeGreaterThan(0);
    const result = parseContract(path);
    const actual = result.diagnostics.map((d) => `${d.code} ${d.location.line}:${d.location.col}`);
    expect(actual).toEqual(expected);
    for (const d of result.diagnostics) {
      expect(d.location.file).toBe(path);
      expect(d.hint.length).toBeGreaterThan(0);
      expect(typeof d.location.pointer).toBe("string");
    }
    // A fixture that only warns still yields a model; one with an error yields none.
    const hasError = result.diagnostics.some((d) => d.severity === "error");
    expect(result.model === undefined).toBe(hasError);
  });
});
