/** The model side of the generated MCP server: served schemas and descriptions (pure functions of the model). */
import { ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { operationGuide, servedSchema, servedTools, toolDescription } from "../../src/emit/mcp/tools.js";
import { parseContract } from "../../src/contract/parse.js";

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

  it("says what the operation does and its effects; the guidance a field needs is on that field, recovery in the results", () => {
    expect(text.startsWith(refund.description.replace(/\s+/g, " ").trim())).toBe(true);
    expect(text.endsWith("Irreversible.")).toBe(true);
    expect(text).not.toContain("Errors:");
    const tool = servedTools(model).find((t) => t.tool.name === refund.names.tool)!.tool;
    const props = tool.inputSchema.properties as Record<string, { description?: string }>;
    // The contract's own words name the precondition; the reading tool is added where they do not.
    expect(props.expected_refunded_cents!.description).toContain("Must equal the current refunded_cents (read it with get_invoice), else INVOICE_CHANGED");
    // The unit, once, in words (the contract's description of amount already says cents).
    expect(props.amount!.description).toContain("cents");
    expect(JSON.stringify(tool.inputSchema)).not.toContain("x-unit");
    expect(tool.inputSchema.properties).toHaveProperty("dry_run.default", true);
  });

  it("is the operation's summary when the contract gives no description", () => {
    const get = model.operations.find((op) => op.names.id === "get_invoice")!;
    expect(get.description.trim()).toBe("");
    expect(toolDescription(model, get)).toBe(get.summary.trim());
  });

  it("keeps the whole guide (steps, preconditions, each error's next step) for whoever implements the operation", () => {
    const guide = operationGuide(model, refund);
    expect(guide).toContain("Two steps: dry_run=true (default) previews");
    expect(guide).toMatch(/INVOICE_CHANGED[^;]*→ re-read, then decide again/);
    expect(guide).toContain("INVOICE_NOT_FOUND → check the identifier");
  });

  it("pastes no schema into the prose, and is what the catalogue serves", () => {
    expect(text).not.toMatch(/[{}]|"type"|\$ref/);
    expect(servedTools(model).find((t) => t.tool.name === refund.names.tool)!.tool.description).toBe(text);
  });
});
