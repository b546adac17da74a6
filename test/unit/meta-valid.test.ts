import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseContractText } from "../../src/contract/parse.js";

// The diff meta-validates both sides with one set of schemas already found valid (ParseOptions.metaValid).
const base = readFileSync("test/diff/base.yaml", "utf8");
const withNote = (maxLength: string) => base.replace("note: { type: string, maxLength: 200 }", `note: { type: string, maxLength: ${maxLength} }`);

describe("schemas known valid, shared between two contracts", () => {
  it("are remembered, and a schema equal to one of them is still valid", () => {
    const metaValid = new Set<string>();
    expect(parseContractText("old.yaml", base, { metaValid }).model).toBeDefined();
    expect(metaValid.size).toBeGreaterThan(0);
    expect(parseContractText("new.yaml", base, { metaValid }).model).toBeDefined();
  });

  it("never hide an invalid schema of the second contract at the same place", () => {
    const metaValid = new Set<string>();
    parseContractText("old.yaml", base, { metaValid });
    const invalid = parseContractText("new.yaml", withNote("-1"), { metaValid });
    expect(invalid.diagnostics.map((d) => d.code)).toContain("schema-invalid");
  });
});
