/**
 * The format extensions of issue 12 owned by http: several success statuses, responses without a
 * body (output null), a whole-body input field (`http.body`) and effects marked as inferred.
 */
import { describe, expect, it } from "vitest";
import { parseContractText } from "../../src/contract/parse.js";

const HEAD = `contract: labels
version: "1.0.0"
changelog:
  - { version: "1.0.0", date: "2026-01-15" }
transport:
  http: { baseUrl: "http://127.0.0.1:4010" }
errors:
  NOT_FOUND: { class: not_found, action: verify_identifier, http: 404 }
operations:
`;

const LABELS = `${HEAD}  add_labels:
    summary: Add labels to an issue.
    http: { method: POST, path: "/issues/{issue}/labels", successStatus: [200, 201], body: labels, headers: { trace: X-Trace } }
    effects: { kind: mutating, idempotent: natural, destructive: false, inferred: true }
    input:
      type: object
      required: [issue, labels]
      properties:
        issue: { type: integer }
        trace: { type: string }
        labels: { type: array, items: { type: string } }
    output: { type: array, items: { type: string } }
  remove_labels:
    summary: Remove labels from an issue.
    http: { method: DELETE, path: "/issues/{issue}/labels", successStatus: 204, body: labels }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input:
      type: object
      required: [issue, labels]
      properties:
        issue: { type: integer }
        labels: { type: array, items: { type: string } }
        dry: { type: boolean }
    output: { type: "null" }
  lock_issue:
    summary: Lock an issue.
    http: { method: PUT, path: "/issues/{issue}/lock", successStatus: [200, 204] }
    effects: { kind: mutating, idempotent: natural, destructive: false }
    input: { type: object, required: [issue], properties: { issue: { type: integer } } }
    output: { anyOf: [{ type: object, properties: { locked: { type: boolean } } }, { type: "null" }] }
`;

describe("http format extensions", () => {
  const result = parseContractText("labels.yaml", LABELS);
  const op = (name: string) => result.model!.operations.find((o) => o.names.id === name)!;

  it("accepts a list of success statuses, a whole-body field, null outputs and inferred effects", () => {
    expect(result.diagnostics.map((d) => d.code)).toEqual(["effects-inferred"]);
    expect(result.model).toBeDefined();
  });

  it("models every success status, the first one as the primary", () => {
    expect(op("add_labels").http).toMatchObject({ successStatus: 200, successStatuses: [200, 201], body: "labels" });
    expect(op("remove_labels").http).toMatchObject({ successStatus: 204, successStatuses: [204], body: "labels" });
    expect(op("lock_issue").http).toMatchObject({ successStatus: 200, successStatuses: [200, 204], body: null });
  });

  it("binds the whole-body field to the body and the others where they were put (DELETE: query)", () => {
    expect(op("add_labels").http.bindings).toEqual([
      { field: "issue", in: "path", name: "issue" },
      { field: "trace", in: "header", name: "X-Trace" },
      { field: "labels", in: "body", name: "labels" },
    ]);
    expect(op("remove_labels").http.bindings).toEqual([
      { field: "issue", in: "path", name: "issue" },
      { field: "labels", in: "body", name: "labels" },
      { field: "dry", in: "query", name: "dry" },
    ]);
  });

  it("carries effects.inferred in the model", () => {
    expect(op("add_labels").effects.inferred).toBe(true);
    expect(op("lock_issue").effects.inferred).toBe(false);
  });

  it("defaults to one success status, 200", () => {
    const plain = parseContractText("plain.yaml", `${HEAD}  ping:
    summary: Ping.
    http: { method: GET, path: /ping }
    effects: { kind: read }
    input: { type: object }
    output: { type: object }
`);
    expect(plain.model!.operations[0]!.http).toMatchObject({ successStatus: 200, successStatuses: [200], body: null });
  });
});

describe("effects-inferred", () => {
  it("warns once for a 1,000-operation import, with the count, the first names and the first place", () => {
    const ops = Array.from({ length: 1000 }, (_, i) => `  op_${i}:
    summary: Operation ${i}.
    http: { method: GET, path: /things/${i} }
    effects: { kind: read, inferred: true }
    input: { type: object }
    output: { type: object }
`).join("");
    const result = parseContractText("big.yaml", HEAD + ops);
    const inferred = result.diagnostics.filter((d) => d.code === "effects-inferred");
    expect(inferred).toHaveLength(1);
    expect(inferred[0]!.severity).toBe("warning");
    expect(inferred[0]!.message).toBe('1000 operations have effects inferred by a tool and not reviewed: "op_0", "op_1", "op_2", "op_3", "op_4" and 995 more.');
    expect(inferred[0]!.location).toMatchObject({ pointer: "/operations/op_0/effects/inferred", line: 13 });
    expect(result.model).toBeDefined();
  });

  it("says nothing when no effect is inferred", () => {
    const result = parseContractText("labels.yaml", LABELS.replace("inferred: true", "inferred: false"));
    expect(result.diagnostics).toEqual([]);
  });
});

describe("output-null-missing", () => {
  it("follows $ref and anyOf to see whether a 204 can be returned", () => {
    const withRef = LABELS.replace('output: { type: "null" }', 'output: { $ref: "#/types/Nothing" }').replace("operations:\n", 'types:\n  Nothing: { anyOf: [{ type: "null" }] }\noperations:\n');
    expect(parseContractText("ref.yaml", withRef).diagnostics.map((d) => d.code)).toEqual(["effects-inferred"]);
    const refused = LABELS.replace('output: { type: "null" }', "output: { type: object }");
    expect(parseContractText("obj.yaml", refused).diagnostics.map((d) => d.code)).toEqual(["effects-inferred", "output-null-missing"]);
  });
});
