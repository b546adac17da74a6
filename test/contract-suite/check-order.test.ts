/**
 * Checks that accept every refusal a correct server may give first, whatever order it checks in,
 * and state the accepted set when they fail: a spent token reused after a confirmed release (not
 * found before the token is looked at), and a malformed expectation (refused as stale rather than
 * as invalid input). A small hand-written server plays each order, and the wrong answers beside them.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notFoundAtExecution } from "../../src/tests-runtime/checks-behaviour.js";
import { negativeCases, negativeInput, tokenSingleUse } from "../../src/tests-runtime/checks.js";
import { type ContractSpec, type ErrorSpec, Harness, type OperationSpec } from "../../src/tests-runtime/harness.js";

/** How the server answers a second execution with a spent token, and a malformed If-Match. */
type Order = "not-found-first" | "token-first" | "state-bound" | "unrelated-refusal" | "executes-again" | "executes-missing";
let order: Order = "not-found-first";
let malformedAnswer: "stale" | "invalid" | "unrelated" = "stale";

const reservations = new Set<string>();
const tokens = new Map<string, { id: string; used: boolean }>();
const envelope = (code: string, field: string | null = null) => ({ error: { code, message: code, field } });

function answer(status: number, body: unknown): { status: number; body: unknown } {
  return { status, body };
}

function handle(method: string, url: URL, headers: Record<string, string | string[] | undefined>): { status: number; body: unknown } {
  const release = /^\/reservations\/([a-z0-9_]+)$/.exec(url.pathname);
  if (release && method === "DELETE") {
    const id = release[1]!;
    const token = url.searchParams.get("confirm_token");
    if (url.searchParams.get("dry_run") !== "false") {
      if (!reservations.has(id)) return answer(404, envelope("RESERVATION_NOT_FOUND", "reservation_id"));
      const t = randomBytes(9).toString("base64url");
      tokens.set(t, { id, used: false });
      return answer(200, { reservation_id: id, confirm_token: t });
    }
    const record = token === null ? undefined : tokens.get(token);
    const tokenValid = record !== undefined && record.id === id && !record.used;
    if (record?.used && order === "unrelated-refusal") return answer(409, envelope("KEY_REUSED"));
    if (record?.used && order === "executes-again") return answer(200, { reservation_id: id, released: true });
    if ((order === "token-first" || order === "state-bound") && !tokenValid) return answer(409, envelope("CONFIRMATION_INVALID"));
    if (!reservations.has(id) && order !== "executes-missing") return answer(404, envelope("RESERVATION_NOT_FOUND", "reservation_id"));
    if (!tokenValid) return answer(409, envelope("CONFIRMATION_INVALID"));
    record.used = true;
    reservations.delete(id);
    // A server binding its tokens to the state they previewed: every other token of this object is void now.
    if (order === "state-bound") for (const [t, r] of tokens) if (r.id === id && t !== token) tokens.delete(t);
    return answer(200, { reservation_id: id, released: true });
  }
  if (url.pathname === "/items/adjust" && method === "POST") {
    const ifMatch = headers["if-match"];
    if (typeof ifMatch !== "string") return answer(400, envelope("VALIDATION_FAILED", "If-Match"));
    if (ifMatch !== "r00000001") {
      if (!/^r[0-9a-f]{8}$/.test(ifMatch) && malformedAnswer === "invalid") return answer(400, envelope("VALIDATION_FAILED", "If-Match"));
      if (!/^r[0-9a-f]{8}$/.test(ifMatch) && malformedAnswer === "unrelated") return answer(409, envelope("KEY_REUSED"));
      return answer(412, envelope("STOCK_CHANGED", "If-Match"));
    }
    return answer(200, { adjusted: true });
  }
  return answer(404, envelope("RESERVATION_NOT_FOUND"));
}

const TAXONOMY = new Map<string, ErrorSpec>([
  ["VALIDATION_FAILED", { class: "invalid_input", action: "fix_field", http: 400, field: null, details: null }],
  ["RESERVATION_NOT_FOUND", { class: "not_found", action: "verify_identifier", http: 404, field: "reservation_id", details: null }],
  ["CONFIRMATION_INVALID", { class: "conflict", action: "reread_and_replan", http: 409, field: null, details: null }],
  ["KEY_REUSED", { class: "conflict", action: "stop_and_surface", http: 409, field: null, details: null }],
  ["STOCK_CHANGED", { class: "conflict", action: "reread_and_replan", http: 412, field: "if_match", details: null }],
]);

