/**
 * The catalogue as served: compact schemas that accept exactly what the contract's schemas accept, and
 * a model-side estimate (what `validate` checks) equal to what a client reads from the server.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsM from "ajv-formats";
import { describe, expect, it } from "vitest";
import { catalogTokens, countTokens, countTokensCl100k } from "../../src/budget/catalog.js";
import { servedCatalogue, servedCost } from "../../src/budget/served.js";
import { boundedDefinitions, DefinitionInliner, inlineDefinitions, mergedChoice, modelFacing, validationOnly, withoutRedundantTypes } from "../../src/emit/mcp/compact.js";
import { servedOutputSchema, servedSchema, servedTools } from "../../src/emit/mcp/tools.js";
import { compactText } from "../../src/mcp-runtime/server.js";
import { annotationKeywords } from "./support.js";
import type { ContractModel } from "../../src/model/types.js";
import { parseContract, parseContractText } from "../../src/contract/parse.js";

const SPECS = ["billing.v1", "billing.v2", "incidents", "releases"] as const;

/** A contract whose schemas exercise every case of the compaction: recursion, shared and conflicting definitions, odd names. */
const ODD = `
contract: odd
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
types:
  Node:
    type: object
    description: A tree node (recursive).
    required: [name]
    properties:
      name: { $ref: "#/types/Name" }
      children: { type: array, items: { $ref: "#/types/Node" } }
  Name: { type: string, minLength: 1, maxLength: 20, description: "A name, e.g. \\"a/b~c\\"." }
  Box:
    type: object
    required: [description]
    additionalProperties: false
    properties:
      description: { type: string, description: A property called description. }
      __proto__: { $ref: "#/types/Name" }
      note: { type: string, enum: [{ description: "data, not an annotation" }, plain], description: Data that looks like a schema. }
      size: { type: integer, minimum: 0, x-unit: bytes }
  BoxPreview:
    type: object
    required: [token, box]
    properties:
      token: { type: string }
      box: { $ref: "#/types/Box" }
errors:
  BAD: { class: invalid_input, action: fix_field, http: 400 }
  NEED_CONFIRM: { class: invalid_input, action: fix_field, http: 400 }
operations:
  read_tree:
    summary: Read a tree.
    http: { method: GET, path: /tree }
    effects: { kind: read }
    input: { type: object, properties: { name: { $ref: "#/types/Name" } } }
    output: { $ref: "#/types/Node" }
    errors: [BAD]
  put_box:
    summary: Put a box.
    http: { method: POST, path: /box }
    effects: { kind: mutating, idempotent: natural, destructive: true }
    preview: { dryRun: dry_run, default: true, confirmToken: token, ttl: 5m, output: { $ref: "#/types/BoxPreview" }, invalidTokenError: NEED_CONFIRM }
    input:
      type: object
      required: [box]
      properties:
        box: { $ref: "#/types/Box" }
        dry_run: { type: boolean, default: true }
        token: { type: string }
    output: { $ref: "#/types/Box" }
    errors: [BAD, NEED_CONFIRM]
`;

function oddModel(): ContractModel {
  const r = parseContractText("odd.yaml", ODD);
  if (!r.model) throw new Error(r.diagnostics.map((d) => `${d.code}: ${d.message}`).join("\n"));
  return r.model;
}

function ajv() {
  const a = new Ajv2020({ strict: false });
  (addFormatsM as unknown as { default: (x: Ajv2020) => void }).default(a);
  return a;
}

describe("the estimate validate checks is what the server serves", () => {
  const models: Array<[string, ContractModel]> = [
    ...SPECS.map((s) => [s, parseContract(`specs/${s}.yaml`).model!] as [string, ContractModel]),
    ["hostile fixture", parseContract("test/fixtures/valid/hostile.yaml").model!],
    ["odd schemas", oddModel()],
  ];

  it.each(models)("%s: tools/list read through a client equals the model's catalogue, token for token", async (_name, model) => {
    const served = await servedCatalogue(model);
    expect(served).toEqual(servedTools(model).map((t) => t.tool));
    const cost = await servedCost(model);
    expect(cost.total.o200k_base).toBe(catalogTokens(model).total);
    expect(cost.perTool.map((t) => [t.name, t.o200k_base])).toEqual(catalogTokens(model).perTool.map((t) => [t.name, t.tokens]));
    expect(cost.total.cl100k_base).toBe(countTokensCl100k(JSON.stringify({ tools: served })));
    expect(cost.toolCount).toBe(model.operations.filter((op) => op.mcp.exposed).length);
  });
});

