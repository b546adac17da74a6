import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseContract, parseContractText } from "../../src/contract/parse.js";

const billing = parseContract("specs/billing.v2.yaml").model!;
const op = (name: string) => billing.operations.find((o) => o.names.id === name)!;

describe("the contract model", () => {
  it("keeps header, taxonomy and operations in document order", () => {
    expect(billing.name).toBe("billing");
    expect(billing.version).toBe("2.0.0");
    expect(billing.changelog.map((c) => c.version)).toEqual(["2.0.0", "1.1.0", "1.0.0"]);
    expect(billing.changelog[0]!.changes[0]).toMatchObject({ kind: "unit", target: "/operations/refund_invoice/input/properties/amount" });
    expect(billing.operations.map((o) => o.names.id)).toEqual([
      "create_customer", "get_customer", "list_customers", "update_customer", "get_invoice", "refund_invoice",
    ]);
    expect(billing.errors.find((e) => e.code === "UPSTREAM_TIMEOUT")).toMatchObject({ class: "transient", action: "retry_same_key", httpStatus: 504, retryable: true });
    expect(billing.errors.find((e) => e.code === "ROLE_FORBIDDEN")!.retryable).toBe(false);
  });

  it("derives names for every adapter", () => {
    expect(op("refund_invoice").names).toEqual({
      id: "refund_invoice", camel: "refundInvoice", pascal: "RefundInvoice", kebab: "refund-invoice", tool: "refund_invoice",
      types: { input: "RefundInvoiceInput", output: "RefundInvoiceOutput", preview: "RefundInvoicePreview" },
    });
  });

  it("derives MCP annotations from effects, never defaults them", () => {
    expect(op("refund_invoice").annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
    expect(op("get_invoice").annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(op("update_customer").effects).toMatchObject({ kind: "mutating", idempotent: "natural", destructive: false, reversible: true });
  });

  it("applies behaviour defaults and durations", () => {
    const refund = op("refund_invoice");
    expect(refund.preview).toMatchObject({ dryRunField: "dry_run", defaultDryRun: true, confirmTokenField: "confirm_token", ttl: "10m", ttlMs: 600_000, invalidTokenError: "CONFIRMATION_REQUIRED" });
    expect(refund.idempotency).toMatchObject({ keyField: "idempotency_key", retentionMs: 86_400_000, scope: "caller", mismatchError: "IDEMPOTENCY_KEY_REUSED" });
    expect(refund.outcomes.states).toEqual(["completed", "rejected", "unknown"]);
    expect(op("get_invoice").outcomes.states).toEqual(["completed", "rejected"]);
    expect(op("update_customer").preconditions).toEqual([expect.objectContaining({ kind: "revision", field: "expected_revision", compares: "revision", required: true, error: "REVISION_CONFLICT" })]);
    expect(billing.transport).toMatchObject({ baseUrl: "http://127.0.0.1:4010", baseUrlEnv: "BILLING_BASE_URL", timeoutMs: 10_000, auth: { form: "bearer", schemes: [{ name: "bearer", type: "bearer", tokenEnv: "BILLING_TOKEN" }], require: [["bearer"]] } });
  });

  it("binds every input field to a place on the wire", () => {
    expect(op("refund_invoice").http.bindings).toEqual([
      { field: "invoice_id", in: "path", name: "invoice_id" },
      { field: "amount", in: "body", name: "amount" },
      { field: "reason", in: "body", name: "reason" },
      { field: "expected_refunded_cents", in: "body", name: "expected_refunded_cents" },
      { field: "idempotency_key", in: "header", name: "Idempotency-Key" },
      { field: "dry_run", in: "body", name: "dry_run" },
      { field: "confirm_token", in: "body", name: "confirm_token" },
    ]);
    expect(op("list_customers").http.bindings.map((b) => b.in)).toEqual(["query", "query", "query"]);
  });

  it("describes pagination, filters and projection", () => {
    expect(op("list_customers").pagination).toMatchObject({ cursorField: "cursor", nextCursorField: "next_cursor", itemsField: "customers", limitField: "limit", limitDefault: 20, limitMax: 100, totalField: "total_count", partialField: null });
    expect(op("list_customers").filters).toMatchObject([{ field: "email", property: null, match: null, bound: null, ends: null }]);
  });

  it("lists behaviour errors among the operation's errors even when not listed", () => {
    const text = parseContractText("x.yaml", `contract: x
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
types:
  X: { type: object, properties: { revision: { type: integer } } }
errors:
  STALE: { class: conflict, action: reread_and_replan, http: 412 }
operations:
  set_x:
    summary: Set x.
    http: { method: PUT, path: /x }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    target: { type: X }
    preconditions: [{ kind: revision, field: rev, error: STALE }]
    input: { type: object, properties: { rev: { type: integer } } }
    output: { type: object }
`);
    expect(text.diagnostics.map((d) => d.code)).toEqual(["behaviour-error-not-listed"]);
    expect(text.model!.operations[0]!.errors.map((e) => e.code)).toEqual(["STALE"]);
  });

  it("keeps source locations on every node", () => {
    expect(op("refund_invoice").loc).toMatchObject({ file: "specs/billing.v2.yaml", pointer: "/operations/refund_invoice" });
    expect(op("refund_invoice").loc.line).toBeGreaterThan(1);
    expect(op("refund_invoice").preview!.loc.pointer).toBe("/operations/refund_invoice/preview");
    expect(billing.errors[0]!.loc.pointer).toBe("/errors/INVALID_FIELD");
  });

  it("is immutable", () => {
    expect(Object.isFrozen(billing)).toBe(true);
    expect(() => {
      (op("refund_invoice").names as { camel: string }).camel = "x";
    }).toThrow();
    expect(Object.isFrozen(op("refund_invoice").input.schema)).toBe(true);
  });

  it("is deterministic: the same file gives an equal model", () => {
    expect(JSON.stringify(parseContract("specs/billing.v2.yaml").model)).toBe(JSON.stringify(billing));
  });

  it("bundles into each schema only the definitions it reaches", () => {
    const schema = op("refund_invoice").output.schema as Record<string, unknown>;
    expect(schema.$ref).toBe("#/$defs/Refund");
    expect(Object.keys(schema.$defs as object)).toEqual(["InvoiceId", "Refund"]);
  });
});

describe("credentials in the model", () => {
  it("keeps named schemes in declaration order, the alternatives and operation overrides", () => {
    const model = parseContract("test/fixtures/valid/auth-schemes.yaml").model!;
    const auth = model.transport.auth;
    expect(auth.form).toBe("schemes");
    expect(auth.schemes.map((s) => [s.name, s.type])).toEqual([
      ["key", "apiKey"],
      ["login", "basic"],
      ["oauth", "bearer"],
    ]);
    expect(auth.schemes[0]).toMatchObject({ in: "header", paramName: "api_key", tokenEnv: "PETSTORE_API_KEY" });
    expect(auth.schemes[1]).toMatchObject({ usernameEnv: "PETSTORE_USER", passwordEnv: "PETSTORE_PASSWORD" });
    expect(auth.require).toEqual([["key"], ["oauth"]]);
    expect(model.operations.map((o) => [o.names.id, o.auth])).toEqual([
      ["get_pet", [["key"], ["login"]]],
      ["list_pets", []],
    ]);
  });

  it("normalises the single forms: none is no scheme, apiKey one header scheme named apiKey", () => {
    const text = readFileSync("test/fixtures/valid/auth-schemes.yaml", "utf8").replace(/  auth:\n    schemes:[\s\S]*?require: \[\[key\], \[oauth\]\]\n/, "  auth: { type: apiKey, header: X-Api-Key, tokenEnv: PETSTORE_API_KEY }\n").replace("auth: [[key], [login]]", "auth: [[apiKey]]");
    const single = parseContractText("single.yaml", text);
    expect(single.diagnostics).toEqual([]);
    expect(single.model!.transport.auth).toMatchObject({ form: "apiKey", schemes: [{ name: "apiKey", type: "apiKey", in: "header", paramName: "X-Api-Key" }], require: [["apiKey"]] });
    const none = parseContractText("none.yaml", text.replace("  auth: { type: apiKey, header: X-Api-Key, tokenEnv: PETSTORE_API_KEY }\n", "").replace("auth: [[apiKey]]", "auth: []"));
    expect(none.diagnostics).toEqual([]);
    expect(none.model!.transport.auth).toMatchObject({ form: "none", schemes: [], require: [] });
  });
});

describe("filters in the model", () => {
  const model = parseContract("test/fixtures/valid/filter-meanings.yaml").model!;
  const list = model.operations.find((o) => o.names.id === "list_notes")!;

  it("normalizes both spellings to one shape: a plain name has no meaning; a range has both ends", () => {
    expect(list.filters.map(({ loc: _loc, ...f }) => f)).toEqual([
      { field: "archived", property: null, match: null, bound: null, ends: null },
      { field: "folder_id", property: "folder_id", match: "equals", bound: null, ends: null },
      { field: "tag", property: "tags", match: "contains", bound: null, ends: null },
      { field: "tags_all", property: "tags", match: "contains", bound: null, ends: null },
      { field: "title_prefix", property: "title", match: "prefix", bound: null, ends: null },
      { field: "updated", property: "updated_at", match: "range", bound: null, ends: { fromInclusive: true, toInclusive: false } },
      { field: "created_after", property: "created_on", match: "range", bound: "from", ends: { fromInclusive: false, toInclusive: false } },
      { field: "max_words", property: "words", match: "range", bound: "to", ends: { fromInclusive: true, toInclusive: true } },
    ]);
    expect(list.filters[6]!.loc.line).toBe(42);
  });

  it("says each meaning in words for every adapter's description", async () => {
    const { filterMeaningWords } = await import("../../src/model/filter-words.js");
    expect(list.filters.map((f) => filterMeaningWords(f, f.field === "tags_all"))).toEqual([
      null,
      "Filter: only records whose folder_id equals this value.",
      "Filter: only records whose tags contain this value.",
      "Filter: only records whose tags contain every one of these values.",
      "Filter: only records whose title starts with this value (case-sensitive).",
      "Filter: only records whose updated_at is within this window (from inclusive, to exclusive).",
      "Filter: only records whose created_on is after this value (exclusive).",
      "Filter: only records whose words is at or before this value (inclusive).",
    ]);
  });
});
