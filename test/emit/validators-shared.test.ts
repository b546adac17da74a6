/**
 * Precompiled validators grow with the contract, not with operations × shared types: a shared type
 * reached by every operation is compiled into one function that every operation's validator calls,
 * and the validators still report errors at the same instance paths.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { emitValidators } from "../../src/emit/sdk/validators.js";
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
const { js } = emitValidators(model);

describe(`validators of ${OPS} operations sharing two types`, () => {
  it("compile each shared type once", () => {
    // Each compiled copy of Item checks its required item_id; each copy of Owner its login.
    expect(js.match(/missingProperty: "item_id"/g)).toHaveLength(1);
    expect(js.match(/missingProperty: "login"/g)).toHaveLength(1);
    expect(js.match(/new RegExp\("\^itm_"/g)).toHaveLength(1);
  });

  it("export one validator per schema slot and reject bad data at the same instance paths", async () => {
    const dir = join(process.cwd(), "test-results", "validators-shared");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "validators.js"), js);
    const v = (await import(pathToFileURL(join(dir, "validators.js")).href)) as Record<string, ((d: unknown) => boolean) & { errors?: unknown }>;
    expect(Object.keys(v).filter((k) => k.startsWith("validateListItems"))).toHaveLength(OPS * 2);
    const out = v.validateListItems7Output!;
    expect(out({ items: [{ item_id: "itm_1", owner: { login: "ana" } }] })).toBe(true);
    expect(out({ items: [{ item_id: "x", owner: { login: "" } }] })).toBe(false);
    expect(out.errors).toEqual([
      expect.objectContaining({ instancePath: "/items/0/item_id", keyword: "pattern" }),
      expect.objectContaining({ instancePath: "/items/0/owner/login", keyword: "minLength" }),
    ]);
    const input = v.validateListItems299Input!;
    expect(input({ owner: {} })).toBe(false);
    expect(input.errors).toEqual([expect.objectContaining({ instancePath: "/owner", keyword: "required", params: { missingProperty: "login" } })]);
  });
});