describe("compact schemas accept exactly what the contract's schemas accept", () => {
  const model = oddModel();
  const tools = new Map(servedTools(model).map((t) => [t.tool.name, t]));
  const box = { description: "d", note: "plain", size: 3 };
  const boxes: unknown[] = [
    box,
    { ...box, size: -1 },
    { ...box, extra: 1 },
    { note: "plain" },
    { ...box, note: { description: "data, not an annotation" } },
    { ...box, note: { description: "other" } },
    // Ajv treats an own "__proto__" key as an additional property whatever the schema says: both forms agree.
    JSON.parse('{"description":"d","__proto__":"n"}'),
  ];

  it("a recursive type stays a reference; a definition used once is written in place", () => {
    const out = tools.get("read_tree")!.tool.outputSchema as Record<string, any>;
    expect(Object.keys(out.$defs)).toEqual(["Node"]);
    expect(out.$defs.Node.properties.name).toMatchObject({ type: "string", minLength: 1 });
    const trees: unknown[] = [{ name: "a", children: [{ name: "b", children: [] }] }, { name: "a", children: [{ name: "" }] }, { name: "a", children: [{}] }, { children: [] }];
    const original = ajv().compile(servedSchema(model.operations[0]!.output.schema)!);
    const compact = ajv().compile(out);
    for (const t of trees) expect(compact(t), JSON.stringify(t)).toBe(original(t));
    expect(trees.map((t) => compact(t))).toEqual([true, false, false, false]);
  });

  it("a preview's choice shares its definitions, keeps data and property names that look like annotations", () => {
    const op = model.operations.find((o) => o.names.id === "put_box")!;
    const out = tools.get("put_box")!.tool.outputSchema as Record<string, any>;
    expect(out.type).toBe("object");
    expect(JSON.stringify(out)).not.toContain("$id");
    const original = ajv().compile(servedOutputSchema(model, op)!);
    const compact = ajv().compile(out);
    const previews = boxes.map((b) => ({ token: "t", box: b }));
    for (const v of [...boxes, ...previews, { token: "t" }, {}]) expect(compact(v), JSON.stringify(v)).toBe(original(v));
    expect(compact(box)).toBe(true);
    const props = out.$defs.Box.properties;
    expect(Object.keys(props)).toEqual(["description", "__proto__", "note", "size"]);
    expect(props.note.enum).toEqual([{ description: "data, not an annotation" }, "plain"]);
    // Output schemas are for validation: annotations and extensions go, data that looks like them stays.
    expect(props.size).toEqual({ type: "integer", minimum: 0 });
    expect(props.description).toEqual({ type: "string" });
  });

  it("serves output schemas without annotations, and says a unit in words on the input side", () => {
    for (const [, { tool }] of tools) if (tool.outputSchema) expect(annotationKeywords(tool.outputSchema)).toEqual([]);
    const box = tools.get("put_box")!.tool.inputSchema as Record<string, any>;
    expect(JSON.stringify(box)).not.toContain("x-unit");
  });

  it("every example tool's served schemas validate the same instances as the contract's (examples from the platforms' seeds)", () => {
    const incidents = parseContract("specs/incidents.yaml").model!;
    const list = incidents.operations.find((o) => o.names.id === "list_incidents")!;
    const served = servedTools(incidents).find((t) => t.op === list)!.tool.outputSchema!;
    const original = ajv().compile(servedSchema(list.output.schema)!);
    const compact = ajv().compile(served);
    const record = { id: "INC-017", severity: "P1", status: "open", service: "checkout", environment: "production", owner: "payments-oncall", evidence_ref: "ev-1" };
    const page = { incidents: [record], next_cursor: null, total_matching: 1, partial: false, errors: [] };
    const variants = [page, { ...page, incidents: [{ ...record, id: "X-1" }] }, { ...page, incidents: [{ ...record, severity: "P9" }] }, { ...page, errors: [{ code: "bad code", message: "m" }] }, { ...page, next_cursor: 3 }];
    for (const v of variants) expect(compact(v), JSON.stringify(v)).toBe(original(v));
    expect(variants.map((v) => compact(v))).toEqual([true, false, false, false, false]);
  });
});

