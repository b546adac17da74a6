import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parseContract, parseContractText } from "../../src/contract/parse.js";

const header = `contract: refs
version: 1.0.0
changelog:
  - { version: 1.0.0, date: 2026-01-01 }
transport:
  http: { baseUrl: "http://127.0.0.1:1" }
errors:
  NOT_FOUND: { class: not_found, action: verify_identifier, http: 404 }
`;
function op(output: string): string {
  return `operations:
  get_x:
    summary: Read x.
    http: { method: GET, path: /x }
    effects: { kind: read }
    input: { type: object }
    output: ${output}
`;
}
const found = (text: string) => parseContractText("test/fixtures/refs/inline.yaml", text).diagnostics.map((d) => `${d.code} ${d.location.line}:${d.location.col}`);

describe("$ref resolution", () => {
  it("bundles local, relative-file and recursive references into a self-contained schema", () => {
    const result = parseContract("test/fixtures/refs/main.yaml");
    expect(result.diagnostics).toEqual([]);
    const output = result.model!.operations[0]!.output.schema as Record<string, any>;
    expect(output.properties.root).toEqual({ $ref: "#/$defs/Node" });
    expect(output.properties.price).toEqual({ $ref: "#/$defs/Money" });
    expect(Object.keys(output.$defs)).toEqual(["Currency", "Money", "Node"]);
    expect(output.$defs.Node.properties.children.items).toEqual({ $ref: "#/$defs/Node" });
    expect(output.$defs.Money.properties.currency).toEqual({ $ref: "#/$defs/Currency" });
    // The bundle compiles on its own and validates recursive data.
    const validate = new Ajv2020({ strict: false }).compile(output);
    expect(validate({ root: { name: "a", children: [{ name: "b", children: [] }] }, price: { amount: 100, currency: "EUR" } })).toBe(true);
    expect(validate({ root: { children: [] } })).toBe(false);
    expect(result.model!.files).toEqual(["test/fixtures/refs/main.yaml", "test/fixtures/refs/common.yaml"]);
  });

  it("checks schemas in referenced files where they are written", () => {
    const result = parseContract("test/fixtures/refs/main-bad.yaml");
    expect(result.diagnostics.map((d) => `${d.code} ${d.location.file}:${d.location.line}:${d.location.col}`)).toEqual([
      "schema-invalid test/fixtures/refs/bad-common.yaml:5:41",
    ]);
  });

  it("names the missing target of an unresolved local reference", () => {
    const result = parseContractText("x.yaml", `${header}types:\n  A: { type: string }\n${op('{ $ref: "#/types/B" }')}`);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["ref-unresolved"]);
    expect(result.diagnostics[0]!.message).toContain('"B"');
  });

  it("reports an unreadable referenced file at the $ref, not in the missing file", () => {
    const result = parseContractText("test/fixtures/refs/inline.yaml", `${header}${op('{ $ref: "./nope.yaml#/types/A" }')}`);
    expect(result.diagnostics.map((d) => `${d.code} ${d.location.file}`)).toEqual(["ref-unresolved test/fixtures/refs/inline.yaml"]);
  });

  it("detects a cycle of bare references", () => {
    expect(found(`${header}types:\n  A: { $ref: "#/types/B" }\n  B: { $ref: "#/types/A" }\n${op('{ $ref: "#/types/A" }')}`)).toEqual(["ref-cycle 10:14", "ref-cycle 11:14", "ref-cycle 18:21"]);
  });

  it("refuses remote references", () => {
    expect(found(`${header}${op('{ $ref: "https://example.com/schema.json" }')}`)).toEqual(["ref-invalid 15:21"]);
  });

  it("does not treat a $ref inside example data as a reference", () => {
    const result = parseContractText("x.yaml", `${header}${op('{ type: object, examples: [{ $ref: "#/nowhere" }] }')}`);
    expect(result.diagnostics).toEqual([]);
  });
});