const RELEASE: OperationSpec = {
  id: "release_reservation",
  method: "DELETE",
  path: "/reservations/{reservation_id}",
  bindings: [
    { field: "reservation_id", in: "path", name: "reservation_id" },
    { field: "dry_run", in: "query", name: "dry_run" },
    { field: "confirm_token", in: "query", name: "confirm_token" },
    { field: "idempotency_key", in: "header", name: "Idempotency-Key" },
  ],
  successStatus: 200,
  kind: "mutating",
  input: { type: "object", required: ["reservation_id"], properties: { reservation_id: { type: "string" }, dry_run: { type: "boolean" }, confirm_token: { type: "string" }, idempotency_key: { type: "string" } } },
  output: true,
  errors: ["VALIDATION_FAILED", "RESERVATION_NOT_FOUND", "CONFIRMATION_INVALID", "KEY_REUSED"],
  idempotency: { keyField: "idempotency_key", mismatchError: "KEY_REUSED" },
  preview: { dryRunField: "dry_run", confirmTokenField: "confirm_token", invalidTokenError: "CONFIRMATION_INVALID", ttlMs: 300_000, output: null },
  preconditions: [],
  pagination: null,
  destructive: true,
};

const ADJUST: OperationSpec = {
  id: "adjust_stock",
  method: "POST",
  path: "/items/adjust",
  bindings: [
    { field: "if_match", in: "header", name: "If-Match" },
    { field: "delta", in: "body", name: "delta" },
  ],
  successStatus: 200,
  kind: "mutating",
  input: { type: "object", required: ["if_match", "delta"], properties: { if_match: { type: "string", pattern: "^r[0-9a-f]{8}$" }, delta: { type: "integer" } } },
  output: true,
  errors: ["VALIDATION_FAILED", "KEY_REUSED", "STOCK_CHANGED"],
  idempotency: null,
  preview: null,
  preconditions: [{ kind: "revision", field: "if_match", compares: "etag", required: true, error: "STOCK_CHANGED" }],
  pagination: null,
};

let server: Server;
let h: Harness;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const { status, body } = handle(req.method ?? "GET", new URL(req.url ?? "/", "http://localhost"), req.headers);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const contract: ContractSpec = { name: "orders", version: "1.0.0", auth: { type: "none", header: null }, taxonomy: TAXONOMY, operations: [RELEASE, ADJUST] };
  h = new Harness(contract, {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reset: async () => {
      reservations.clear();
      reservations.add("res_a1b2c3");
      tokens.clear();
    },
    sampleInput: (op) => (op === "release_reservation" ? { reservation_id: "res_a1b2c3" } : { if_match: "r00000001", delta: 1 }),
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("a spent confirm token reused after a confirmed release", () => {
  it("is refused correctly with not found first (the reservation is gone) or with the token's error first", async () => {
    for (const o of ["not-found-first", "token-first"] as const) {
      order = o;
      expect(await tokenSingleUse(h, RELEASE)).toBeUndefined();
    }
  });

  it("fails, listing every refusal it accepts, when the server answers something else or executes again", async () => {
    order = "unrelated-refusal";
    await expect(tokenSingleUse(h, RELEASE)).rejects.toThrow(
      "release_reservation: a used single-use confirm token must be refused: expected CONFIRMATION_INVALID (the promise's own error) or RESERVATION_NOT_FOUND (what a preview of the same parameters answers now), got KEY_REUSED",
    );
    order = "executes-again";
    await expect(tokenSingleUse(h, RELEASE)).rejects.toThrow("a used single-use confirm token must be refused, but it succeeded (200)");
  });
});

describe("an execution against the object an earlier execution removed, with a token taken before", () => {
  it("is refused correctly as not found, or as an invalid token by a server binding tokens to the state they previewed", async () => {
    for (const o of ["not-found-first", "token-first", "state-bound"] as const) {
      order = o;
      expect(await notFoundAtExecution(h, RELEASE)).toBeUndefined();
    }
  });

  it("fails, listing every refusal it accepts, when the server executes against the missing object", async () => {
    order = "executes-missing";
    await expect(notFoundAtExecution(h, RELEASE)).rejects.toThrow(/must be refused with RESERVATION_NOT_FOUND or CONFIRMATION_INVALID/);
  });
});

describe("a malformed expectation (If-Match breaking its pattern)", () => {
  const malformed = negativeCases(ADJUST).find((c) => c.name === "if_match not matching ^r[0-9a-f]{8}$")!;

  it("may be refused as invalid input or as stale (it matches no current value), the header named by its wire name", async () => {
    for (const a of ["stale", "invalid"] as const) {
      malformedAnswer = a;
      expect(await negativeInput(h, ADJUST, malformed)).toBeUndefined();
    }
  });

  it("fails, naming both accepted refusals, on another answer", async () => {
    malformedAnswer = "unrelated";
    await expect(negativeInput(h, ADJUST, malformed)).rejects.toThrow(
      "adjust_stock: if_match not matching ^r[0-9a-f]{8}$ must be refused with an invalid_input error or STOCK_CHANGED (the precondition on if_match), got KEY_REUSED (class conflict)",
    );
  });
});