describe("inlineDefinitions leaves alone what it cannot prove equivalent", () => {
  it("a reference to the root or into a definition's interior: unchanged", () => {
    const rootRef = { type: "object", properties: { a: { $ref: "#" }, b: { $ref: "#/$defs/B" } }, $defs: { B: { type: "string" } } };
    expect(inlineDefinitions(rootRef)).toBe(rootRef);
    const interior = { type: "object", properties: { a: { $ref: "#/$defs/B/properties/x" }, b: { $ref: "#/$defs/B" } }, $defs: { B: { type: "object", properties: { x: { type: "string" } } } } };
    expect(inlineDefinitions(interior)).toBe(interior);
  });

  it("a subschema with its own $id or anchors: unchanged (references below it mean another document)", () => {
    const scoped = { type: "object", properties: { a: { $id: "urn:x", $ref: "#/$defs/B", $defs: { B: { type: "integer" } } }, b: { $ref: "#/$defs/B" } }, $defs: { B: { type: "string" } } };
    expect(inlineDefinitions(scoped)).toBe(scoped);
  });

  it("a reference beside other keywords stays, and so does its definition; beside the same type it is replaced", () => {
    const s = { type: "object", properties: { a: { $ref: "#/$defs/B", maxLength: 3 }, c: { type: "string", $ref: "#/$defs/C" } }, $defs: { B: { type: "string" }, C: { type: "string", minLength: 2 } } };
    expect(inlineDefinitions(s)).toEqual({ type: "object", properties: { a: { $ref: "#/$defs/B", maxLength: 3 }, c: { type: "string", minLength: 2 } }, $defs: { B: { type: "string" } } });
  });

  it("definition names that need pointer escaping are recognised", () => {
    const s = { type: "object", properties: { a: { $ref: "#/$defs/a~1b~0c" } }, $defs: { "a/b~c": { type: "string" } } };
    expect(inlineDefinitions(s)).toEqual({ type: "object", properties: { a: { type: "string" } } });
  });

  it("a chain of definitions that would nest past the depth limit keeps its references", () => {
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) defs[`D${i}`] = { type: "object", properties: { x: { type: "object", properties: { y: i === 39 ? { type: "string" } : { $ref: `#/$defs/D${i + 1}` } } } } };
    const s = { type: "object", properties: { root: { $ref: "#/$defs/D0" } }, $defs: defs };
    expect(inlineDefinitions(s)).toBe(s);
  });

  it("one inliner across tools decides per tool: a shared definition is in place where used once, a reference where used often", () => {
    // The same objects reach both tools (as the model's bundled types do); B is large, A refers to it.
    const B = { type: "object", properties: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field_${i}`, { type: "string", description: `Field ${i} of B.` }])) };
    const A = { type: "object", properties: { b: { $ref: "#/$defs/B" }, n: { type: "integer" } } };
    const defs = { A, B };
    const once = { type: "object", properties: { a: { $ref: "#/$defs/A" } }, $defs: defs };
    const often = { type: "object", properties: { a: { $ref: "#/$defs/A" }, b1: { $ref: "#/$defs/B" }, b2: { $ref: "#/$defs/B" }, b3: { $ref: "#/$defs/B" } }, $defs: defs };
    const expected = [once, often, once].map((s) => JSON.stringify(inlineDefinitions(s)));
    // B is written in place for `once` (inside A) and kept as a reference for `often`: A's final form differs.
    expect(expected[0]).not.toContain("$defs");
    expect(JSON.parse(expected[1]!).$defs).toHaveProperty("B");
    const shared = new DefinitionInliner();
    expect([once, often, once].map((s) => JSON.stringify(shared.inline(s)))).toEqual(expected);
    const reversed = new DefinitionInliner();
    expect([often, once, often].map((s) => JSON.stringify(reversed.inline(s)))).toEqual([expected[1], expected[0], expected[1]]);
  });

  it("mergedChoice refuses definitions that disagree (the caller scopes each branch under its own $id)", () => {
    const a = { type: "object", $ref: "#/$defs/T", $defs: { T: { type: "object", properties: { x: { type: "string" } } } } };
    const b = { type: "object", $ref: "#/$defs/T", $defs: { T: { type: "object", properties: { x: { type: "integer" } } } } };
    expect(mergedChoice(a, b)).toBeNull();
    expect(mergedChoice(a, a)).toEqual({ type: "object", anyOf: [{ type: "object", $ref: "#/$defs/T" }, { type: "object", $ref: "#/$defs/T" }], $defs: a.$defs });
  });

  it("validationOnly drops annotations and extensions, never a property named description", () => {
    const s = { type: "object", description: "said", "x-unit": "s", properties: { description: { type: "string", description: "said" }, title: { type: "string", title: "gone", default: "d" } } };
    expect(validationOnly(s)).toEqual({ type: "object", properties: { description: { type: "string" }, title: { type: "string" } } });
  });

  it("modelFacing says a unit in words, once, and leaves out a type every enum value has", () => {
    const s = { type: "object", properties: { a: { type: "integer", "x-unit": "cents" }, b: { type: "integer", "x-unit": "cents", description: "Amount in cents." }, c: { type: "string", enum: ["x", "y"] }, d: { type: "integer", enum: [1, 1.5] } } };
    expect(modelFacing(s)).toEqual({ type: "object", properties: { a: { type: "integer", description: "In cents." }, b: { type: "integer", description: "Amount in cents." }, c: { enum: ["x", "y"] }, d: { type: "integer", enum: [1, 1.5] } } });
  });

  it("withoutRedundantTypes keeps what a schema accepts", () => {
    const s = { type: "object", anyOf: [{ type: "object", required: ["a"] }, { type: "string" }], properties: { k: { type: "string", const: "v" } } };
    const out = withoutRedundantTypes(s);
    expect(out).toEqual({ type: "object", anyOf: [{ required: ["a"] }, { type: "string" }], properties: { k: { const: "v" } } });
    const [before, after] = [ajv().compile(s), ajv().compile(out)];
    for (const v of [{ a: 1 }, {}, "s", { a: 1, k: "w" }, { a: 1, k: "v" }, 3]) expect(after(v), JSON.stringify(v)).toBe(before(v));
  });

  it("boundedDefinitions keeps the nearest shared types within the limit and drops the references to the rest (weaker, never stricter)", () => {
    const big = { type: "object", properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}`, { type: "string", maxLength: i + 1 }])) };
    const s = { type: "object", properties: { near: { $ref: "#/$defs/Near" } }, $defs: { Near: { type: "object", properties: { far: { $ref: "#/$defs/Far" } } }, Far: big } };
    expect(boundedDefinitions(s, 100_000)).toBe(s);
    const bounded = boundedDefinitions(s, 300)!;
    expect(Object.keys(bounded.$defs as object)).toEqual(["Near"]);
    expect(JSON.stringify(bounded).length).toBeLessThanOrEqual(300);
    const [before, after] = [ajv().compile(s), ajv().compile(bounded)];
    const valid = { near: { far: { field_0: "a" } } };
    expect(before(valid)).toBe(true);
    expect(after(valid)).toBe(true);
    expect(after({ near: { far: { field_0: "too long" } } })).toBe(true);
    expect(after({ near: 3 })).toBe(false);
    expect(boundedDefinitions(s, 10)).toBeNull();
  });
});

