/**
 * The error-taxonomy, permission and reversibility checks on their own: which codes get a case, how an
 * undo call is derived, and that a provoked error fails the check on every way it can stray from the
 * taxonomy (code, status, field, action, an effect) — against a canned HTTP answer.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingScope, provokedCodes, provokedError } from "../../src/tests-runtime/checks-errors.js";
import { deriveUndoInput } from "../../src/tests-runtime/checks-undo.js";
import { type ContractSpec, type ErrorSpec, type Fixture, Harness, type OperationSpec } from "../../src/tests-runtime/harness.js";

const taxonomy = new Map<string, ErrorSpec>([
  ["INVALID_FIELD", { class: "invalid_input", action: "fix_field", http: 400, field: null, details: null }],
  ["THING_NOT_FOUND", { class: "not_found", action: "verify_identifier", http: 404, field: null, details: null }],
  ["TOO_MUCH", { class: "conflict", action: "reread_and_replan", http: 409, field: "amount", details: { type: "object", required: ["left"], properties: { left: { type: "integer" } } } }],
  ["KEY_REUSED", { class: "conflict", action: "stop_and_surface", http: 409, field: null, details: null }],
  ["STALE", { class: "conflict", action: "reread_and_replan", http: 412, field: "expected_revision", details: null }],
  ["TOKEN_INVALID", { class: "unauthenticated", action: "reauthenticate", http: 401, field: null, details: null }],
  ["FORBIDDEN_HERE", { class: "permission", action: "stop_and_surface", http: 403, field: null, details: null }],
  ["TIMEOUT", { class: "transient", action: "retry_same_key", http: 504, field: null, details: null }],
]);

const take: OperationSpec = {
  id: "take",
  method: "POST",
  path: "/things/{thing_id}/take",
  bindings: [{ field: "thing_id", in: "path", name: "thing_id" }],
  successStatus: 200,
  kind: "mutating",
  input: { type: "object", required: ["thing_id", "amount"], properties: { thing_id: { type: "string" }, amount: { type: "integer", minimum: 1 }, expected_revision: { type: "integer" } } },
  output: { type: "object" },
  errors: ["INVALID_FIELD", "THING_NOT_FOUND", "TOO_MUCH", "KEY_REUSED", "STALE", "TOKEN_INVALID", "FORBIDDEN_HERE", "TIMEOUT"],
  idempotency: { keyField: "idempotency_key", mismatchError: "KEY_REUSED" },
  preview: null,
  preconditions: [{ kind: "revision", field: "expected_revision", error: "STALE" }],
  pagination: null,
  scopes: ["things:write"],
};

const contract: ContractSpec = { name: "things", version: "1.0.0", auth: { type: "bearer", header: null }, taxonomy, operations: [take] };

describe("which codes the taxonomy cases provoke", () => {
  it("every listed code except those a dedicated check provokes, and permission when scopes are declared", () => {
    expect(provokedCodes(contract, take)).toEqual(["INVALID_FIELD", "THING_NOT_FOUND", "TOO_MUCH", "TOKEN_INVALID", "TIMEOUT"]);
    expect(provokedCodes(contract, { ...take, scopes: [] })).toContain("FORBIDDEN_HERE");
  });
});

describe("the undo call derived from the contract", () => {
  const assign: OperationSpec = {
    ...take,
    id: "assign",
    input: { type: "object", required: ["incident_id", "owner", "expected_revision"], properties: { incident_id: {}, owner: {}, expected_revision: {}, note: {} } },
    idempotency: null,
    undo: { operation: "assign", readWith: "get", expectations: [{ field: "expected_revision", compares: "revision" }] },
  };
  const before = { id: "INC-1", owner: "a-team", revision: 3 };
  const after = { id: "INC-1", owner: "b-team", revision: 4 };

  it("takes the overwritten values from before, the expectations from after, identifiers as called", () => {
    expect(deriveUndoInput(assign, assign, { incident_id: "INC-1", owner: "b-team", expected_revision: 3 }, before, after)).toEqual({
      incident_id: "INC-1",
      owner: "a-team",
      expected_revision: 4,
    });
  });

  it("gives up when a required field stays unknown", () => {
    expect(deriveUndoInput(assign, assign, { owner: "b-team", expected_revision: 3 }, before, after)).toBeUndefined();
  });
});

/** A platform answering every request with `answer`, and a fixture whose state changes when `effect` is set. */
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let state = 0;
let effect = false;
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (effect) state++;
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
});
let url = "";
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const fixture: Fixture = {
  get baseUrl() {
    return url;
  },
  token: "full-credential",
  async reset() {
    state = 0;
  },
  sampleInput: () => ({ thing_id: "t1", amount: 5 }),
  observe: async () => state,
  errorInput: (_op, code) => (code === "TOO_MUCH" ? { thing_id: "t1", amount: 500 } : undefined),
  tokenWithout: () => "limited-credential",
};
const h = new Harness(contract, fixture);

