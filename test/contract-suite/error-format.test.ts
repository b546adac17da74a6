/**
 * A contract that declares RFC 9457 problem details (`errorFormat: { style: problem }`), round trip:
 * the reference host answers its errors as problems (wire values at /type, the field at its pointer),
 * the contract suite's checks accept them and refuse contractgen's envelope in their place, and the
 * SDK runtime raises the contract code, class and action from what the host sent.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Handlers, PlatformError, type RunningPlatform, startPlatform } from "../../examples/shared/host.js";
import { openDatabase } from "../../examples/shared/sqlite.js";
import type { ContractModel } from "../../src/model/types.js";
import { ContractClient, type ContractInfo, type OperationSpec as SdkOperation } from "../../src/runtime/client.js";
import { type ContractError, NotFoundError, type Taxonomy } from "../../src/runtime/errors.js";
import { provokedError } from "../../src/tests-runtime/checks-errors.js";
import { negativeCases, negativeInput } from "../../src/tests-runtime/checks.js";
import { type ContractSpec, ContractViolation, type ErrorSpec, Harness, type OperationSpec } from "../../src/tests-runtime/harness.js";
import { parseContractText } from "../../src/contract/parse.js";
import { errorResult, type ToolSpec } from "../../src/mcp-runtime/server.js";

const CONTRACT = `
contract: pets
version: "1.0.0"
changelog:
  - { version: "1.0.0", date: "2026-01-15", summary: First. }
transport:
  http:
    baseUrl: http://127.0.0.1:1
    errorFormat:
      style: problem
      field: /invalid_params/0/name
errors:
  PET_NOT_FOUND:
    class: not_found
    action: verify_identifier
    http: 404
    field: pet_id
    wire: https://pets.example/probs/not-found
  INVALID_FIELD: { class: invalid_input, action: fix_field, http: 400 }
operations:
  get_pet:
    summary: Read a pet.
    http: { method: GET, path: "/pets/{pet_id}" }
    effects: { kind: read }
    input:
      type: object
      required: [pet_id]
      properties:
        pet_id: { type: string, minLength: 2 }
        tag: { type: string, maxLength: 5 }
    output:
      type: object
      required: [id]
      properties: { id: { type: string } }
    errors: [PET_NOT_FOUND, INVALID_FIELD]
`;

function model(text = CONTRACT): ContractModel {
  const parsed = parseContractText("pets.yaml", text);
  expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return parsed.model!;
}

/** What tests/contract.ts holds for this contract (src/emit/tests/suite.ts), reduced to what these checks read. */
function contractSpec(m: ContractModel): ContractSpec {
  const taxonomy = new Map<string, ErrorSpec>(m.errors.map((e) => [e.code, { class: e.class, action: e.action, http: e.httpStatus, field: e.field, details: null, wire: e.wire }]));
  const operations: OperationSpec[] = m.operations.map((op) => ({
    id: op.names.id,
    method: op.http.method,
    path: op.http.path,
    bindings: op.http.bindings,
    successStatus: op.http.successStatus,
    kind: op.effects.kind,
    input: op.input.schema,
    output: op.output.schema,
    errors: op.errors.map((e) => e.code),
    idempotency: null,
    preview: null,
    preconditions: [],
    pagination: null,
  }));
  return { name: m.name, version: m.version, auth: { type: "none", header: null }, taxonomy, operations, errorFormat: m.transport.errorFormat };
}

const handlers: Handlers = {
  get_pet: (input: { pet_id: string }) => {
    if (input.pet_id === "missing") throw new PlatformError("PET_NOT_FOUND", `No pet ${input.pet_id}.`);
    return { id: input.pet_id };
  },
};

let platform: RunningPlatform;
let m: ContractModel;
let harness: Harness;

beforeAll(async () => {
  m = model();
  platform = await startPlatform({ spec: m, handlers, db: openDatabase(), log: () => {} });
  harness = new Harness(contractSpec(m), {
    baseUrl: platform.url,
    reset: async () => {},
    sampleInput: () => ({ pet_id: "rex" }),
    errorInput: (_op, code) => (code === "PET_NOT_FOUND" ? { pet_id: "missing" } : undefined),
  });
});

