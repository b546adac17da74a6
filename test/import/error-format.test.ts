/**
 * `contractgen import-openapi` fills `transport.http.errorFormat` from the document's error responses
 * (problem details, a code in the API's own body, or the status alone), and a declared 4xx of the
 * imported API then reaches the SDK as its contract code, class and action.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { emitContractInfo } from "../../src/emit/sdk/errors.js";
import { importOpenApi } from "../../src/import/openapi/index.js";
import type { ContractModel } from "../../src/model/types.js";
import { ContractClient, type ContractInfo, type OperationSpec } from "../../src/runtime/client.js";
import type { ContractError, Taxonomy } from "../../src/runtime/errors.js";
import { parseContractText } from "../../src/contract/parse.js";

const ROOT = join(process.cwd(), "test-results", "import-error-format");

beforeAll(() => {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
});

async function imp(name: string, doc: object) {
  const file = join(ROOT, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  const r = await importOpenApi(file);
  if (!r.yaml) throw new Error(`${name}: ${r.problems.map((p) => `${p.code} ${p.message}`).join("; ")}`);
  const parsed = parseContractText(`${name}.yaml`, r.yaml);
  expect(parsed.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.location.pointer} ${d.message}`)).toEqual([]);
  return { contract: parse(r.yaml) as Record<string, any>, model: parsed.model!, items: r.report!.items };
}

const petPath = (responses: object) => ({
  "/pets/{id}": {
    get: {
      operationId: "getPet",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } }, ...responses },
    },
  },
});
const doc = (paths: object, components: object = {}) => ({ openapi: "3.1.0", info: { title: "Pets", version: "1.0.0" }, servers: [{ url: "https://pets.example" }], paths, components });
const withBody = (media: string, schema: object, description = "error") => ({ description, content: { [media]: { schema } } });

/** Call the imported operation through the SDK runtime as the generated client would, the platform answering `status` with `body`. */
async function sdkError(model: ContractModel, operation: string, status: number, body: string, contentType = "application/json"): Promise<ContractError> {
  const taxonomy = Object.create(null) as Record<string, Taxonomy[string]>;
  for (const e of model.errors) taxonomy[e.code] = { class: e.class, action: e.action, http: e.httpStatus, ...(e.wire !== null ? { wire: e.wire } : {}) };
  const info: ContractInfo = {
    name: model.name,
    version: model.version,
    baseUrl: "https://pets.example",
    baseUrlEnv: null,
    timeoutMs: 5000,
    auth: { type: "none" },
    taxonomy,
    ...(model.transport.errorFormat.style !== "envelope" ? { errorFormat: model.transport.errorFormat } : {}),
  };
  const op = model.operations.find((o) => o.names.id === operation)!;
  const ajv = new Ajv2020({ strict: false });
  const spec: OperationSpec = {
    id: op.names.id,
    method: op.http.method,
    path: op.http.path,
    bindings: op.http.bindings,
    mutating: op.effects.kind === "mutating",
    idempotent: op.effects.idempotent,
    keyField: null,
    preview: null,
    pagination: null,
    errors: op.errors.map((e) => e.code),
    validateInput: ajv.compile({}),
    validateOutput: ajv.compile({}),
    validatePreview: null,
  };
  const fetchImpl = (async () => new Response(body, { status, headers: { "content-type": contentType } })) as typeof fetch;
  const client = new ContractClient(info, { fetch: fetchImpl, journal: false, retry: { maxAttempts: 1 } });
  try {
    await client.call(spec, { id: "7" });
  } catch (e) {
    return e as ContractError;
  } finally {
    client.close();
  }
  throw new Error("the call succeeded");
}