function error(code: string, extra: Record<string, unknown> = {}): { error: Record<string, unknown> } {
  return { error: { code, message: "no", field: null, details: null, outcome: "rejected", ...extra } };
}

describe("a provoked error must arrive as the taxonomy declares it", () => {
  const cases: Array<[what: string, status: number, body: unknown, failure: RegExp | null]> = [
    ["as declared", 409, error("TOO_MUCH", { field: "amount", details: { left: 3 } }), null],
    ["as an undeclared code", 404, error("NOT_FOUND"), /undeclared error code/],
    ["as another declared code", 404, error("THING_NOT_FOUND"), /must fail with TOO_MUCH \(class conflict\), got THING_NOT_FOUND/],
    ["with another status", 400, error("TOO_MUCH", { field: "amount" }), /answered with status 400, the taxonomy declares 409/],
    ["naming another field", 409, error("TOO_MUCH", { field: "thing_id" }), /must name the field the taxonomy ties it to \(amount\)/],
    ["with another recovery action", 409, error("TOO_MUCH", { field: "amount", action: "retry_same_key" }), /recovery action "retry_same_key", the taxonomy declares reread_and_replan/],
    ["with details off their schema", 409, error("TOO_MUCH", { field: "amount", details: { left: "3" } }), /details of TOO_MUCH do not match/],
    ["as a success", 200, {}, /must fail with TOO_MUCH .* but it succeeded/],
  ];
  for (const [what, status, body, failure] of cases) {
    it(what, async () => {
      answer = { status, body };
      effect = false;
      const result = provokedError(h, take, "TOO_MUCH");
      if (failure) await expect(result).rejects.toThrow(failure);
      else await expect(result).resolves.toBeUndefined();
    });
  }

  it("and change nothing when it says rejected", async () => {
    answer = { status: 409, body: error("TOO_MUCH", { field: "amount" }) };
    effect = true;
    await expect(provokedError(h, take, "TOO_MUCH")).rejects.toThrow(/a call refused with TOO_MUCH must have no effect/);
  });

  it("a missing credential is provoked from the contract alone", async () => {
    effect = false;
    answer = { status: 401, body: error("TOKEN_INVALID") };
    await expect(provokedError(h, take, "TOKEN_INVALID")).resolves.toBeUndefined();
    answer = { status: 403, body: error("FORBIDDEN_HERE") };
    await expect(provokedError(h, take, "TOKEN_INVALID")).rejects.toThrow(/a call without a credential must fail with TOKEN_INVALID/);
  });

  it("what neither the fixture nor the contract can provoke is skipped, saying so", async () => {
    await expect(provokedError(h, take, "THING_NOT_FOUND")).resolves.toEqual({
      skip: `the fixture cannot provoke THING_NOT_FOUND: fixture.errorInput(${JSON.stringify(take.id)}, "THING_NOT_FOUND") returned nothing — return parameters that make ${take.id} fail with THING_NOT_FOUND from the reset state`,
    });
  });
});

describe("a credential lacking a scope", () => {
  it("must be refused with the permission class, not a retryable one", async () => {
    effect = false;
    answer = { status: 403, body: error("FORBIDDEN_HERE") };
    await expect(missingScope(h, take, "things:write")).resolves.toBeUndefined();
    answer = { status: 504, body: error("TIMEOUT") };
    await expect(missingScope(h, take, "things:write")).rejects.toThrow(/lacking the scope things:write must be refused as permission, got TIMEOUT \(class transient/);
  });
});
