/**
 * Served output schemas are read by the official MCP TypeScript client's default validator (draft-07
 * Ajv) as 2020-12 reads them: a result the contract's schema accepts is never refused by the client.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { draft07Tolerant } from "../../src/emit/mcp/compact.js";

type Json = Record<string, unknown>;

/** 2020-12 schemas whose draft-07 reading differs, each with results that are valid and invalid in 2020-12. */
/** `exact`: the served form means the same in 2020-12; else it is looser there (a tuple's rest items), never stricter. */
const CASES: Array<{ name: string; schema: Json; instances: unknown[]; exact: boolean }> = [
  {
    name: "a closed tuple (prefixItems, items: false)",
    schema: { type: "object", properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false } } },
    instances: [{ pair: ["a", 1] }, { pair: ["a"] }, { pair: [] }, { pair: ["a", 1, 2] }, { pair: [1, "a"] }],
    exact: true,
  },
  {
    name: "a tuple with a rest schema (prefixItems, items: {...})",
    schema: { type: "object", properties: { row: { type: "array", prefixItems: [{ type: "string" }], items: { type: "integer" } } } },
    instances: [{ row: ["id", 1, 2] }, { row: ["id"] }, { row: [] }, { row: ["id", "x"] }],
    exact: false,
  },
  {
    name: "contains with minContains 0",
    schema: { type: "object", properties: { tags: { type: "array", items: { type: "string" }, contains: { const: "pinned" }, minContains: 0 } } },
    instances: [{ tags: [] }, { tags: ["a"] }, { tags: ["pinned"] }, { tags: [1] }],
    exact: true,
  },
  {
    name: "a tuple inside a shared definition",
    schema: { type: "object", properties: { at: { $ref: "#/$defs/Point" } }, $defs: { Point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false, minItems: 2 } } },
    instances: [{ at: [1, 2] }, { at: [1] }, { at: [1, 2, 3] }],
    exact: true,
  },
];

const ajv2020 = new Ajv2020({ strict: false });
const client = new AjvJsonSchemaValidator();

describe("served output schemas and the official client's default validator", () => {
  it.each(CASES)("$name: every result 2020-12 accepts, the client accepts", ({ schema, instances, exact }) => {
    const contract = ajv2020.compile(schema);
    const served = client.getValidator(draft07Tolerant(schema) as never);
    for (const instance of instances) {
      if (contract(instance)) expect(served(instance).valid, JSON.stringify(instance)).toBe(true);
    }
    // To a 2020-12 reader the served form means the same, or (a tuple's rest items) accepts a little more.
    const servedIn2020 = ajv2020.compile(draft07Tolerant(schema));
    for (const instance of instances) {
      if (exact) expect(servedIn2020(instance), JSON.stringify(instance)).toBe(contract(instance));
      else if (contract(instance)) expect(servedIn2020(instance), JSON.stringify(instance)).toBe(true);
    }
  });

  it("the schemas as written would be refused: the test sees the difference", () => {
    const refused = CASES.filter(({ schema, instances }) => {
      const contract = ajv2020.compile(schema);
      const raw = client.getValidator(schema as never);
      return instances.some((i) => contract(i) && !raw(i).valid);
    });
    expect(refused.map((c) => c.name)).toEqual(CASES.map((c) => c.name));
  });
});