describe("import-openapi: the error format", () => {
  // RFC 9457 responses make a problem-style contract; a 404 problem arrives as NOT_FOUND.
  it("application/problem+json error responses → style problem", async () => {
    const problem = { $ref: "#/components/schemas/Problem" };
    const { contract, model, items } = await imp("problem", doc(petPath({ "404": withBody("application/problem+json", problem, "No such pet"), "401": withBody("application/problem+json", problem) }), {
      schemas: { Problem: { type: "object", properties: { type: { type: "string" }, title: { type: "string" }, detail: { type: "string" } } } },
    }));
    expect(contract.transport.http.errorFormat).toEqual({ style: "problem" });
    expect(model.transport.errorFormat).toEqual({ style: "problem", code: "/type", message: "/detail", field: null });
    expect(items.find((i) => i.kind === "error-format-derived")?.pointer).toBe("/paths/~1pets~1{id}/get/responses/401/content/application~1problem+json");
    expect(emitContractInfo(model)).toContain('errorFormat: { style: "problem", code: "/type", message: "/detail", field: null },');

    const e = await sdkError(model, "get_pet", 404, JSON.stringify({ type: "about:blank", title: "Not Found", detail: "No pet 7." }), "application/problem+json");
    expect([e.code, e.errorClass, e.action, e.message, e.status]).toEqual(["NOT_FOUND", "not_found", "verify_identifier", "No pet 7.", 404]);
    const u = await sdkError(model, "get_pet", 401, JSON.stringify({ title: "Unauthorized" }), "application/problem+json");
    expect([u.code, u.errorClass, u.action, u.message]).toEqual(["UNAUTHENTICATED", "unauthenticated", "reauthenticate", "Unauthorized"]);
  });

  // An error schema with a string code property makes a body-style contract with pointers.
  it.each<[string, object, object]>([
    ["top-level code and message", { type: "object", properties: { code: { type: "string" }, message: { type: "string" } } }, { style: "body", code: "/code", message: "/message" }],
    ["error.code under an error object, field from param", { type: "object", properties: { error: { type: "object", properties: { type: { type: "string" }, code: { type: "string" }, message: { type: "string" }, param: { type: "string" } } } } }, { style: "body", code: "/error/code", message: "/error/message", field: "/error/param" }],
    ["error_code through allOf", { allOf: [{ type: "object", properties: { error_code: { type: "string", enum: ["a", "b"] } } }, { properties: { detail: { type: "string" } } }] }, { style: "body", code: "/error_code", message: "/detail" }],
    ["OAuth's error string", { type: "object", properties: { error: { type: "string" }, error_description: { type: "string" } } }, { style: "body", code: "/error", message: "/error_description" }],
  ])("an error schema with %s → style body", async (name, schema, want) => {
    const { contract, model } = await imp(`body-${name.replace(/\W+/g, "-")}`, doc(petPath({ "404": withBody("application/json", schema), "400": withBody("application/json", schema) })));
    expect(contract.transport.http.errorFormat).toEqual(want);
    const e = await sdkError(model, "get_pet", 404, JSON.stringify({ code: "resource_missing", message: "gone" }));
    expect([e.code, e.errorClass, e.action]).toEqual(["NOT_FOUND", "not_found", "verify_identifier"]);
  });

  // No body, or a body without a code: the status alone names the code, one per declared status.
  it("status-only error responses → style status; each declared 4xx arrives as its code", async () => {
    const { contract, model, items } = await imp("status", doc(petPath({
      "404": { description: "No such pet" },
      "400": withBody("application/json", { type: "object", properties: { status: { type: "integer" } } }),
      "429": { description: "Slow down" },
    })));
    expect(contract.transport.http.errorFormat).toEqual({ style: "status" });
    expect(contract.operations.get_pet.errors).toEqual(["BAD_REQUEST", "NOT_FOUND", "RATE_LIMITED"]);
    expect(items.find((i) => i.kind === "error-format-derived")?.message).toMatch(/style status, one error code per declared status/);
    for (const [status, code, cls, action] of [
      [404, "NOT_FOUND", "not_found", "verify_identifier"],
      [400, "BAD_REQUEST", "invalid_input", "fix_field"],
      [429, "RATE_LIMITED", "rate_limited", "retry_after"],
    ] as const) {
      const e = await sdkError(model, "get_pet", status, status === 400 ? '{"status":400}' : "");
      expect([e.code, e.errorClass, e.action, e.status]).toEqual([code, cls, action, status]);
    }
    // A status the operation does not declare (nor any code of the taxonomy) stays undeclared.
    expect((await sdkError(model, "get_pet", 418, "")).code).toBe("CLIENT_UNDECLARED_ERROR");
  });

  it("error bodies with a message but no code → style status, message read from its pointer", async () => {
    const schema = { type: "object", properties: { code: { type: "integer" }, message: { type: "string" }, more_info: { type: "string" } } };
    const { contract, model } = await imp("status-message", doc(petPath({ "404": withBody("application/json", schema), "401": withBody("application/json", schema) })));
    expect(contract.transport.http.errorFormat).toEqual({ style: "status", message: "/message" });
    const e = await sdkError(model, "get_pet", 404, JSON.stringify({ code: 20404, message: "The requested resource was not found" }));
    expect([e.code, e.errorClass, e.action, e.message]).toEqual(["NOT_FOUND", "not_found", "verify_identifier", "The requested resource was not found"]);
  });

  it("an error object's name is its code (YNAB's {error: {id, name, detail}})", async () => {
    const schema = { type: "object", properties: { error: { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, detail: { type: "string" } } } } };
    const { contract } = await imp("error-name", doc(petPath({ "404": withBody("application/json", schema) })));
    expect(contract.transport.http.errorFormat).toEqual({ style: "body", code: "/error/name", message: "/error/detail" });
  });

  it("a default error response counts; a default that is the success response does not", async () => {
    const problem = { type: "object", properties: { type: { type: "string" }, title: { type: "string" } } };
    const asError = await imp("default-error", doc(petPath({ default: withBody("application/problem+json", problem) })));
    expect(asError.contract.transport.http.errorFormat).toEqual({ style: "problem" });
    const asSuccess = await imp("default-success", doc({ "/ping": { get: { operationId: "ping", responses: { default: withBody("application/problem+json", problem) } } } }));
    expect(asSuccess.contract.transport.http.errorFormat).toEqual({ style: "status" });
  });

  it("a document without error responses → style status with the default BAD_REQUEST", async () => {
    const { contract } = await imp("none", doc(petPath({})));
    expect(contract.transport.http.errorFormat).toEqual({ style: "status" });
    expect(Object.keys(contract.errors)).toEqual(["BAD_REQUEST"]);
  });
});

