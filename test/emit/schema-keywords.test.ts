/**
 * JSON Schema 2020-12 keywords json-schema-to-typescript does not know become TypeScript types that
 * accept every value the schema accepts (and, where TypeScript can say it, reject what it rejects).
 * Each case pins the emitted declaration; one tsc run then checks a valid value of every case
 * compiles and an invalid one does not (`@ts-expect-error`). ajv, on the same bundled schema, agrees
 * with both values, so the type is tested against what the validators enforce.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { contractYaml, freshRoot, generateInto, parseOk, tscStrict } from "../hostile/harness.js";
import type { ContractModel } from "../../src/model/types.js";

interface Case {
  keyword: string;
  name: string;
  schema: string;
  /** The declaration in sdk/types.ts (whitespace-insensitive). */
  declared: string;
  valid: unknown[];
  invalid: unknown[];
}

const cases: Case[] = [
  {
    keyword: "prefixItems with items as the rest",
    name: "Pair",
    schema: "{ type: array, prefixItems: [{ type: string }, { type: integer }], items: { type: boolean } }",
    declared: "export type Pair = []|[string]|[string, number, ...(boolean)[]];",
    valid: [["a", 1, true, false], ["a"]],
    invalid: [["a", 1, "x"], [1]],
  },
  {
    keyword: "prefixItems without items (open)",
    name: "OpenTuple",
    schema: "{ type: array, prefixItems: [{ type: string }] }",
    declared: "export type OpenTuple = []|[string, ...(unknown)[]];",
    valid: [["a", 5, null]],
    invalid: [[1]],
  },
  {
    keyword: "prefixItems with items: false (closed)",
    name: "Closed",
    schema: "{ type: array, prefixItems: [{ type: string }, { type: integer }], items: false }",
    declared: "export type Closed = []|[string]|[string, number];",
    valid: [["a", 1]],
    invalid: [["a", 1, 2]],
  },
  {
    keyword: "const",
    name: "Fixed",
    schema: '{ type: object, properties: { kind: { const: "refund" }, none: { const: null } }, required: [kind] }',
    declared: 'export interface Fixed { kind: "refund"; none?: null; }',
    valid: [{ kind: "refund", none: null }],
    invalid: [{ kind: "charge" }],
  },
  {
    keyword: "$defs (nested definitions)",
    name: "WithDefs",
    schema: '{ type: object, properties: { a: { $ref: "#/types/WithDefs/$defs/Inner" } }, $defs: { Inner: { type: string } } }',
    declared: "export interface WithDefs { a?: Types_WithDefsDefs_Inner; }",
    valid: [{ a: "x" }],
    invalid: [{ a: 1 }],
  },
  {
    keyword: "dependentRequired",
    name: "Card",
    schema: "{ type: object, properties: { number: { type: string }, cvc: { type: string } }, dependentRequired: { number: [cvc] } }",
    declared: "export type Card = ({ number?: string; cvc?: string; } & ({ number?: never; } | { number: unknown; cvc: unknown; }));",
    valid: [{ number: "4242", cvc: "123" }, { cvc: "123" }, {}],
    invalid: [{ number: "4242" }],
  },
  {
    keyword: "dependentSchemas",
    name: "Billing",
    schema: "{ type: object, properties: { card: { type: string } }, dependentSchemas: { card: { properties: { expiry: { type: integer } }, required: [expiry] } } }",
    declared: "export type Billing = ({ card?: string; } & ({ card?: never; } | ({ card: unknown; } & { expiry: number; })));",
    valid: [{ card: "4242", expiry: 2030 }, {}],
    invalid: [{ card: "4242", expiry: "soon" }, { card: "4242" }],
  },
  {
    keyword: "unevaluatedProperties",
    name: "Labels",
    schema: "{ type: object, properties: { name: { type: string } }, unevaluatedProperties: { type: string } }",
    declared: "export interface Labels { name?: string; [k: string]: string | undefined; }",
    valid: [{ name: "a", team: "b" }],
    invalid: [{ name: "a", team: 1 }],
  },
  {
    keyword: "unevaluatedItems",
    name: "Row",
    schema: "{ type: array, prefixItems: [{ type: string }], unevaluatedItems: { type: integer } }",
    declared: "export type Row = []|[string, ...(number)[]];",
    valid: [["a", 1, 2]],
    invalid: [["a", "b"]],
  },
  {
    keyword: "contains (widened: any item)",
    name: "Tags",
    schema: "{ type: array, items: { type: string }, contains: { const: urgent } }",
    declared: "export type Tags = string[];",
    valid: [["urgent", "x"]],
    invalid: [[1]],
  },
  {
    keyword: "type array with null",
    name: "MaybeName",
    schema: '{ type: [string, "null"], minLength: 1 }',
    declared: "export type MaybeName = (string | null);",
    valid: ["a", null],
    invalid: [1],
  },
  {
    keyword: "if/then/else (widened to then | else)",
    name: "Payment",
    schema:
      "{ type: object, properties: { method: { type: string } }, if: { properties: { method: { const: card } } }, then: { properties: { last4: { type: string } }, required: [last4] }, else: { properties: { iban: { type: string } } } }",
    declared: "export type Payment = ({ method?: string; } & ({ last4: string; } | { iban?: string; }));",
    valid: [{ method: "card", last4: "4242" }, { method: "sepa", iban: "DE00" }],
    invalid: [{ method: "card", iban: 5 }],
  },
  {
    keyword: "if/then without else",
    name: "Shipping",
    schema:
      "{ type: object, properties: { mode: { type: string } }, if: { properties: { mode: { const: post } } }, then: { properties: { address: { type: string } }, required: [address] } }",
    declared: "export type Shipping = ({ mode?: string; } & ({ address: string; } | { address?: unknown; }));",
    valid: [{ mode: "post", address: "Main St" }, { mode: "pickup" }],
    invalid: [{ mode: 5 }],
  },
  {
    keyword: "$anchor",
    name: "Anchored",
    schema: "{ $anchor: anchored, type: string }",
    declared: "export type Anchored = string;",
    valid: ["a"],
    invalid: [1],
  },
  {
    keyword: "minItems above maxItems (no array fits; the generator refuses the pair)",
    name: "NoArray",
    schema: "{ type: array, items: { type: string }, minItems: 3, maxItems: 1 }",
    declared: "export type NoArray = string[];",
    valid: [],
    invalid: [[1], "abc"],
  },
  {
    keyword: "empty schema",
    name: "Anything",
    schema: "{ description: Any value. }",
    declared: "export type Anything = unknown;",
    valid: [5, "x", null, [1]],
    invalid: [],
  },
  {
    keyword: "properties with only annotations or validation keywords of no type (any value)",
    name: "Annotated",
    schema:
      '{ type: object, properties: { note: { description: Free form. }, old: { deprecated: true }, at: { format: date-time }, flag: { default: true }, big: { minimum: 3 }, either: { anyOf: [{ description: Free form. }, { type: "null" }] } } }',
    declared:
      "export interface Annotated { /** * Free form. */ note?: unknown; /** * @deprecated */ old?: unknown; at?: unknown; /** * Default: true. */ flag?: unknown; big?: unknown; either?: (unknown | null); }",
    valid: [{ note: "x", old: 5, at: "2026-01-01T00:00:00Z", flag: "yes", big: "not a number", either: [1] }],
    invalid: [],
  },
  {
    keyword: "a union with a member that allows anything (the generator declared nothing for it)",
    name: "AnyOrPair",
    schema: "{ anyOf: [{}, { $ref: '#/types/Pair' }] }",
    declared: "export type AnyOrPair = (unknown | Pair);",
    valid: [5, ["a", 1]],
    invalid: [],
  },
];

