/**
 * tests/contract.ts reads the schemas the SDK stores (sdk/schemas.json, each shared type once; a
 * GitHub-size contract repeated its shared types in every operation: 16 MB) and the harness links
 * them back on load. What the suite's checks see must be the model's bundled schemas, entry for
 * entry, with one object per shared definition.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { toolSpecs } from "../../src/emit/mcp/tools.js";
import { contractYaml, freshRoot, generateInto, parseOk } from "../hostile/harness.js";

const types = `
  Money:
    type: object
    description: An amount of money, stored once.
    required: [amount]
    properties:
      amount: { type: integer }
      currency: { $ref: "#/types/constructor" }
  constructor:
    type: string
    description: A definition named like an Object.prototype member.
    enum: [EUR, USD]`;
const operations = ["get_price", "set_price", "list_prices"].map((id, i) => `
  ${id}:
    summary: Price ${i}.
    http: { method: ${i === 1 ? "PUT" : "GET"}, path: /prices${i} }
    effects: { kind: ${i === 1 ? "mutating, idempotent: natural, destructive: false" : "read"} }
    input: { type: object, properties: { price: { $ref: "#/types/Money" }, previous: { $ref: "#/types/Money" } } }
    output: { $ref: "#/types/Money" }`).join("");

describe("files that store each $defs entry once", () => {
  it("tests/contract.ts reads the SDK's stored schemas; the harness links the model's bundled schemas back on load", async () => {
    const model = parseOk("pool", contractYaml({ types, operations }));
    const dir = join(freshRoot("test-contract-pool"), "pkg");
    const files = await generateInto(dir, model);
    // The suite names the SDK's stored schemas (sdk/schemas.json): the package holds each definition once, there.
    expect([...files.keys()].filter((f) => f.startsWith("tests/") && !f.startsWith("tests/runtime/") && files.get(f)!.includes("An amount of money, stored once."))).toEqual([]);
    expect(files.has("tests/schema-defs.json")).toBe(false);
    expect(files.get("tests/contract.ts")).toContain('contractSpec(CONTRACT, new URL("../sdk/", import.meta.url))');
    for (const description of ["An amount of money, stored once.", "A definition named like an Object.prototype member."]) {
      expect(files.get("sdk/schemas.json")!.split(description).length - 1).toBe(1);
    }

    const { CONTRACT_SPEC } = (await import(pathToFileURL(join(dir, "tests", "contract.ts")).href)) as typeof import("../../generated-examples/releases/tests/contract.js");
    const linked = CONTRACT_SPEC.operations;
    expect(linked.map((o) => o.id)).toEqual(model.operations.map((o) => o.names.id));
    for (const [i, op] of model.operations.entries()) {
      // Equal to the model's schemas, as JSON (the harness's $defs has a null prototype).
      expect(JSON.parse(JSON.stringify(linked[i]!.input))).toEqual(op.input.schema);
      expect(JSON.parse(JSON.stringify(linked[i]!.output))).toEqual(op.output.schema);
    }
    const defsOf = (s: unknown) => (s as { $defs: Record<string, unknown> }).$defs;
    // One object per definition, shared by every schema that reaches it.
    expect(defsOf(linked[0]!.output).Money).toBe(defsOf(linked[2]!.input).Money);
    expect(Object.hasOwn(defsOf(linked[0]!.output), "constructor")).toBe(true);
    expect(defsOf(linked[0]!.output)["constructor"]).toEqual({ type: "string", description: "A definition named like an Object.prototype member.", enum: ["EUR", "USD"] });
  });

  it("sdk/contract.json: the MCP server's tools carry the same schemas as the catalogue the model defines", async () => {
    const model = parseOk("pool", contractYaml({ types, operations }));
    const dir = join(freshRoot("contract-json-pool"), "pkg");
    const files = await generateInto(dir, model);
    // Inputs reach Money twice, so the MCP compaction keeps it a definition (it inlines single uses).
    const raw = JSON.parse(files.get("sdk/contract.json")!) as { schemaDefs: unknown[]; tools: Array<{ inputSchema: { $defs?: Record<string, unknown> } }> };
    expect(raw.schemaDefs.filter((d) => JSON.stringify(d).includes("An amount of money, stored once."))).toHaveLength(1);
    for (const tool of raw.tools) expect(Object.values(tool.inputSchema.$defs ?? {}).every((v) => typeof v === "number")).toBe(true);
    expect(raw.tools.filter((t) => t.inputSchema.$defs?.Money !== undefined)).toHaveLength(3);
    const { TOOLS } = (await import(pathToFileURL(join(dir, "mcp", "tools.ts")).href)) as { TOOLS: ReadonlyArray<{ name: string; inputSchema: unknown; outputSchema: unknown }> };
    const expected = toolSpecs(model).map(({ spec }) => spec);
    expect(TOOLS.map((t) => t.name)).toEqual(expected.map((t) => t.name));
    for (const [i, tool] of TOOLS.entries()) {
      expect(JSON.parse(JSON.stringify(tool.inputSchema))).toEqual(expected[i]!.inputSchema);
      expect(JSON.parse(JSON.stringify(tool.outputSchema))).toEqual(expected[i]!.outputSchema);
    }
  });
});
