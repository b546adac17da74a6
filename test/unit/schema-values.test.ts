/**
 * Values the zero-configuration derivation builds from a field's schema (src/tests-runtime/schema-values.ts):
 * they satisfy the schema (pattern, format, lengths, bounds), differ between derivations, and a pattern
 * outside the supported subset yields nothing rather than a wrong value.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { schemaValue, stringMatching } from "../../src/tests-runtime/schema-values.js";

const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ strict: false });
addFormats(ajv);

describe("stringMatching", () => {
  for (const pattern of ["^cus_[A-Za-z0-9]+$", "^INC-[0-9]{3,}$", "^[a-z][a-z0-9-]{1,62}$", "^bk_[a-z0-9]{6,}$", "^(draft|published)-v\\d{1,3}$", "^re_", "^[A-Z]{3}$", "^[^/]+\\.txt$", "^a(?:b|c)?d*$"]) {
    it(`writes a match of ${pattern}, new each time`, () => {
      const a = stringMatching(pattern);
      expect(a).toBeDefined();
      expect(new RegExp(pattern, "u").test(a!)).toBe(true);
    });
  }

  it("gives up on what it does not support (lookarounds, back-references) instead of guessing", () => {
    expect(stringMatching("^(?=a)a$")).toBeUndefined();
    expect(stringMatching("^(a)\\1$")).toBeUndefined();
    expect(stringMatching("^[a-z")).toBeUndefined();
  });
});

describe("schemaValue", () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ["an email", { type: "string", format: "email" }],
    ["a uuid", { type: "string", format: "uuid" }],
    ["a date-time", { type: "string", format: "date-time" }],
    ["a bounded string", { type: "string", minLength: 12, maxLength: 20 }],
    ["an integer range without 1", { type: "integer", minimum: 5, maximum: 9 }],
    ["a negative range", { type: "integer", minimum: -1000, maximum: -3 }],
    ["a multiple", { type: "integer", minimum: 1, multipleOf: 25 }],
    ["an object with required members", { type: "object", required: ["id", "n"], properties: { id: { type: "string", pattern: "^x_[0-9]{4}$" }, n: { type: "number", exclusiveMinimum: 0 } } }],
    ["an array with minItems", { type: "array", minItems: 2, items: { type: "string", enum: ["a", "b"] } }],
  ];
  for (const [name, schema] of cases) {
    it(`builds ${name} that satisfies its schema`, () => {
      for (const variant of [0, 1]) {
        const value = schemaValue(schema, schema, variant, false);
        expect(value, JSON.stringify(schema)).toBeDefined();
        expect(ajv.validate(schema, value!.value), `${JSON.stringify(value!.value)}: ${ajv.errorsText()}`).toBe(true);
      }
    });
  }

  it("prefers the document's own values, and starts numbers near zero where the range allows", () => {
    expect(schemaValue({ type: "string", examples: ["inv_1001"] }, { type: "string", examples: ["inv_1001"] })).toEqual({ value: "inv_1001" });
    expect(schemaValue({ type: "integer", minimum: -1000, maximum: 1000 }, { type: "integer", minimum: -1000, maximum: 1000 }, 0, false)).toEqual({ value: 1 });
    const a = schemaValue({ type: "string", format: "email" }, { type: "string", format: "email" }, 0, false);
    const b = schemaValue({ type: "string", format: "email" }, { type: "string", format: "email" }, 0, false);
    expect(a!.value).not.toBe(b!.value);
  });

  it("stops at a bounded depth on a schema that nests itself", () => {
    const root = { $defs: { Node: { type: "object", required: ["next"], properties: { next: { $ref: "#/$defs/Node" } } } }, $ref: "#/$defs/Node" };
    expect(schemaValue(root, root, 0, false)).toBeUndefined();
  });
});