afterAll(async () => {
  await platform.close();
  platform.db.close();
});

describe("the reference host answers in the declared format", () => {
  it("a handler's error is a problem: wire value at /type, code as title, status, detail, the field at its pointer", async () => {
    const response = await fetch(`${platform.url}/pets/missing`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toEqual({
      type: "https://pets.example/probs/not-found",
      title: "PET_NOT_FOUND",
      status: 404,
      detail: "No pet missing.",
      invalid_params: [{ name: "pet_id" }],
    });
  });

  it("the host's own invalid-input answer is a problem too (a code without wire is sent as itself)", async () => {
    const response = await fetch(`${platform.url}/pets/x`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: "INVALID_FIELD", title: "INVALID_FIELD", status: 400, invalid_params: [{ name: "pet_id" }] });
  });
});

describe("the contract suite expects the declared format", () => {
  it("the host's problem is the declared error, with its field", async () => {
    const op = harness.operation("get_pet");
    const e = harness.expectDeclaredError(op, await harness.call(op, { pet_id: "missing" }));
    expect([e.code, e.field, e.envelope]).toEqual(["PET_NOT_FOUND", "pet_id", null]);
  });

  it("the taxonomy checks pass against the host (provoked by the fixture, and by a broken input)", async () => {
    const op = harness.operation("get_pet");
    await expect(provokedError(harness, op, "PET_NOT_FOUND")).resolves.toBeUndefined();
    expect(await provokedError(harness, op, "INVALID_FIELD")).toBeUndefined();
  });
});

describe("a platform that answers with the envelope where problems are declared", () => {
  let server: Server;
  let envelopeHarness: Harness;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "PET_NOT_FOUND", message: "No pet.", field: "pet_id" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    envelopeHarness = new Harness(contractSpec(m), { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reset: async () => {}, sampleInput: () => ({ pet_id: "rex" }) });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("is a violation: the error is not problem details", async () => {
    const op = envelopeHarness.operation("get_pet");
    const exchange = await envelopeHarness.call(op, { pet_id: "missing" });
    expect(() => envelopeHarness.expectDeclaredError(op, exchange)).toThrow(ContractViolation);
    expect(() => envelopeHarness.expectDeclaredError(op, exchange)).toThrow(/not problem details \(RFC 9457\)/);
  });
});

describe("the SDK runtime against the host", () => {
  it("raises PET_NOT_FOUND (not_found, verify_identifier) with the host's message and field", async () => {
    const taxonomy = Object.create(null) as Record<string, Taxonomy[string]>;
    for (const e of m.errors) taxonomy[e.code] = { class: e.class, action: e.action, http: e.httpStatus, ...(e.wire !== null ? { wire: e.wire } : {}) };
    const info: ContractInfo = { name: "pets", version: "1.0.0", baseUrl: platform.url, baseUrlEnv: null, timeoutMs: 5000, auth: { type: "none" }, taxonomy, errorFormat: m.transport.errorFormat };
    const op = m.operations[0]!;
    const ajv = new Ajv2020({ strict: false });
    const spec: SdkOperation = {
      id: op.names.id,
      method: op.http.method,
      path: op.http.path,
      bindings: op.http.bindings,
      mutating: false,
      idempotent: "natural",
      keyField: null,
      preview: null,
      pagination: null,
      errors: op.errors.map((e) => e.code),
      validateInput: ajv.compile({}),
      validateOutput: ajv.compile({}),
      validatePreview: null,
    };
    const client = new ContractClient(info, { journal: false, retry: { maxAttempts: 1 } });
    let error: ContractError | undefined;
    try {
      await client.call(spec, { pet_id: "missing" });
    } catch (e) {
      error = e as ContractError;
    } finally {
      client.close();
    }
    expect(error).toBeInstanceOf(NotFoundError);
    expect([error!.code, error!.errorClass, error!.action, error!.message, error!.field]).toEqual(["PET_NOT_FOUND", "not_found", "verify_identifier", "No pet missing.", "pet_id"]);
  });
});