describe("countTokens", () => {
  it("counts o200k_base and cl100k_base differently where they differ", () => {
    const text = JSON.stringify({ tools: servedTools(parseContract("specs/incidents.yaml").model!).map((t) => t.tool) });
    expect(countTokens(text)).not.toBe(countTokensCl100k(text));
  });
});

describe("compactText (compact text mode)", () => {
  it("writes records as rows under one header; every key and value is JSON, so a result cannot forge a line", () => {
    const text = compactText({ "a\nb": "x\ny", items: [{ id: "1", n: 2 }, { id: "2\n", n: 3 }], mixed: [{ id: 1 }, { other: 2 }] }, null);
    expect(text.split("\n")).toEqual(['"a\\nb": "x\\ny"', '"items" (2 records, each ["id","n"]):', '["1",2]', '["2\\n",3]', '"mixed": [{"id":1},{"other":2}]']);
  });

  it("states completeness in words, with the exact continuation", () => {
    expect(compactText({ items: [] }, { complete: false, continuation: "c\"1", reasons: ["more pages"] })).toBe('"items": []\nIncomplete: more pages (continuation: "c\\"1").');
    expect(compactText({ n: 1 }, { complete: true, continuation: null, reasons: [] })).toBe('"n": 1\nComplete.');
  });
});
