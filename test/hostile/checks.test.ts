/**
 * Issue 9 items 2, 5, 6: validate refuses contracts whose cross-references cannot work, and accepts
 * (and models) the new fields when they resolve. The refusals are pinned by fixtures in
 * test/fixtures/invalid/; this file pins the accepting side and the model.
 */
import { describe, expect, it } from "vitest";
import { parseContractText } from "../../src/contract/parse.js";

const CONTRACT = `contract: shop
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
types:
  Item:
    type: object
    required: [id, name, revision]
    properties: { id: { type: string }, name: { type: string }, revision: { type: integer } }
errors:
  STALE: { class: conflict, action: reread_and_replan, http: 412 }
  CONFIRM: { class: conflict, action: reread_and_replan, http: 409 }
operations:
  get_item:
    summary: Read an item.
    http: { method: GET, path: "/items/{item_id}" }
    effects: { kind: read }
    input: { type: object, required: [item_id], properties: { item_id: { type: string } } }
    output: { $ref: "#/types/Item" }
  rename_item:
    summary: Rename an item.
    http: { method: PUT, path: "/items/{item_id}/name" }
    effects: { kind: mutating, idempotent: natural, destructive: false, undo: rename_item }
    preconditions: [{ kind: value, field: expected_name, compares: name, error: STALE }]
    input:
      type: object
      required: [item_id, name]
      properties: { item_id: { type: string }, name: { type: string }, expected_name: { type: string } }
    output: { $ref: "#/types/Item" }
    errors: [STALE]
  retitle_item:
    summary: Retitle an item.
    http: { method: POST, path: "/retitles/{item_id}" }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    target: { type: Item }
    preconditions: [{ kind: revision, field: expected_revision, error: STALE }]
    input:
      type: object
      required: [item_id]
      properties: { item_id: { type: string }, expected_revision: { type: integer } }
    output: { type: object }
    errors: [STALE]
  delete_item:
    summary: Delete an item.
    http: { method: DELETE, path: "/items/{item_id}" }
    effects: { kind: mutating, idempotent: natural, destructive: true }
    preview:
      dryRun: dry_run
      confirmToken: confirm_token
      ttl: 10m
      expiresAt: expires_at
      invalidTokenError: CONFIRM
      output:
        type: object
        required: [confirm_token, expires_at]
        properties: { confirm_token: { type: string }, expires_at: { type: string, format: date-time } }
    input:
      type: object
      required: [item_id]
      properties: { item_id: { type: string }, dry_run: { type: boolean, default: true }, confirm_token: { type: string } }
    output: { type: object }
    errors: [CONFIRM]
  count_items:
    summary: Count items.
    http: { method: GET, path: /item-count }
    effects: { kind: read }
    task: { recordsExamined: examined, complete: complete, answer: count }
    input: { type: object, properties: {} }
    output:
      type: object
      required: [count, examined, complete]
      properties: { count: { type: integer }, examined: { type: integer }, complete: { type: boolean } }
`;

describe("cross-references that resolve", () => {
  const result = parseContractText("shop.yaml", CONTRACT);
  const op = (id: string) => result.model!.operations.find((o) => o.names.id === id)!;

  it("validate accepts them without a finding", () => {
    expect(result.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  });

  it("the model carries the precondition target, declared or inferred from the longest GET prefix", () => {
    expect(op("rename_item").target).toMatchObject({ kind: "read", operation: "get_item", inferred: true });
    expect(op("retitle_item").target).toMatchObject({ kind: "type", type: "Item" });
    expect(op("get_item").target).toBeNull();
  });

  it("the model carries undo (implying reversible), single-use tokens by default, the expiry and the answer field", () => {
    expect(op("rename_item").effects).toMatchObject({ undo: "rename_item", reversible: true });
    expect(op("delete_item").preview).toMatchObject({ singleUse: true, expiresAtField: "expires_at" });
    expect(op("count_items").task).toMatchObject({ answerField: "count" });
  });

  it("singleUse: false is kept", () => {
    const multi = parseContractText("shop.yaml", CONTRACT.replace("      expiresAt: expires_at\n", "      expiresAt: expires_at\n      singleUse: false\n"));
    expect(multi.diagnostics).toEqual([]);
    expect(multi.model!.operations.find((o) => o.names.id === "delete_item")!.preview!.singleUse).toBe(false);
  });
});

describe("cross-references that do not resolve (one per rule; the fixtures pin positions)", () => {
  const codes = (text: string) => parseContractText("shop.yaml", text).diagnostics.map((d) => d.code);

  it("a precondition comparing a field the target lacks, with a suggestion", () => {
    const result = parseContractText("shop.yaml", CONTRACT.replace("compares: name", "compares: nam"));
    expect(result.diagnostics.map((d) => d.code)).toEqual(["precondition-compares-unknown"]);
    expect(result.diagnostics[0]!.message).toContain('(did you mean "name"?)');
  });

  it("a preview output without the confirm token or the expiry", () => {
    expect(codes(CONTRACT.replace("required: [confirm_token, expires_at]", "required: [expires_at]"))).toEqual(["preview-output-token-missing"]);
    expect(codes(CONTRACT.replace("required: [confirm_token, expires_at]", "required: [confirm_token]"))).toEqual(["preview-expiry-field-missing"]);
  });

  it("an undo that is not an inverse, and a task answer that is not in the output", () => {
    expect(codes(CONTRACT.replace("undo: rename_item", "undo: get_item"))).toEqual(["undo-not-inverse"]);
    expect(codes(CONTRACT.replace("undo: rename_item", "undo: delete_item"))).toEqual(["undo-not-inverse"]);
    expect(codes(CONTRACT.replace("answer: count", "answer: total"))).toEqual(["task-field-missing"]);
  });
});