describe("style status: the host answers the status alone, and the checks ask no more of it", () => {
  const STATUS_CONTRACT = CONTRACT.replace("      style: problem\n      field: /invalid_params/0/name\n", "      style: status\n").replace(/\n    wire: .*\n/, "\n");
  let statusPlatform: RunningPlatform;
  let h: Harness;
  beforeAll(async () => {
    const sm = model(STATUS_CONTRACT);
    expect(sm.transport.errorFormat).toEqual({ style: "status", code: null, message: null, field: null });
    statusPlatform = await startPlatform({ spec: sm, handlers, db: openDatabase(), log: () => {} });
    h = new Harness(contractSpec(sm), {
      baseUrl: statusPlatform.url,
      reset: async () => {},
      sampleInput: () => ({ pet_id: "rex" }),
      errorInput: (_op, code) => (code === "PET_NOT_FOUND" ? { pet_id: "missing" } : undefined),
    });
  });
  afterAll(async () => {
    await statusPlatform.close();
    statusPlatform.db.close();
  });

  it("a handler's error is its status with an empty object", async () => {
    const response = await fetch(`${statusPlatform.url}/pets/missing`);
    expect([response.status, await response.text()]).toEqual([404, "{}"]);
  });

  it("the taxonomy and negative-input checks pass: the status names the code, and no field is asked for", async () => {
    const op = h.operation("get_pet");
    expect(await provokedError(h, op, "PET_NOT_FOUND")).toBeUndefined();
    expect(await provokedError(h, op, "INVALID_FIELD")).toBeUndefined();
    const cases = negativeCases(op);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(await negativeInput(h, op, c)).toBeUndefined();
  });
});

describe("a problem with a code member (`code: /code`): the code must be there, the status alone is not enough", () => {
  const CODE_MEMBER_CONTRACT = CONTRACT.replace("      style: problem\n", "      style: problem\n      code: /code\n").replace("    wire: https://pets.example/probs/not-found\n", "    wire: pet_not_found\n");
  let correct: RunningPlatform;
  let seeded: RunningPlatform;
  const harnessOn = (p: RunningPlatform, cm: ContractModel) =>
    new Harness(contractSpec(cm), {
      baseUrl: p.url,
      reset: async () => {},
      sampleInput: () => ({ pet_id: "rex" }),
      errorInput: (_op, code) => (code === "PET_NOT_FOUND" ? { pet_id: "missing" } : undefined),
    });
  let cm: ContractModel;
  beforeAll(async () => {
    cm = model(CODE_MEMBER_CONTRACT);
    expect(cm.transport.errorFormat).toMatchObject({ style: "problem", code: "/code" });
    correct = await startPlatform({ spec: cm, handlers, db: openDatabase(), log: () => {} });
    seeded = await startPlatform({ spec: cm, handlers, db: openDatabase(), log: () => {}, defect: "code-member-by-status" });
  });
  afterAll(async () => {
    for (const p of [correct, seeded]) {
      await p.close();
      p.db.close();
    }
  });

  it("the correct host carries each code's wire value there, and the taxonomy and negative-input checks pass", async () => {
    const response = await fetch(`${correct.url}/pets/missing`);
    expect(await response.json()).toMatchObject({ code: "pet_not_found", status: 404 });
    const h = harnessOn(correct, cm);
    const op = h.operation("get_pet");
    expect(await provokedError(h, op, "PET_NOT_FOUND")).toBeUndefined();
    for (const c of negativeCases(op)) expect(await negativeInput(h, op, c)).toBeUndefined();
  });

  it("the seeded defect code-member-by-status (a generic code, the right status) fails the checks meant for it", async () => {
    const response = await fetch(`${seeded.url}/pets/missing`);
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([404, "error"]);
    const h = harnessOn(seeded, cm);
    const op = h.operation("get_pet");
    await expect(provokedError(h, op, "PET_NOT_FOUND")).rejects.toThrow(/the error format puts the code at \/code: this PET_NOT_FOUND \(status 404\) must carry "pet_not_found" there, but the error carries "error" there; only its status matches PET_NOT_FOUND/);
    await expect(negativeInput(h, op, negativeCases(op)[0]!)).rejects.toThrow(/this INVALID_FIELD \(status 400\) must carry "INVALID_FIELD" there/);
  });
});

