/**
 * A tuple type spells its item types once per length it allows, and json-schema-to-typescript nests
 * tuples inside tuples: a small contract could make sdk/types.ts grow exponentially (24 nested
 * `minItems: 1` arrays took 17 s and 3 GB; two more ran out of memory) or quadratically (a
 * 2,000-entry prefixItems made 16 MB). Generated types stay proportional to the contract.
 */
import { describe, expect, it } from "vitest";
import { emitTypes } from "../../src/emit/sdk/types.js";
import { TUPLE_LIMIT } from "../../src/emit/sdk/type-schema.js";
import { oneTypeContract, parseOk } from "./harness.js";

function typesOf(schema: string): Promise<string> {
  return emitTypes(parseOk("tuples", oneTypeContract("Tuples", schema)));
}

const nested = (depth: number, leaf: string, wrap: (inner: string) => string): string => {
  let schema = leaf;
  for (let i = 0; i < depth; i++) schema = wrap(schema);
  return schema;
};

describe("tuple types from a hostile contract", () => {
  it("nested non-empty arrays: one tuple per path, the rest plain arrays", async () => {
    const types = await typesOf(nested(30, "{ type: string }", (inner) => `{ type: array, minItems: 1, items: ${inner} }`));
    expect(types.length).toBeLessThan(4_000);
    expect(types).toContain(`export type Tuples = [string, ...(string)[]]${"[]".repeat(29)};`);
  });

  it("nested prefixItems tuples", async () => {
    const types = await typesOf(nested(30, "{ type: boolean }", (inner) => `{ type: array, prefixItems: [${inner}, { type: string }], items: false }`));
    expect(types.length).toBeLessThan(4_000);
  });

  it("a long prefixItems, and counts past the limit", async () => {
    const long = await typesOf(`{ type: array, prefixItems: [${Array.from({ length: 2000 }, () => "{ type: integer }").join(", ")}], items: false }`);
    expect(long.length).toBeLessThan(100_000);
    expect(long).toContain("export type Tuples = number[];");
    const counted = await typesOf(`{ type: array, items: { type: string }, minItems: ${TUPLE_LIMIT + 1}, maxItems: 100000 }`);
    expect(counted).toContain("export type Tuples = string[];");
    // The counts the type no longer says stay in its comment.
    expect(counted).toContain(`@minItems ${TUPLE_LIMIT + 1}`);
    expect(counted).toContain("@maxItems 100000");
  });

  it("short tuples stay tuples", async () => {
    expect(await typesOf("{ type: array, items: { type: string }, minItems: 2 }")).toContain("export type Tuples = [string, string, ...(string)[]];");
    expect(await typesOf(`{ type: array, prefixItems: [{ type: string }, { type: integer }], items: false }`)).toContain("export type Tuples = []|[string]|[string, number];");
  });
});
