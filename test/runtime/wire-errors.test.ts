/**
 * The error binding at the runtime: recognizeError reads each style (envelope, problem, body, status)
 * into the contract's code, class and action, falls back to the status, and encodeError writes what
 * recognizeError reads back. The SDK client raises the contract code through it.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ContractClient, type ContractInfo, type OperationSpec, type Validator } from "../../src/runtime/client.js";
import { CLIENT_CODES, ContractError, NotFoundError, type Taxonomy, UnauthenticatedError } from "../../src/runtime/errors.js";
import { ENVELOPE_FORMAT, encodeError, type ErrorFormat, errorFormatOf, isJsonPointer, isStubAnswer, recognizeError, STUB_ERROR_CODE, STUB_ERROR_STATUS, valueAt } from "../../src/runtime/wire-errors.js";
import { FALLBACK_ERRORS, NotImplementedError } from "../../src/host-runtime/errors.js";

const taxonomy: Taxonomy = {
  NOT_FOUND: { class: "not_found", action: "verify_identifier", http: 404, wire: "https://example.com/probs/not-found" },
  GONE: { class: "not_found", action: "stop_and_surface", http: 410 },
  BAD_REQUEST: { class: "invalid_input", action: "fix_field", http: 400 },
  VALIDATION: { class: "invalid_input", action: "fix_field", http: 400, wire: "validation_failed" },
  UNAUTHENTICATED: { class: "unauthenticated", action: "reauthenticate", http: 401 },
};

const problem = errorFormatOf({ style: "problem", field: "/errors/0/field" });
const body = errorFormatOf({ style: "body", code: "/error/type", message: "/error/message" });
const status = errorFormatOf({ style: "status" });

describe("errorFormatOf", () => {
  // Defaults: problem reads /type and /detail; a format without errorFormat is the envelope.
  it.each<[string, Parameters<typeof errorFormatOf>[0], ErrorFormat]>([
    ["absent", undefined, ENVELOPE_FORMAT],
    ["envelope", { style: "envelope" }, ENVELOPE_FORMAT],
    ["problem", { style: "problem" }, { style: "problem", code: "/type", message: "/detail", field: null }],
    ["problem, own pointers", { style: "problem", code: "/code", message: "/title" }, { style: "problem", code: "/code", message: "/title", field: null }],
    ["body", { style: "body", code: "/error_code" }, { style: "body", code: "/error_code", message: null, field: null }],
    ["status", { style: "status", message: "/msg" }, { style: "status", code: null, message: "/msg", field: null }],
  ])("%s", (_, written, want) => {
    expect(errorFormatOf(written)).toEqual(want);
  });
});

describe("JSON pointers", () => {
  it.each([
    ["", true],
    ["/type", true],
    ["/a~1b/~0c", true],
    ["type", false],
    ["/a~2", false],
    ["/a~", false],
  ])("%j is a pointer: %s", (pointer, want) => {
    expect(isJsonPointer(pointer)).toBe(want);
  });

  it("reads own members and array items only", () => {
    const doc = { a: [{ "b/c": "x" }], "~": 1 };
    expect(valueAt(doc, "/a/0/b~1c")).toBe("x");
    expect(valueAt(doc, "/~0")).toBe(1);
    expect(valueAt(doc, "/a/01")).toBeUndefined();
    expect(valueAt(doc, "/constructor")).toBeUndefined();
    expect(valueAt(doc, "/__proto__")).toBeUndefined();
  });
});

describe("recognizeError", () => {
  it("envelope: the code the envelope names, as before", () => {
    const r = recognizeError(ENVELOPE_FORMAT, 404, { error: { code: "GONE", message: "gone", field: "id", details: { x: 1 }, operationId: "op-1", outcome: "rejected" } }, ["NOT_FOUND"], taxonomy);
    expect(r).toMatchObject({ code: "GONE", wireCode: "GONE", message: "gone", field: "id", details: { x: 1 }, operationId: "op-1", outcome: "rejected" });
    expect(r.entry?.class).toBe("not_found");
  });

  it("envelope: no status fallback (an envelope-less 404 names no code)", () => {
    expect(recognizeError(ENVELOPE_FORMAT, 404, { detail: "nope" }, ["NOT_FOUND"], taxonomy).code).toBeNull();
    expect(recognizeError(ENVELOPE_FORMAT, 404, { error: { code: "UNKNOWN" } }, ["NOT_FOUND"], taxonomy)).toMatchObject({ code: null, wireCode: "UNKNOWN" });
  });

  it("problem: the type selects the code by its wire value; detail is the message; field by pointer", () => {
    const r = recognizeError(problem, 404, { type: "https://example.com/probs/not-found", title: "Not Found", detail: "No pet 7.", errors: [{ field: "pet_id" }] }, ["NOT_FOUND"], taxonomy);
    expect(r).toMatchObject({ code: "NOT_FOUND", message: "No pet 7.", field: "pet_id", operationId: null, outcome: null });
    expect(r.details).toMatchObject({ title: "Not Found" });
  });

  it("problem: about:blank falls back to the status; title when there is no detail", () => {
    const r = recognizeError(problem, 404, { type: "about:blank", title: "Not Found" }, ["NOT_FOUND", "BAD_REQUEST"], taxonomy);
    expect(r).toMatchObject({ code: "NOT_FOUND", wireCode: "about:blank", message: "Not Found" });
  });

  it("problem: a code without a wire value is sent as itself", () => {
    expect(recognizeError(problem, 410, { type: "GONE" }, [], taxonomy).code).toBe("GONE");
  });

  it("body: the code at the pointer, by wire value", () => {
    const r = recognizeError(body, 400, { error: { type: "validation_failed", message: "name is required" } }, ["BAD_REQUEST", "VALIDATION"], taxonomy);
    expect(r).toMatchObject({ code: "VALIDATION", message: "name is required" });
  });

  it("body: an unknown code falls back to the one declared error of that status", () => {
    expect(recognizeError(body, 401, { error: { type: "token_expired" } }, ["UNAUTHENTICATED"], taxonomy)).toMatchObject({ code: "UNAUTHENTICATED", wireCode: "token_expired" });
  });

  it("status: the operation's one error with the status; ambiguity names none", () => {
    expect(recognizeError(status, 404, null, ["NOT_FOUND", "BAD_REQUEST"], taxonomy).code).toBe("NOT_FOUND");
    expect(recognizeError(status, 400, { type: "validation_failed" }, ["BAD_REQUEST", "VALIDATION"], taxonomy).code).toBeNull();
    expect(recognizeError(status, 418, "teapot", ["NOT_FOUND"], taxonomy).code).toBeNull();
  });

  it("status: an operation declaring none of the status takes the taxonomy's one code of it", () => {
    expect(recognizeError(status, 401, null, ["NOT_FOUND"], taxonomy).code).toBe("UNAUTHENTICATED");
    // Two codes of 400 in the taxonomy: none.
    expect(recognizeError(status, 400, null, ["NOT_FOUND"], taxonomy).code).toBeNull();
  });

  it("a code named like an Object.prototype member is no code", () => {
    expect(recognizeError(body, 404, { error: { type: "constructor" } }, [], taxonomy)).toMatchObject({ code: "NOT_FOUND", wireCode: "constructor" });
    expect(recognizeError(ENVELOPE_FORMAT, 404, { error: { code: "__proto__" } }, [], taxonomy).code).toBeNull();
  });
});

describe("isStubAnswer: a generated skeleton's stub, as the host encodes it, in every error format", () => {
  const formats: ErrorFormat[] = [ENVELOPE_FORMAT, errorFormatOf({ style: "problem" }), errorFormatOf({ style: "body", code: "/error_code", message: "/msg" }), errorFormatOf({ style: "status" })];
  const stubBody = (format: ErrorFormat) =>
    JSON.parse(JSON.stringify(encodeError(format, { code: STUB_ERROR_CODE, entry: null, status: STUB_ERROR_STATUS, message: new NotImplementedError("get_customer").message, field: null, details: null, operationId: "op-1", outcome: "rejected" }).body)) as unknown;
  const undeclared: Taxonomy = { CUSTOMER_NOT_FOUND: { class: "not_found", action: "verify_identifier", http: 404 } };
  const declaring: Taxonomy = { ...undeclared, NOT_IMPLEMENTED: { class: "internal", action: "stop_and_surface", http: 501 } };

  it("is the host's own NOT_IMPLEMENTED code and status", () => {
    expect(new NotImplementedError("x").code).toBe(STUB_ERROR_CODE);
    expect(FALLBACK_ERRORS[STUB_ERROR_CODE]?.httpStatus).toBe(STUB_ERROR_STATUS);
  });

  it("recognises the stub in each format unless the contract declares the code itself", () => {
    for (const format of formats) {
      const body = stubBody(format);
      expect(isStubAnswer(format, 501, recognizeError(format, 501, body, ["CUSTOMER_NOT_FOUND"], undeclared)), format.style).toBe(true);
      expect(isStubAnswer(format, 501, recognizeError(format, 501, body, ["CUSTOMER_NOT_FOUND"], declaring)), format.style).toBe(false);
    }
  });

  it("is not another 501, nor the stub's code under another status", () => {
    for (const format of formats.filter((f) => f.style !== "status")) {
      const other = format.style === "envelope" ? { error: { code: "GATEWAY_GONE", message: "x" } } : format.style === "problem" ? { type: "GATEWAY_GONE" } : { error_code: "GATEWAY_GONE" };
      expect(isStubAnswer(format, 501, recognizeError(format, 501, other, [], undeclared)), format.style).toBe(false);
      expect(isStubAnswer(format, 500, recognizeError(format, 500, stubBody(format), [], undeclared)), format.style).toBe(false);
    }
  });
});

describe("encodeError", () => {
  const outgoing = (code: string) => ({
    code,
    entry: taxonomy[code] ?? null,
    status: taxonomy[code]?.http ?? 500,
    message: "No pet 7.",
    field: "pet_id",
    details: { id: 7 },
    operationId: "req-1",
    outcome: "rejected" as const,
  });

  it("envelope: contractgen's envelope, members in their documented order", () => {
    const { body, contentType } = encodeError(ENVELOPE_FORMAT, outgoing("NOT_FOUND"));
    expect(contentType).toBe("application/json");
    expect(JSON.stringify(body)).toBe('{"error":{"code":"NOT_FOUND","message":"No pet 7.","field":"pet_id","details":{"id":7},"operationId":"req-1","outcome":"rejected"}}');
  });

  it("problem: type is the wire value, with title, status, detail and the field at its pointer", () => {
    const { body, contentType } = encodeError(problem, outgoing("NOT_FOUND"));
    expect(contentType).toBe("application/problem+json");
    expect(JSON.parse(JSON.stringify(body))).toEqual({ type: "https://example.com/probs/not-found", title: "NOT_FOUND", status: 404, detail: "No pet 7.", errors: [{ field: "pet_id" }] });
  });

  it.each<[string, ErrorFormat, string]>([
    ["problem", problem, "NOT_FOUND"],
    ["problem (code as itself)", problem, "GONE"],
    ["body", body, "VALIDATION"],
    ["status", status, "NOT_FOUND"],
    ["envelope", ENVELOPE_FORMAT, "GONE"],
  ])("%s: recognizeError reads back what encodeError wrote", (_, format, code) => {
    const { body: sent } = encodeError(format, outgoing(code));
    const r = recognizeError(format, taxonomy[code]!.http, JSON.parse(JSON.stringify(sent)), [code], taxonomy);
    expect(r.code).toBe(code);
    if (format.message !== null || format.style === "envelope") expect(r.message).toBe("No pet 7.");
  });

  it("the empty pointer: the body is the bare code, read back as such", () => {
    const format = errorFormatOf({ style: "body", code: "", message: "/message" });
    const { body: sent } = encodeError(format, outgoing("GONE"));
    expect(sent).toBe("GONE");
    expect(recognizeError(format, 410, sent, [], taxonomy).code).toBe("GONE");
  });

  it("pointer tokens from the contract stay ordinary members", () => {
    const format = errorFormatOf({ style: "body", code: "/__proto__/code", message: "/constructor" });
    const { body: sent } = encodeError(format, outgoing("GONE"));
    const text = JSON.stringify(sent);
    expect(JSON.parse(text)).toEqual(JSON.parse('{"__proto__":{"code":"GONE"},"constructor":"No pet 7."}'));
    expect(({} as Record<string, unknown>).code).toBeUndefined();
  });
});

// The SDK client: an error response in the declared format arrives as the contract code, class and action.
describe("ContractClient with an error format", () => {
  const ajv = new Ajv2020({ strict: false });
  const compile = (schema: object): Validator => ajv.compile(schema);
  const getPet: OperationSpec = {
    id: "get_pet",
    method: "GET",
    path: "/pets/{pet_id}",
    bindings: [{ field: "pet_id", in: "path", name: "pet_id" }],
    mutating: false,
    idempotent: "natural",
    keyField: null,
    preview: null,
    pagination: null,
    errors: ["NOT_FOUND", "BAD_REQUEST", "UNAUTHENTICATED"],
    validateInput: compile({ type: "object", required: ["pet_id"], properties: { pet_id: { type: "string" } } }),
    validateOutput: compile({ type: "object" }),
    validatePreview: null,
  };
  const clientFor = (errorFormat: ErrorFormat | undefined, status: number, text: string, contentType = "application/json") => {
    const contract: ContractInfo = {
      name: "pets",
      version: "1.0.0",
      baseUrl: "https://pets.example",
      baseUrlEnv: null,
      timeoutMs: 5000,
      auth: { type: "none" },
      taxonomy,
      ...(errorFormat ? { errorFormat } : {}),
    };
    const fetchImpl = (async () => new Response(text, { status, headers: { "content-type": contentType } })) as typeof fetch;
    return new ContractClient(contract, { fetch: fetchImpl, journal: false, retry: { maxAttempts: 1 } });
  };
  const failure = async (client: ContractClient): Promise<ContractError> => {
    try {
      await client.call(getPet, { pet_id: "7" });
    } catch (e) {
      return e as ContractError;
    } finally {
      client.close();
    }
    throw new Error("the call succeeded");
  };

  it("problem+json 404 → NOT_FOUND (not_found, verify_identifier), message from detail", async () => {
    const e = await failure(clientFor(problem, 404, JSON.stringify({ type: "https://example.com/probs/not-found", title: "Not Found", detail: "No pet 7." }), "application/problem+json"));
    expect(e).toBeInstanceOf(NotFoundError);
    expect([e.code, e.errorClass, e.action, e.message, e.status]).toEqual(["NOT_FOUND", "not_found", "verify_identifier", "No pet 7.", 404]);
  });

  it("status style: a bare 401 → UNAUTHENTICATED (reauthenticate)", async () => {
    const e = await failure(clientFor(status, 401, ""));
    expect(e).toBeInstanceOf(UnauthenticatedError);
    expect([e.code, e.action]).toEqual(["UNAUTHENTICATED", "reauthenticate"]);
    expect(e.message).toBe("get_pet failed with UNAUTHENTICATED.");
  });

  it("body style: the code at the pointer, message from its pointer", async () => {
    const e = await failure(clientFor(body, 400, JSON.stringify({ error: { type: "whatever", message: "pet_id is malformed" } })));
    expect([e.code, e.errorClass, e.message]).toEqual(["BAD_REQUEST", "invalid_input", "pet_id is malformed"]);
  });

  it("a status nothing declares is still CLIENT_UNDECLARED_ERROR, saying so", async () => {
    const e = await failure(clientFor(status, 418, "{}"));
    expect(e.code).toBe(CLIENT_CODES.undeclaredCode);
    expect(e.message).toMatch(/HTTP 418, which no declared error of the contract matches/);
  });

  it("without errorFormat an envelope-less 404 is undeclared, as before", async () => {
    const e = await failure(clientFor(undefined, 404, JSON.stringify({ type: "about:blank", title: "Not Found" })));
    expect(e.code).toBe(CLIENT_CODES.undeclaredCode);
    expect(e.message).toBe("get_pet: HTTP 404 without a contract error body.");
  });
});
