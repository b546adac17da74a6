/** Bounds that leave no value of their kind are reported (schema-empty-range); bounds that leave one are not. */
import { describe, expect, it } from "vitest";
import { parseContractText } from "../../src/contract/parse.js";
import { oneTypeContract } from "../hostile/harness.js";

function emptyRanges(schema: string): string[] {
  const result = parseContractText("ranges.yaml", oneTypeContract("Checked", schema));
  expect(result.model, "a warning only: the contract still generates").toBeDefined();
  return result.diagnostics.filter((d) => d.code === "schema-empty-range").map((d) => `${d.location?.pointer}: ${d.message}`);
}

describe("schema-empty-range", () => {
  it.each([
    ["{ type: array, minItems: 3, maxItems: 1 }", "/types/Checked/minItems: minItems 3 is above maxItems 1: no array satisfies this schema."],
    ["{ type: string, minLength: 5, maxLength: 2 }", "/types/Checked/minLength: minLength 5 is above maxLength 2: no string satisfies this schema."],
    ["{ type: object, minProperties: 2, maxProperties: 1 }", "/types/Checked/minProperties: minProperties 2 is above maxProperties 1: no object satisfies this schema."],
    ["{ type: number, minimum: 10, maximum: 1.5 }", "/types/Checked/minimum: minimum 10 is above maximum 1.5: no number satisfies this schema."],
    ["{ type: number, exclusiveMinimum: 3, maximum: 3 }", "/types/Checked/exclusiveMinimum: exclusiveMinimum 3 is equal to maximum 3: no number satisfies this schema."],
    ["{ type: number, minimum: 3, exclusiveMaximum: 3 }", "/types/Checked/minimum: minimum 3 is equal to exclusiveMaximum 3: no number satisfies this schema."],
  ])("%s", (schema, expected) => {
    expect(emptyRanges(schema)).toEqual([expected]);
  });

  it("is silent where one value is left, or a bound stands alone", () => {
    expect(emptyRanges("{ type: array, minItems: 2, maxItems: 2 }")).toEqual([]);
    expect(emptyRanges("{ type: number, minimum: 3, maximum: 3 }")).toEqual([]);
    expect(emptyRanges("{ type: number, exclusiveMinimum: 2, maximum: 3 }")).toEqual([]);
    expect(emptyRanges("{ type: string, minLength: 9 }")).toEqual([]);
  });

  it("reaches nested schemas", () => {
    expect(emptyRanges("{ type: object, properties: { tags: { type: array, items: { type: string, minLength: 4, maxLength: 1 } } } }")).toEqual([
      "/types/Checked/properties/tags/items/minLength: minLength 4 is above maxLength 1: no string satisfies this schema.",
    ]);
  });
});
