import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_FILE_BYTES } from "../../src/contract/load.js";
import { parseContract, parseContractText } from "../../src/contract/parse.js";

const dir = mkdtempSync(join(tmpdir(), "contractgen-load-"));
function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
const codes = (path: string) => parseContract(path).diagnostics.map((d) => `${d.code} ${d.location.line}:${d.location.col}`);

describe("reading files that are not contracts", () => {
  it("reports a missing file", () => {
    expect(codes(join(dir, "absent.yaml"))).toEqual(["file-not-found 1:1"]);
  });
  it("reports a directory", () => {
    const sub = join(dir, "folder.yaml");
    mkdirSync(sub, { recursive: true });
    expect(codes(sub)).toEqual(["file-is-directory 1:1"]);
  });
  it("reports an empty file and a whitespace-only file", () => {
    expect(codes(file("empty.yaml", ""))).toEqual(["file-empty 1:1"]);
    expect(codes(file("blank.yaml", "\n   \n# nothing\n"))).toEqual(["file-empty 1:1"]);
  });
  it("reports binary content (NUL bytes, invalid UTF-8)", () => {
    expect(codes(file("nul.yaml", Buffer.from([0x63, 0x00, 0x01, 0x02])))).toEqual(["file-binary 1:1"]);
    expect(codes(file("latin1.yaml", Buffer.from([0x61, 0x3a, 0x20, 0xe9, 0x0a])))).toEqual(["file-binary 1:1"]);
  });
  it("refuses a file over the size limit without parsing it", () => {
    const path = file("huge.yaml", Buffer.alloc(MAX_FILE_BYTES + 1, 0x20));
    expect(codes(path)).toEqual(["file-too-large 1:1"]);
  });
  it("accepts a UTF-8 byte order mark", () => {
    const text = "\ufeffcontract: x\n";
    const result = parseContractText("bom.yaml", text);
    expect(result.diagnostics.map((d) => d.code)).not.toContain("file-binary");
    expect(result.diagnostics.map((d) => d.code)).not.toContain("yaml-syntax");
  });
});

describe("YAML that cannot be trusted", () => {
  it("refuses a billion-laughs alias bomb quickly", () => {
    const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(",")}]`);
    lines.push("contract: *a9");
    // Expanding it would materialise 9^10 nodes; the refusal happens within the first 100 aliases.
    // (Its time is measured in bench/validate.ts, not asserted here.)
    const result = parseContractText("bomb.yaml", lines.join("\n"));
    expect(result.diagnostics.map((d) => d.code)).toEqual(["yaml-alias-limit"]);
  });
  it("reports duplicate keys at the second occurrence", () => {
    expect(parseContractText("dup.yaml", "contract: a\nversion: 1.0.0\ncontract: b\n").diagnostics.map((d) => `${d.code} ${d.location.line}:${d.location.col}`)).toEqual(["yaml-duplicate-key 3:1"]);
  });
  it("reports tabs used as indentation", () => {
    expect(parseContractText("tab.yaml", "contract: a\ntransport:\n\thttp: {}\n").diagnostics.map((d) => d.code)).toContain("yaml-tab-indent");
  });
  it("reports non-string keys with their position", () => {
    const result = parseContractText("keys.yaml", "contract: a\n200: ok\n");
    expect(result.diagnostics.map((d) => `${d.code} ${d.location.line}:${d.location.col}`)).toEqual(["yaml-non-string-key 2:1"]);
  });
  it("keeps a __proto__ key as data, never as a prototype", () => {
    const result = parseContractText("proto.yaml", "contract: a\n__proto__: { polluted: true }\n");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toContain("contract-unknown-field");
  });
  it("reports syntax errors with a position", () => {
    const result = parseContractText("syntax.yaml", "contract: [a, b\nversion: 1.0.0\n");
    expect(result.diagnostics.length).toBeGreaterThan(0);
    for (const d of result.diagnostics) {
      expect(d.code).toBe("yaml-syntax");
      expect(d.location.line).toBeGreaterThanOrEqual(1);
    }
  });
  it("reports a document that is not a mapping", () => {
    expect(parseContractText("list.yaml", "- a\n- b\n").diagnostics.map((d) => d.code)).toEqual(["document-not-mapping"]);
    expect(parseContractText("scalar.yaml", "just text\n").diagnostics.map((d) => d.code)).toEqual(["document-not-mapping"]);
  });
});