describe("import-openapi: the API's own error codes", () => {
  const problemJson = (schema: object, description: string) => withBody("application/problem+json", schema, description);
  const problem = (code: object) => ({ allOf: [{ $ref: "#/components/schemas/Problem" }, { type: "object", properties: { code } }] });
  const Problem = { type: "object", properties: { type: { type: "string" }, title: { type: "string" }, detail: { type: "string" }, code: { type: "string" } } };
  const op = (operationId: string, responses: object) => ({
    operationId,
    parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
    responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } }, ...responses },
  });

  // Problem responses carrying a `code` member: codes from its enum/const, narrowed by the description; the SDK reads /code.
  it("reads codes from a problem's code member and the description; two different 404s are two codes", async () => {
    const { contract, model, items } = await imp("codes-problem", doc({
      "/orders/{id}": { post: op("confirmOrder", {
        "409": problemJson(problem({ enum: ["CONFIRMATION_REQUIRED", "INSUFFICIENT_STOCK"] }), "The order cannot go ahead:\n- `CONFIRMATION_REQUIRED`: the order needs a confirmation token\n- `INSUFFICIENT_STOCK`: not enough stock for a line"),
        "404": problemJson(problem({ const: "ORDER_NOT_FOUND" }), "No order with this id."),
      }) },
      "/warehouses/{id}": { get: op("getWarehouse", { "404": problemJson(problem({ const: "WAREHOUSE_NOT_FOUND" }), "No warehouse with this id.") }) },
    }, { schemas: { Problem } }));
    expect(contract.transport.http.errorFormat).toEqual({ style: "problem", code: "/code" });
    expect(contract.errors).toEqual({
      ORDER_NOT_FOUND: { class: "not_found", action: "verify_identifier", http: 404, description: "No order with this id." },
      WAREHOUSE_NOT_FOUND: { class: "not_found", action: "verify_identifier", http: 404, description: "No warehouse with this id." },
      CONFIRMATION_REQUIRED: { class: "conflict", action: "reread_and_replan", http: 409, description: "the order needs a confirmation token" },
      INSUFFICIENT_STOCK: { class: "conflict", action: "reread_and_replan", http: 409, description: "not enough stock for a line" },
    });
    expect(contract.operations.confirm_order.errors).toEqual(["ORDER_NOT_FOUND", "CONFIRMATION_REQUIRED", "INSUFFICIENT_STOCK"]);
    expect(contract.operations.get_warehouse.errors).toEqual(["WAREHOUSE_NOT_FOUND"]);
    expect(items.find((i) => i.kind === "error-format-derived")?.message).toMatch(/code at \/code/);
    // The SDK tells the two 409s apart by the body's code, not by the status.
    for (const code of ["INSUFFICIENT_STOCK", "CONFIRMATION_REQUIRED"]) {
      const e = await sdkError(model, "confirm_order", 409, JSON.stringify({ type: "about:blank", title: "Conflict", code, detail: "no" }), "application/problem+json");
      expect([e.code, e.errorClass, e.status]).toEqual([code, "conflict", 409]);
    }
    expect((await sdkError(model, "get_warehouse", 404, JSON.stringify({ code: "WAREHOUSE_NOT_FOUND" }), "application/problem+json")).code).toBe("WAREHOUSE_NOT_FOUND");
  });

  // An API spelling its codes in snake_case: the contract code is SCREAMING_SNAKE, bound to the API's value by `wire`.
  it("names codes after snake_case values with their wire value; examples count; a code-like /type enum is read, a URI is not", async () => {
    const body = (code: object) => ({ type: "object", properties: { error_code: { type: "string", ...code }, message: { type: "string" } } });
    const { contract, model } = await imp("codes-snake", doc(petPath({
      "402": withBody("application/json", body({ examples: ["card_declined"] }), "Payment refused."),
      "422": withBody("application/json", body({ enum: ["invalid_name", "name-too-long"] }), "The pet is not valid."),
    })));
    expect(contract.transport.http.errorFormat).toEqual({ style: "body", code: "/error_code", message: "/message" });
    expect(contract.errors.CARD_DECLINED).toMatchObject({ http: 402, wire: "card_declined" });
    expect(contract.errors.INVALID_NAME).toMatchObject({ http: 422, wire: "invalid_name", class: "invalid_input" });
    expect(contract.errors.NAME_TOO_LONG).toMatchObject({ http: 422, wire: "name-too-long" });
    expect(contract.operations.get_pet.errors).toEqual(["CARD_DECLINED", "INVALID_NAME", "NAME_TOO_LONG"]);
    const e = await sdkError(model, "get_pet", 422, JSON.stringify({ error_code: "name-too-long", message: "too long" }));
    expect([e.code, e.message]).toEqual(["NAME_TOO_LONG", "too long"]);

    const typed = (type: object) => ({ type: "object", properties: { type: { type: "string", ...type }, title: { type: "string" } } });
    const codeLike = await imp("codes-type-enum", doc(petPath({ "404": withBody("application/problem+json", typed({ enum: ["pet_missing"] }), "Gone.") })));
    expect(codeLike.contract.transport.http.errorFormat).toEqual({ style: "problem" });
    expect(codeLike.contract.errors.PET_MISSING).toMatchObject({ http: 404, wire: "pet_missing" });
    const uri = await imp("codes-type-uri", doc(petPath({ "404": withBody("application/problem+json", typed({ enum: ["https://pets.example/probs/missing"] }), "Gone.") })));
    expect(Object.keys(uri.contract.errors)).toEqual(["NOT_FOUND"]);
  });

  // Two API spellings that make the same contract code: the second is numbered and keeps its own wire value.
  it("two API values naming one contract code get two codes, each recognised by its wire value", async () => {
    const body = (values: string[]) => ({ type: "object", properties: { code: { type: "string", enum: values } } });
    const { contract, model, items } = await imp("codes-clash", doc(petPath({
      "400": withBody("application/json", body(["card.declined"]), "Refused."),
      "402": withBody("application/json", body(["card-declined", "PAYMENT_REQUIRED"]), "Payment refused."),
      "403": withBody("application/json", body(["CARD_DECLINED"]), "Not for this card."),
    })));
    expect(contract.errors.CARD_DECLINED).toMatchObject({ http: 400, wire: "card.declined" });
    expect(contract.errors.CARD_DECLINED_2).toMatchObject({ http: 402, wire: "card-declined" });
    expect(contract.operations.get_pet.errors).toEqual(["CARD_DECLINED", "CARD_DECLINED_2", "PAYMENT_REQUIRED", "FORBIDDEN"]);
    expect((await sdkError(model, "get_pet", 402, JSON.stringify({ code: "card-declined" }))).code).toBe("CARD_DECLINED_2");
    expect((await sdkError(model, "get_pet", 400, JSON.stringify({ code: "card.declined" }))).code).toBe("CARD_DECLINED");
    // The value CARD_DECLINED would name a code the API sends as card.declined: not read, the status names the 403's code.
    expect(items.find((i) => i.kind === "error-codes-read")?.message).toMatch(/"CARD_DECLINED" is the name of code CARD_DECLINED, which the API sends as "card.declined"/);
    expect(contract.errors.FORBIDDEN).toMatchObject({ http: 403 });
  });

  // One enum listing every code of the API, shared by all error responses, assigns nothing by itself.
  it("a code enum shared by responses of several statuses names a response's codes only through its description", async () => {
    const Error = { type: "object", properties: { code: { type: "string", enum: ["PET_NOT_FOUND", "PET_ASLEEP", "BAD_NAME"] }, message: { type: "string" } } };
    const ref = { $ref: "#/components/schemas/Error" };
    const { contract, items } = await imp("codes-shared", doc(petPath({
      "404": withBody("application/json", ref, "`PET_NOT_FOUND`: no such pet."),
      "409": withBody("application/json", ref, "The pet cannot be fetched now."),
    }), { schemas: { Error } }));
    expect(contract.operations.get_pet.errors).toEqual(["PET_NOT_FOUND", "CONFLICT"]);
    expect(contract.errors.PET_NOT_FOUND).toEqual({ class: "not_found", action: "verify_identifier", http: 404, description: "no such pet." });
    expect(items.find((i) => i.kind === "error-codes-read")?.message).toMatch(/shared by error responses of HTTP 404, 409.*HTTP 409 is named after its status/);
  });

  // Without a code member on the wire, a description's code names the status's one code; two cannot be told apart.
  it("codes named in descriptions with status-only errors: one per response is used, two fall back to the status", async () => {
    const { contract, items } = await imp("codes-described", doc({
      "/a/{id}": { get: op("getA", { "404": { description: "`A_NOT_FOUND`: no such a." }, "409": { description: "Either `A_LOCKED` or `A_ARCHIVED`." } }) },
      "/b/{id}": { get: op("getB", { "404": { description: "`B_NOT_FOUND` - no such b; mentions `id` and `b_id` in passing." } }) },
    }));
    expect(contract.transport.http.errorFormat).toEqual({ style: "status" });
    expect(contract.operations.get_a.errors).toEqual(["A_NOT_FOUND", "CONFLICT"]);
    expect(contract.operations.get_b.errors).toEqual(["B_NOT_FOUND"]);
    expect(contract.errors.B_NOT_FOUND.description).toBe("no such b; mentions");
    expect(items.find((i) => i.kind === "error-codes-read")?.message).toMatch(/names A_LOCKED, A_ARCHIVED, but the error bodies carry no code member/);
  });
});

