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
