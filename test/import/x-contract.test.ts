/**
 * `x-contract`: behaviour declared in an OpenAPI document in the contract format's own vocabulary,
 * applied as RFC 7396 merge patches (operations, error responses, schemas, the document). Every worked
 * example of docs/openapi.md is imported, validated and checked for the behaviour it declares.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { importOpenApi } from "../../src/import/openapi/index.js";
import { mapOpenApi } from "../../src/import/openapi/map.js";
import { mergePatch, type JsonObject } from "../../src/import/openapi/schema.js";
import type { ContractModel, OperationModel } from "../../src/model/types.js";
import { parseContractText } from "../../src/contract/parse.js";

const ROOT = join(process.cwd(), "test-results", "import-x-contract");

beforeAll(() => {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
});

/** The tagged examples of docs/openapi.md: name → YAML text. */
function docExamples(): Array<[string, string]> {
  const text = readFileSync(join(process.cwd(), "docs", "openapi.md"), "utf8");
  const found: Array<[string, string]> = [];
  for (const m of text.matchAll(/<!-- x-contract example: ([a-z0-9-]+) -->\r?\n```yaml\r?\n([\s\S]*?)```/g)) found.push([m[1]!, m[2]!]);
  return found;
}

async function importText(name: string, text: string) {
  const file = join(ROOT, name);
  writeFileSync(file, text);
  const r = await importOpenApi(file, { date: "2026-01-15" });
  if (!r.yaml) throw new Error(`${name}: ${r.problems.map((p) => `${p.code} ${p.message}`).join("; ")}`);
  const parsed = parseContractText(`${name}.contract.yaml`, r.yaml);
  const errors = parsed.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.location.pointer} ${d.message}`);
  return { yaml: r.yaml, contract: parse(r.yaml) as Record<string, any>, report: r.report!, errors, model: parsed.model };
}

const op = (model: ContractModel, name: string): OperationModel => {
  const found = model.operations.find((o) => o.names.id === name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
};

/** What each documented example declares, checked on the contract model (and, for schemas, on the contract). */
const EXPECTED: Record<string, (model: ContractModel, contract: Record<string, any>) => void> = {
  effects: (m) => {
    const e = op(m, "archive_note").effects;
    expect(e).toMatchObject({ kind: "mutating", idempotent: "natural", undo: "unarchive_note", inferred: false });
    expect(op(m, "unarchive_note").effects.inferred).toBe(false);
  },
  idempotency: (m) => {
    expect(op(m, "create_payment").idempotency).toMatchObject({ retention: "72h", scope: "tenant", mismatchError: "IDEMPOTENCY_KEY_REUSED" });
    expect(m.errors.find((e) => e.code === "IDEMPOTENCY_KEY_REUSED")).toMatchObject({ httpStatus: 409, action: "stop_and_surface" });
  },
  preview: (m) => {
    const o = op(m, "purge_note");
    expect(o.preview).toMatchObject({ dryRunField: "dry_run", confirmTokenField: "confirm_token", ttl: "10m", invalidTokenError: "CONFIRMATION_REQUIRED", defaultDryRun: true });
    expect(o.effects).toMatchObject({ destructive: true, inferred: false });
    expect(o.errors.map((e) => e.code)).toEqual(["CONFIRMATION_REQUIRED"]);
  },
  preconditions: (m) => {
    expect(op(m, "rename_note").preconditions).toMatchObject([{ kind: "revision", field: "expected_revision", compares: "revision", required: true, error: "REVISION_CONFLICT" }]);
    expect(m.errors.find((e) => e.code === "REVISION_CONFLICT")).toMatchObject({ httpStatus: 412, class: "conflict", field: "expected_revision" });
  },
  pagination: (m) => {
    expect(op(m, "list_notes").pagination).toMatchObject({ style: "cursor", cursorField: "cursor", nextCursorField: "next_cursor", itemsField: "items", limitMax: 100, totalField: "matched", partialField: "partial", errorsField: "page_errors" });
  },
  filters: (m) => {
    expect(op(m, "list_notes").filters.map(({ loc: _loc, ...f }) => f)).toEqual([
      { field: "folder_id", property: null, match: null, bound: null, ends: null },
      { field: "tag", property: "tags", match: "contains", bound: null, ends: null },
      { field: "updated", property: "updated_at", match: "range", bound: null, ends: { fromInclusive: true, toInclusive: false } },
    ]);
  },
  task: (m) => {
    const o = op(m, "count_notes");
    expect(o.task).toMatchObject({ recordsExaminedField: "examined", completeField: "complete", continuationField: "resume_token", answerField: "count" });
    expect(o.filters.map((f) => f.field)).toEqual(["folder_id"]);
  },
  projection: (m) => {
    expect(op(m, "get_note").projection).toMatchObject({ field: "fields", selectable: ["title", "text"], identity: ["id"] });
  },
  errors: (m) => {
    expect(m.errors.find((e) => e.code === "NAME_TAKEN")).toMatchObject({ class: "conflict", action: "fix_field", httpStatus: 409, field: "name" });
    expect(m.errors.find((e) => e.code === "NAME_TAKEN")!.details).not.toBeNull();
    expect(m.errors.find((e) => e.code === "MAINTENANCE")).toMatchObject({ class: "transient", action: "retry_after", httpStatus: 503 });
    expect(m.errors.some((e) => e.code === "CONFLICT")).toBe(false);
    expect(op(m, "create_folder").errors.map((e) => e.code)).toEqual(["NAME_TAKEN", "MAINTENANCE"]);
  },
  mcp: (m) => {
    const search = op(m, "search_notes");
    expect(search.toolset).toBe("search");
    expect(search.names.tool).toBe("notes_search");
    expect(search.mcp).toMatchObject({ exposed: true, title: "Search notes" });
    expect(op(m, "reindex").mcp.exposed).toBe(false);
    expect(m.toolsets.map((t) => t.name)).toEqual(["search"]);
  },
  units: (_m, c) => {
    const props = c.operations.get_usage.output.properties;
    expect(props.amount_due).toMatchObject({ "x-unit": "cents", description: "Amount due, in cents." });
    expect(props.avg_latency).toMatchObject({ "x-unit": "ms", description: "Mean request latency, in milliseconds." });
    expect(c.types.Count["x-unit"]).toBe("bytes");
  },
  "error-codes": (m, c) => {
    expect(c.transport.http.errorFormat).toEqual({ style: "problem", code: "/code" });
    expect(op(m, "confirm_order").errors.map((e) => e.code)).toEqual(["ORDER_NOT_FOUND", "CONFIRMATION_REQUIRED", "INSUFFICIENT_STOCK"]);
    expect(op(m, "get_product").errors.map((e) => e.code)).toEqual(["PRODUCT_NOT_FOUND"]);
    expect(c.errors.INSUFFICIENT_STOCK).toMatchObject({ http: 409, class: "conflict", description: "a line asks for more than is in stock" });
    expect(c.errors.PRODUCT_NOT_FOUND).toMatchObject({ http: 404, description: "No product with this SKU." });
    expect(c.errors.NOT_FOUND).toBeUndefined();
  },
  taxonomy: (m) => {
    expect(m.errors.find((e) => e.code === "RATE_LIMITED")).toMatchObject({ action: "retry_same_key", httpStatus: 429 });
    expect(m.errors.find((e) => e.code === "QUOTA_EXCEEDED")).toMatchObject({ class: "rate_limited", action: "retry_after", httpStatus: 429 });
  },
  budget: (m) => {
    expect(m.budget).toMatchObject({ catalogTokens: 4000, maxTools: 10 });
  },
  transport: (m) => {
    expect(m.transport).toMatchObject({ baseUrl: "https://api.notes.example", baseUrlEnv: "NOTES_BASE_URL", timeoutMs: 10_000 });
  },
  changelog: (m) => {
    expect(m.changelog.map((e) => e.version)).toEqual(["1.1.0", "1.0.0"]);
    expect(m.changelog[0]!.changes[0]).toMatchObject({ kind: "unit", target: "/operations/get_usage/output/properties/amount_due" });
  },
};

describe("docs/openapi.md examples", () => {
  const examples = docExamples();
  it("has one tagged example per documented feature", () => {
    expect(examples.map(([name]) => name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });
  it.each(examples)("%s: imports, validates with no errors and declares the behaviour", async (name, text) => {
    const r = await importText(`${name}.yaml`, text);
    expect(r.errors).toEqual([]);
    expect(r.model).toBeDefined();
    expect(r.report.items.filter((i) => i.kind === "x-contract-invalid")).toEqual([]);
    EXPECTED[name]!(r.model!, r.contract);
  });
});

const doc = (paths: object, extra: object = {}): JsonObject =>
  JSON.parse(JSON.stringify({ openapi: "3.1.0", info: { title: "T", version: "1.0.0" }, servers: [{ url: "https://api.t.example" }], paths, ...extra }));
const body = (schema: object) => ({ required: true, content: { "application/json": { schema } } });
const json = (schema: object) => ({ content: { "application/json": { schema } } });

describe("merge patch", () => {
  it("follows RFC 7396: objects merge, null deletes, arrays and scalars replace", () => {
    const target: JsonObject = { a: { b: 1, c: 2 }, l: [1, 2], s: "x", keep: true };
    mergePatch(target, { a: { b: null, d: { e: 3, f: null } }, l: [3], s: { now: "object" }, gone: null });
    expect(target).toEqual({ a: { c: 2, d: { e: 3 } }, l: [3], s: { now: "object" }, keep: true });
  });

  it("patches an operation: null deletes a field, a list replaces the import's list", () => {
    const r = mapOpenApi(doc({
      "/things": {
        post: {
          operationId: "make_thing",
          summary: "Make a thing.",
          description: "A long description.",
          requestBody: body({ type: "object", required: ["a", "b"], properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } } }),
          responses: { "201": { description: "ok" }, "400": { description: "bad" }, "404": { description: "none" } },
          "x-contract": { description: null, input: { required: ["a"], properties: { b: null } }, errors: ["NOT_FOUND"], summary: "Make one thing." },
        },
      },
    }));
    const o = (r.contract.operations as any).make_thing;
    expect(o.description).toBeUndefined();
    expect(o.summary).toBe("Make one thing.");
    expect(o.input.required).toEqual(["a"]);
    expect(Object.keys(o.input.properties)).toEqual(["a", "c"]);
    expect(o.errors).toEqual(["NOT_FOUND"]);
  });
});

describe("effects", () => {
  it("removes effects.inferred when x-contract sets effects, unless the patch sets inferred itself", () => {
    const r = mapOpenApi(doc({
      "/a": { post: { operationId: "a", summary: "A.", responses: { "200": { description: "ok" } }, "x-contract": { effects: { idempotent: "natural" } } } },
      "/b": { post: { operationId: "b", summary: "B.", responses: { "200": { description: "ok" } }, "x-contract": { effects: { idempotent: "natural", inferred: true } } } },
      "/c": { post: { operationId: "c", summary: "C.", responses: { "200": { description: "ok" } }, "x-contract": { summary: "C!" } } },
    }));
    const ops = r.contract.operations as any;
    expect(ops.a.effects).toEqual({ kind: "mutating", idempotent: "natural", destructive: false });
    expect(ops.b.effects.inferred).toBe(true);
    expect(ops.c.effects.inferred).toBe(true);
  });
});

describe("error responses", () => {
  it("names the code for a status, merges the rest into its taxonomy entry, and keeps the derived code for other operations", () => {
    const r = mapOpenApi(doc({
      "/names": {
        put: {
          operationId: "rename",
          summary: "Rename.",
          responses: { "200": { description: "ok" }, "409": { description: "Name is stale.", "x-contract": { code: "STALE_NAME", action: "reread_and_replan", description: "The name changed since it was read." } } },
        },
        post: { operationId: "create", summary: "Create.", responses: { "201": { description: "ok" }, "409": { description: "Exists." } } },
      },
    }));
    const errors = r.contract.errors as any;
    expect(Object.keys(errors)).toEqual(["STALE_NAME", "CONFLICT"]);
    expect(errors.STALE_NAME).toEqual({ class: "conflict", action: "reread_and_replan", http: 409, description: "The name changed since it was read." });
    expect(errors.CONFLICT).toEqual({ class: "conflict", action: "reread_and_replan", http: 409, description: "Exists." });
    const ops = r.contract.operations as any;
    expect(ops.rename.errors).toEqual(["STALE_NAME"]);
    expect(ops.create.errors).toEqual(["CONFLICT"]);
    expect(r.origins.resolve("/errors/STALE_NAME").pointer).toBe("/paths/~1names/put/responses/409");
    expect(r.origins.resolve("/errors/STALE_NAME/description").pointer).toBe("/paths/~1names/put/responses/409/x-contract/description");
  });

  it("reads x-contract through a response $ref and locates it in the component", () => {
    const r = mapOpenApi(doc(
      { "/x": { delete: { operationId: "drop", summary: "Drop.", responses: { "204": { description: "ok" }, "423": { $ref: "#/components/responses/Locked" } } } } },
      { components: { responses: { Locked: { description: "Locked.", "x-contract": { code: "HELD", class: "conflict", action: "stop_and_surface" } } } } },
    ));
    expect((r.contract.errors as any).HELD).toMatchObject({ http: 423, action: "stop_and_surface" });
    expect(r.origins.resolve("/errors/HELD/action").pointer).toBe("/components/responses/Locked/x-contract/action");
  });
});

describe("one status, several codes", () => {
  it("a response's x-contract code may be a list: each code has the status, and the rest of the patch merges into each", () => {
    const r = mapOpenApi(doc({
      "/orders": {
        post: {
          operationId: "place_order",
          summary: "Place.",
          responses: { "201": { description: "ok" }, "409": { description: "Not placed.", "x-contract": { code: ["CONFIRMATION_REQUIRED", "INSUFFICIENT_STOCK"], action: "stop_and_surface" } } },
        },
      },
    }));
    const errors = r.contract.errors as any;
    expect(errors.CONFIRMATION_REQUIRED).toEqual({ class: "conflict", action: "stop_and_surface", http: 409, description: "Not placed." });
    expect(errors.INSUFFICIENT_STOCK).toEqual({ class: "conflict", action: "stop_and_surface", http: 409, description: "Not placed." });
    expect((r.contract.operations as any).place_order.errors).toEqual(["CONFIRMATION_REQUIRED", "INSUFFICIENT_STOCK"]);
    expect(r.items.filter((i) => i.kind === "x-contract-invalid")).toEqual([]);
  });
});

describe("input and output given as a bare $ref", () => {
  it("replaces the imported schema (a merge would keep the imported oneOf beside it); a $ref with other keywords still merges", () => {
    const out = { "200": { description: "ok", ...json({ oneOf: [{ $ref: "#/components/schemas/Book" }, { $ref: "#/components/schemas/Magazine" }] }) } };
    const r = mapOpenApi(doc({
      "/items/{id}": {
        get: {
          operationId: "get_item",
          summary: "Get.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: out,
          "x-contract": { output: { $ref: "#/types/Book" } },
        },
        put: {
          operationId: "put_item",
          summary: "Put.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: body({ $ref: "#/components/schemas/Book" }),
          responses: out,
          "x-contract": { output: { $ref: "#/types/Book", description: "The item." }, input: { $ref: "#/types/BookInput" } },
        },
      },
    }, { components: { schemas: { Book: { type: "object", properties: { id: { type: "string" } } }, Magazine: { type: "object" }, BookInput: { type: "object", required: ["id"], properties: { id: { type: "string" } } } } } }));
    const ops = r.contract.operations as any;
    expect(ops.get_item.output).toEqual({ $ref: "#/types/Book" });
    expect(ops.put_item.input).toEqual({ $ref: "#/types/BookInput" });
    expect(ops.put_item.output.oneOf).toHaveLength(2);
    expect(ops.put_item.output.$ref).toBe("#/types/Book");
    expect(r.origins.resolve("/operations/get_item/output").pointer).toBe("/paths/~1items~1{id}/get/x-contract/output");
  });
});

describe("the contract renamed by the root x-contract", () => {
  const secured = (schemes: object, security: object[], patch: object) => doc(
    { "/stock": { get: { operationId: "list_stock", summary: "List.", responses: { "200": { description: "ok" } } } } },
    { info: { title: "Warehouse Inventory API", version: "1.0.0" }, components: { securitySchemes: schemes }, security, "x-contract": patch },
  );
  it("renames the credential variables named after the title, as the base URL's follows the name", () => {
    const r = mapOpenApi(secured({ bearer: { type: "http", scheme: "bearer" } }, [{ bearer: [] }], { contract: "warehouse" }));
    expect(r.contract.contract).toBe("warehouse");
    expect((r.contract.transport as any).auth).toEqual({ type: "bearer", tokenEnv: "WAREHOUSE_TOKEN" });
    const named = mapOpenApi(secured(
      { basic: { type: "http", scheme: "basic" }, key: { type: "apiKey", in: "query", name: "api_key" } },
      [{ basic: [] }, { key: [] }],
      { contract: "warehouse", transport: { auth: { schemes: { key: { tokenEnv: "INVENTORY_KEY" } } } } },
    ));
    expect((named.contract.transport as any).auth.schemes).toEqual({
      basic: { type: "basic", usernameEnv: "WAREHOUSE_BASIC_USERNAME", passwordEnv: "WAREHOUSE_BASIC_PASSWORD" },
      key: { type: "apiKey", in: "query", name: "api_key", tokenEnv: "INVENTORY_KEY" },
    });
  });
});

describe("schemas", () => {
  it("keeps x-unit (also beside a 3.0 $ref), merges a schema's x-contract, drops other x- keywords and counts only those", () => {
    const d = doc({
      "/usage": {
        get: {
          operationId: "usage",
          summary: "Usage.",
          responses: {
            "200": {
              description: "ok",
              ...json({
                type: "object",
                "x-internal": true,
                properties: {
                  cost: { type: "integer", "x-unit": "cents", "x-vendor": 1 },
                  size: { $ref: "#/components/schemas/Size", "x-unit": "bytes" },
                  wait: { type: "number", "x-contract": { "x-unit": "ms", description: "Waited.", minimum: 0 } },
                },
              }),
            },
          },
        },
      },
    }, { openapi: "3.0.3", components: { schemas: { Size: { type: "integer" } } } });
    const r = mapOpenApi(d);
    const props = (r.contract.operations as any).usage.output.properties;
    expect(props.cost).toEqual({ type: "integer", "x-unit": "cents" });
    expect(props.size).toEqual({ $ref: "#/types/Size", "x-unit": "bytes" });
    expect(props.wait).toEqual({ type: "number", "x-unit": "ms", description: "Waited.", minimum: 0 });
    // A key a schema's x-contract set is located there.
    expect(r.origins.resolve("/operations/usage/output/properties/wait/description").pointer).toMatch(/\/properties\/wait\/x-contract\/description$/);
    expect(r.origins.resolve("/operations/usage/output/properties/wait/type").pointer).toMatch(/\/properties\/wait\/type$/);
    const dropped = r.items.find((i) => i.kind === "keyword-dropped" && i.pointer === "");
    expect(dropped?.message).toMatch(/^2 x- extensions dropped/);
  });
});

describe("origins", () => {
  it("records each key an operation's or the document's x-contract sets", () => {
    const r = mapOpenApi(doc({
      "/notes/{id}": {
        post: {
          operationId: "purge",
          summary: "Purge.",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }, { name: "dry_run", in: "query", schema: { type: "boolean" } }, { name: "token", in: "query", schema: { type: "string" } }],
          responses: { "200": { description: "ok" } },
          "x-contract": { preview: { dryRun: "dry_run", confirmToken: "token", ttl: "5m" }, effects: { destructive: true }, filters: ["id"] },
        },
      },
    }, { "x-contract": { budget: { maxTools: 3 }, transport: { http: { timeout: "5s" } } } }));
    const at = "/paths/~1notes~1{id}/post";
    expect(r.origins.resolve("/operations/purge/preview").pointer).toBe(`${at}/x-contract/preview`);
    expect(r.origins.resolve("/operations/purge/preview/ttl").pointer).toBe(`${at}/x-contract/preview/ttl`);
    expect(r.origins.resolve("/operations/purge/effects/destructive").pointer).toBe(`${at}/x-contract/effects/destructive`);
    expect(r.origins.resolve("/operations/purge/filters/0").pointer).toBe(`${at}/x-contract/filters/0`);
    // The import's own effects keep their origin (the operation).
    expect(r.origins.resolve("/operations/purge/effects/kind").pointer).toBe(`${at}/effects/kind`);
    expect(r.origins.resolve("/budget/maxTools").pointer).toBe("/x-contract/budget/maxTools");
    expect(r.origins.resolve("/transport/http/timeout").pointer).toBe("/x-contract/transport/http/timeout");
    expect(r.origins.resolve("/transport/http/baseUrl").pointer).toBe("/servers/http/baseUrl");
  });
});

describe("invalid x-contract", () => {
  it("reports a non-mapping x-contract (operation, response, schema, document) and ignores it", () => {
    const r = mapOpenApi(doc({
      "/a": {
        get: {
          operationId: "a",
          summary: "A.",
          "x-contract": ["effects"],
          responses: { "200": { description: "ok", ...json({ type: "string", "x-contract": "cents" }) }, "404": { description: "none", "x-contract": 7 } },
        },
      },
    }, { "x-contract": null }));
    const invalid = r.items.filter((i) => i.kind === "x-contract-invalid").map((i) => i.pointer).sort();
    expect(invalid).toEqual(["/paths/~1a/get/responses/200/content/application~1json/schema/x-contract", "/paths/~1a/get/responses/404/x-contract", "/paths/~1a/get/x-contract", "/x-contract"]);
    const o = (r.contract.operations as any).a;
    expect(o.effects).toEqual({ kind: "read", inferred: true });
    expect(o.output).toEqual({ type: "string" });
    expect(Object.keys(r.contract.errors as object)).toEqual(["NOT_FOUND"]);
  });
});

describe("x-contract where the import does not read it", () => {
  it("is reported (a 2xx response, a parameter, a 4XX range), but not inside example data or as a property name", () => {
    const r = mapOpenApi(doc({
      "/a": {
        get: {
          operationId: "a",
          summary: "A.",
          parameters: [{ name: "q", in: "query", schema: { type: "string" }, "x-contract": { filters: ["q"] }, example: { "x-contract": 1 } }],
          responses: {
            "200": { description: "ok", "x-contract": { code: "X" }, ...json({ type: "object", properties: { "x-contract": { type: "string" } }, example: { "x-contract": "data" } }) },
            "4XX": { description: "bad", "x-contract": { code: "BAD" } },
          },
        },
      },
    }));
    const ignored = r.items.filter((i) => i.kind === "x-contract-invalid").map((i) => i.pointer).sort();
    expect(ignored).toEqual(["/paths/~1a/get/parameters/0/x-contract", "/paths/~1a/get/responses/200/x-contract", "/paths/~1a/get/responses/4XX/x-contract"]);
    expect((r.contract.operations as any).a.output.properties["x-contract"]).toEqual({ type: "string" });
  });
});

describe("hostile", () => {
  it("x-contract keys __proto__ and constructor are data: no prototype is polluted", async () => {
    const text = `{
      "openapi": "3.1.0", "info": {"title": "T", "version": "1.0.0"}, "servers": [{"url": "https://api.t.example"}],
      "x-contract": {"__proto__": {"polluted": "root"}, "constructor": {"prototype": {"polluted": "ctor"}}},
      "paths": {"/a": {"get": {"operationId": "a", "summary": "A.",
        "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "x-contract": {"__proto__": {"polluted": "schema"}}}}}},
                      "404": {"description": "x", "x-contract": {"__proto__": {"polluted": "error"}, "code": "__proto__"}}},
        "x-contract": {"__proto__": {"polluted": "op"}, "effects": {"__proto__": {"polluted": "effects"}}, "constructor": {"prototype": {"polluted": "op-ctor"}}}}}}
    }`;
    const r = mapOpenApi(JSON.parse(text));
    expect(({} as any).polluted).toBeUndefined();
    expect((Object.prototype as any).polluted).toBeUndefined();
    const o = (r.contract.operations as any).a;
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(o)).toContain("__proto__");
    expect(Object.getOwnPropertyDescriptor(o, "__proto__")!.value).toEqual({ polluted: "op" });
    expect(Object.getOwnPropertyDescriptor(r.contract, "__proto__")!.value).toEqual({ polluted: "root" });
    expect(Object.getPrototypeOf(r.contract)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(r.contract.errors)).toContain("__proto__");
    // Through the whole import (YAML in and out), too: the contract is written, nothing is polluted.
    const file = join(ROOT, "hostile.json");
    writeFileSync(file, text);
    const imported = await importOpenApi(file);
    expect(imported.yaml).toContain("__proto__");
    expect(({} as any).polluted).toBeUndefined();
  });
});