describe("import-openapi: a default error response", () => {
  // Stripe: every operation's errors are `default`, an `error` object with its code.
  const stripeError = { type: "object", properties: { error: { type: "object", properties: { code: { type: "string" }, message: { type: "string" }, param: { type: "string" }, type: { type: "string", enum: ["api_error", "card_error", "invalid_request_error"] } } } } };

  it("is read as the API's error shape: a 4xx decodes as its conventional code, not CLIENT_UNDECLARED_ERROR", async () => {
    const { contract, model, items } = await imp("default-stripe", doc(petPath({ default: withBody("application/json", stripeError, "Error response.") })));
    expect(contract.transport.http.errorFormat).toEqual({ style: "body", code: "/error/code", message: "/error/message", field: "/error/param" });
    expect(Object.keys(contract.errors)).toEqual(["BAD_REQUEST", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED", "INTERNAL_ERROR", "SERVICE_UNAVAILABLE"]);
    expect(contract.operations.get_pet.errors).toBeUndefined();
    expect(items.find((i) => i.kind === "error-default-read")?.message).toMatch(/Operation get_pet declares errors only as a default response/);
    expect(items.some((i) => i.kind === "error-range-dropped")).toBe(false);
    for (const [status, code, cls] of [[404, "NOT_FOUND", "not_found"], [429, "RATE_LIMITED", "rate_limited"], [401, "UNAUTHENTICATED", "unauthenticated"], [503, "SERVICE_UNAVAILABLE", "transient"]] as const) {
      const e = await sdkError(model, "get_pet", status, JSON.stringify({ error: { code: "resource_missing", message: "nope" } }));
      expect([e.code, e.errorClass, e.status]).toEqual([code, cls, status]);
    }
  });

  it("names its codes from the schema's values, each with a status guessed from its name", async () => {
    const schema = { type: "object", properties: { code: { type: "string", enum: ["pet_not_found", "rate_limit_exceeded", "invalid_name"] }, message: { type: "string" } } };
    const { contract, model } = await imp("default-codes", doc(petPath({ default: withBody("application/json", schema, "Error.") })));
    expect(contract.errors.PET_NOT_FOUND).toMatchObject({ http: 404, class: "not_found", wire: "pet_not_found" });
    expect(contract.errors.RATE_LIMIT_EXCEEDED).toMatchObject({ http: 429, class: "rate_limited", wire: "rate_limit_exceeded" });
    expect(contract.errors.INVALID_NAME).toMatchObject({ http: 400, class: "invalid_input", wire: "invalid_name" });
    expect(contract.errors.NOT_FOUND).toBeUndefined();
    expect(contract.errors.FORBIDDEN).toMatchObject({ http: 403 });
    expect((await sdkError(model, "get_pet", 400, JSON.stringify({ code: "rate_limit_exceeded" }))).code).toBe("RATE_LIMIT_EXCEEDED");
  });

  it("beside declared error statuses stays unmapped, as before", async () => {
    const { contract, items } = await imp("default-beside", doc(petPath({ "404": { description: "No pet." }, default: withBody("application/json", stripeError) })));
    expect(Object.keys(contract.errors)).toEqual(["NOT_FOUND"]);
    expect(items.find((i) => i.kind === "error-range-dropped")?.pointer).toBe("/paths/~1pets~1{id}/get/responses/default");
  });
});