const spec = contractYaml({
  types: cases.map((c) => `  ${c.name}: ${c.schema}`).join("\n"),
  operations: `
  get_thing:
    summary: Read.
    http: { method: GET, path: /thing }
    effects: { kind: read }
    input: { type: object }
    output: { type: object }`,
});

const squash = (s: string) => s.replace(/\s+/g, " ").replace(/([{(\[]) /g, "$1").replace(/ ([})\]])/g, "$1");

describe("2020-12 schema keywords in sdk/types.ts", () => {
  let model: ContractModel;
  let types = "";
  const root = freshRoot("schema-keywords");
  beforeAll(async () => {
    model = parseOk("keywords", spec);
    const files = await generateInto(join(root, "keywords"), model);
    types = files.get("sdk/types.ts")!;
  });

  it.each(cases)("$keyword: declared as a type that fits the schema", (c) => {
    expect(squash(types)).toContain(squash(c.declared));
    // The test values are what the generated validators (ajv, 2020-12) accept and reject.
    const ajv = new Ajv2020({ strict: false });
    ajv.addKeyword({ keyword: "x-unit", schemaType: "string" });
    const validate = ajv.compile(model.types.find((t) => t.name === c.name)!.schema.schema as object);
    for (const v of c.valid) expect(validate(v), JSON.stringify(v)).toBe(true);
    for (const v of c.invalid) expect(validate(v), JSON.stringify(v)).toBe(false);
  });

  it("valid values compile and invalid ones do not (one tsc --strict run)", () => {
    const lines = [`import type * as T from "./types.js";`];
    cases.forEach((c, i) => {
      c.valid.forEach((v, j) => lines.push(`export const valid${i}_${j}: T.${c.name} = ${JSON.stringify(v)};`));
      c.invalid.forEach((v, j) => lines.push(`// @ts-expect-error ${c.keyword}`, `export const invalid${i}_${j}: T.${c.name} = ${JSON.stringify(v)};`));
    });
    writeFileSync(join(root, "keywords", "sdk", "keyword-checks.ts"), `${lines.join("\n")}\n`);
    expect(tscStrict(root)).toBe("");
  });
});

describe("dependencies past the typing limit", () => {
  it("are widened away from the type (each would double the union) and stay in the schema for validation", async () => {
    const { typingSchema, DEPENDENCY_LIMIT } = await import("../../src/emit/sdk/type-schema.js");
    const names = ["a", "b", "c", "d", "e", "f"];
    const dependentRequired = Object.fromEntries(names.map((n) => [n, names.filter((m) => m !== n)]));
    const schema = { type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])), dependentRequired };
    expect(names.length).toBeGreaterThan(DEPENDENCY_LIMIT);
    const typed = typingSchema(schema) as Record<string, unknown>;
    expect(typed.dependentRequired).toBeUndefined();
    expect(JSON.stringify(typed)).not.toContain("anyOf");
    expect(schema.dependentRequired).toBe(dependentRequired);
    const few = typingSchema({ ...schema, dependentRequired: { a: ["b"] } }) as Record<string, unknown>;
    expect(JSON.stringify(few)).toContain("anyOf");
  });
});