describe("RFC 9457's own type member: a problem without one, or about:blank, says its status", () => {
  let server: Server;
  let answer: unknown;
  let h: Harness;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(404, { "content-type": "application/problem+json" });
      res.end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    h = new Harness(contractSpec(m), { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reset: async () => {}, sampleInput: () => ({ pet_id: "rex" }) });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("about:blank and no type are the status's declared error; another type, where the contract binds types, is refused", async () => {
    const op = h.operation("get_pet");
    for (const body of [{ type: "about:blank", title: "Not Found", status: 404 }, { title: "Not Found", status: 404 }]) {
      answer = body;
      expect(h.expectDeclaredError(op, await h.call(op, { pet_id: "missing" })).code).toBe("PET_NOT_FOUND");
    }
    answer = { type: "https://pets.example/probs/gone", title: "Gone", status: 404 };
    const exchange = await h.call(op, { pet_id: "missing" });
    expect(() => h.expectDeclaredError(op, exchange)).toThrow(/must carry "https:\/\/pets.example\/probs\/not-found" there, but the error carries "https:\/\/pets.example\/probs\/gone" there/);
  });
});

describe("a field named as the wire names it is the input field, in the suite and in the SDK", () => {
  let server: Server;
  let h: Harness;
  let url: string;
  const bindings = [{ field: "pet_id", in: "path", name: "petId" }, { field: "tag", in: "query", name: "Tag" }] as const;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(400, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ type: "INVALID_FIELD", title: "Bad", status: 400, invalid_params: [{ name: "petId" }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const spec = contractSpec(m);
    h = new Harness({ ...spec, operations: spec.operations.map((o) => ({ ...o, path: "/pets/{petId}", bindings })) }, { baseUrl: url, reset: async () => {}, sampleInput: () => ({ pet_id: "rex" }) });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("the suite reads petId as pet_id, keeping what the platform said", async () => {
    const op = h.operation("get_pet");
    const e = h.expectDeclaredError(op, await h.call(op, { pet_id: "rex" }));
    expect([e.code, e.field, e.wireField]).toEqual(["INVALID_FIELD", "pet_id", "petId"]);
  });

  it("the SDK's ContractError names pet_id, with wireField petId (and the CLI's JSON carries both)", async () => {
    const taxonomy = Object.create(null) as Record<string, Taxonomy[string]>;
    for (const e of m.errors) taxonomy[e.code] = { class: e.class, action: e.action, http: e.httpStatus, ...(e.wire !== null ? { wire: e.wire } : {}) };
    const info: ContractInfo = { name: "pets", version: "1.0.0", baseUrl: url, baseUrlEnv: null, timeoutMs: 5000, auth: { type: "none" }, taxonomy, errorFormat: m.transport.errorFormat };
    const ajv = new Ajv2020({ strict: false });
    const spec: SdkOperation = {
      id: "get_pet",
      method: "GET",
      path: "/pets/{petId}",
      bindings,
      mutating: false,
      idempotent: "natural",
      keyField: null,
      preview: null,
      pagination: null,
      errors: ["PET_NOT_FOUND", "INVALID_FIELD"],
      validateInput: ajv.compile({}),
      validateOutput: ajv.compile({}),
      validatePreview: null,
    };
    const client = new ContractClient(info, { journal: false, retry: { maxAttempts: 1 } });
    let error: ContractError | undefined;
    try {
      await client.call(spec, { pet_id: "rex" });
    } catch (e) {
      error = e as ContractError;
    } finally {
      client.close();
    }
    expect([error!.code, error!.field, error!.wireField]).toEqual(["INVALID_FIELD", "pet_id", "petId"]);
    expect(error!.toJSON()).toMatchObject({ field: "pet_id", wireField: "petId" });
    // The MCP server's tool error says the same.
    const result = errorResult({ operation: "get_pet" } as ToolSpec, error);
    expect(JSON.parse((result.content[0] as { text: string }).text).error).toMatchObject({ code: "INVALID_FIELD", field: "pet_id", wireField: "petId" });
  });
});
