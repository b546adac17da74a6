/**
 * Validators grow with the contract, not with operations × shared types: a shared type reached by
 * every operation is stored once in `sdk/schemas.json` and compiled once per process, and the
 * validators still report errors at the same instance paths.
 */
import { describe, expect, it } from "vitest";
import { emitSchemaData } from "../../src/emit/sdk/schemas.js";
import { type SchemaData, validatorTable } from "../../src/runtime/validation.js";
import { contractYaml, parseOk } from "../hostile/harness.js";

const OPS = 300;
const operations = Array.from({ length: OPS }, (_, i) => `
  list_items_${i}:
    summary: List.
    http: { method: GET, path: /r${i}/items }
    effects: { kind: read }
    input: { type: object, properties: { owner: { $ref: "#/types/Owner" } } }
    output: { type: object, required: [items], properties: { items: { type: array, items: { $ref: "#/types/Item" } } } }`).join("");
const types = `
  Owner: { type: object, required: [login], properties: { login: { type: string, minLength: 1 } } }
  Item:
    type: object
    required: [item_id, owner]
    properties:
      item_id: { type: string, pattern: "^itm_" }
      owner: { $ref: "#/types/Owner" }`;
const model = parseOk("shared", contractYaml({ types, operations }));
const text = emitSchemaData(model);
const data = JSON.parse(text) as SchemaData;

describe(`validators of ${OPS} operations sharing two types`, () => {
  it("store each shared type once, referenced by $id", () => {
    expect(text.match(/"\^itm_"/g)).toHaveLength(1);
    expect(data.types.map((t) => (t as { $id: string }).$id)).toEqual(["urn:contractgen:type:Owner", "urn:contractgen:type:Item"]);
    // The operations differ only in their HTTP paths: 600 validator names, two stored schemas.
    expect(Object.keys(data.validators)).toHaveLength(OPS * 2);
    expect(new Set(Object.values(data.validators)).size).toBe(2);
  });

  it("compile a validator only when it first runs, and reject bad data at the same instance paths", () => {
    let reads = 0;
    const validator = validatorTable(() => {
      reads++;
      return data;
    }, "schemas.json");
    const out = validator("validateListItems7Output");
    const input = validator("validateListItems299Input");
    expect(reads).toBe(0);
    expect(out({ items: [{ item_id: "itm_1", owner: { login: "ana" } }] })).toBe(true);
    expect(reads).toBe(1);
    expect(out({ items: [{ item_id: "x", owner: { login: "" } }] })).toBe(false);
    expect(out.errors).toEqual([
      expect.objectContaining({ instancePath: "/items/0/item_id", keyword: "pattern" }),
      expect.objectContaining({ instancePath: "/items/0/owner/login", keyword: "minLength" }),
    ]);
    expect(input({ owner: {} })).toBe(false);
    expect(input.errors).toEqual([expect.objectContaining({ instancePath: "/owner", keyword: "required", params: { missingProperty: "login" } })]);
    expect(input({ owner: { login: "ana" } })).toBe(true);
    expect(input.errors).toBeNull();
    expect(reads).toBe(1);
  });

  it("name the file when a validator has no schema (the generated files disagree)", () => {
    const validator = validatorTable(() => data, "/pkg/sdk/schemas.json")("validateNoSuchInput");
    expect(() => validator({})).toThrow("/pkg/sdk/schemas.json has no schema for validator validateNoSuchInput: regenerate the package.");
  });
});
