/** The model side of the generated MCP server: served schemas and descriptions (pure functions of the model). */
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { servedSchema, servedTools, toolDescription } from "../../src/emit/mcp/tools.js";
import { parseContract } from "../../src/spec/parse.js";

describe("servedSchema", () => {
  it("serves an object schema as it is", () => {
    const schema = { type: "object", required: ["a"], properties: { a: { type: "string" } } };
    expect(servedSchema(schema)).toBe(schema);
  });

  it("writes type: object beside a root $ref to an object type (MCP requires it at the root)", () => {
    const schema = { $ref: "#/$defs/T", $defs: { T: { type: "object" } } };
    expect(servedSchema(schema)).toEqual({ type: "object", ...schema });
  });

  it("is null for values that are not objects (text-only results)", () => {
    expect(servedSchema({ type: "array", items: { type: "string" } })).toBeNull();
    expect(servedSchema(true)).toBeNull();
  });

  it("writes boolean property schemas as objects of the same meaning, so MCP clients accept the list", () => {
    const schema = { type: "object", properties: { a: true, b: false, ["__proto__"]: { type: "string" } } };
    const served = servedSchema(schema)!;
    expect(Object.keys(served.properties as object)).toEqual(["a", "b", "__proto__"]);
    expect((served.properties as Record<string, unknown>).a).toEqual({});
    expect((served.properties as Record<string, unknown>).b).toEqual({ not: {} });
    expect(Object.getPrototypeOf(served.properties)).toBe(Object.prototype);
    const listed = ListToolsResultSchema.safeParse({ tools: [{ name: "t", inputSchema: served }] });
    expect(listed.success).toBe(true);
    expect(ListToolsResultSchema.safeParse({ tools: [{ name: "t", inputSchema: schema }] }).success).toBe(false);
  });
});

describe("toolDescription", () => {
  const model = parseContract("specs/billing.v2.yaml").model!;
  const refund = model.operations.find((op) => op.names.id === "refund_invoice")!;
  const text = toolDescription(model, refund);

  it("puts the summary first, then units, defaults, the two steps, the precondition and each error's next step", () => {
    expect(text.startsWith(refund.summary)).toBe(true);
    expect(text).toContain("amount in cents");
    expect(text).toContain("dry_run defaults to true");
    expect(text).toContain("Two steps: dry_run=true (default) previews");
    expect(text).toContain("expected_refunded_cents must equal the current refunded_cents (read it with get_invoice), else INVOICE_CHANGED");
    expect(text).toMatch(/INVOICE_CHANGED[^;]*→ re-read, then decide again/);
    expect(text).toContain("INVOICE_NOT_FOUND → check the identifier");
  });

  it("pastes no schema into the prose, and is what the catalogue serves", () => {
    expect(text).not.toMatch(/[{}]|"type"|\$ref/);
    expect(servedTools(model).find((t) => t.tool.name === refund.names.tool)!.tool.description).toBe(text);
  });
});
