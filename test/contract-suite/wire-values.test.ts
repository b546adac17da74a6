/**
 * Values judged as a server receives them (src/tests-runtime/wire-values.ts): negative cases stay
 * invalid once the parameter's own serialization is applied, or are dropped saying why; stale and
 * near values of an expectation satisfy the field's schema; a field an error names by its wire name
 * is the input field it binds.
 */
import { describe, expect, it } from "vitest";
import { inputFieldOf } from "../../src/runtime/wire-errors.js";
import { droppedNegativeCases, negativeCases } from "../../src/tests-runtime/checks.js";
import type { OperationSpec } from "../../src/tests-runtime/harness.js";
import { asReceived, noOtherValue, otherAllowedValues } from "../../src/tests-runtime/wire-values.js";

/** A GET /items listing with the inventory API's parameters (test/contract-suite/independent/inventory.openapi.yaml). */
function listing(input: object, bindings: OperationSpec["bindings"]): OperationSpec {
  return { id: "list_items", method: "GET", path: "/items", bindings, successStatus: 200, kind: "read", input, output: true, errors: [], idempotency: null, preview: null, preconditions: [], pagination: null };
}

const TAGS = { field: "tags", in: "query", name: "tags", explode: false } as const;
const OCCURRED = { field: "occurred", in: "query", name: "occurred", style: "deepObject", explode: true } as const;
const WINDOW = {
  type: "object",
  properties: { from: { type: "string", format: "date" }, to: { type: "string", format: "date" } },
};

describe("negative cases through the parameter's encoding", () => {
  it("a form array without explode: a bare word is a one-item array, so only item constraints are faults", () => {
    const plain = listing({ type: "object", properties: { tags: { type: "array", items: { type: "string" } } } }, [TAGS]);
    expect(negativeCases(plain).map((c) => c.name)).toEqual([]);
    expect(droppedNegativeCases(plain)).toEqual([
      { name: "wrong type for tags", why: 'tags=not-a-value reads back as ["not-a-value"] (query parameter tags, form without explode), which the schema of tags allows: not a fault on the wire, so no case' },
    ]);
    const constrained = listing({ type: "object", properties: { tags: { type: "array", items: { type: "string", pattern: "^[a-z-]+$", maxLength: 12 } } } }, [TAGS]);
    expect(negativeCases(constrained).map((c) => c.name)).toEqual(["an item of tags longer than 12", "an item of tags not matching ^[a-z-]+$"]);
    expect(droppedNegativeCases(constrained).map((d) => d.name)).toEqual(["wrong type for tags"]);
    // An item the items' enum forbids is a fault however it is written.
    const enumerated = listing({ type: "object", properties: { tags: { type: "array", items: { enum: ["red", "blue"] } } } }, [TAGS]);
    expect(negativeCases(enumerated).map((c) => c.name)).toEqual(["wrong type for tags", "an item of tags outside its enum"]);
  });

  it("a deepObject: a bare value is no serialization of it (dropped); its members' faults are cases, merged into the sample's object", () => {
    const op = listing({ type: "object", properties: { occurred: WINDOW } }, [OCCURRED]);
    expect(droppedNegativeCases(op)).toEqual([
      { name: "wrong type for occurred", why: "occurred=not-a-value is not how query parameter occurred, deepObject with explode is written: a server reads no occurred from it: not a fault on the wire, so no case" },
    ]);
    const cases = negativeCases(op);
    expect(cases.map((c) => [c.name, c.field])).toEqual([
      ["occurred.from not a date", "occurred"],
      ["occurred.to not a date", "occurred"],
    ]);
    expect(cases[0]!.apply({ occurred: { from: "2026-01-01", to: "2026-01-31" } })).toEqual({ occurred: { from: "not-a-value", to: "2026-01-31" } });
    expect(asReceived(op, "occurred", { from: "not-a-value" })).toEqual({ sent: "occurred[from]=not-a-value", present: true, value: { from: "not-a-value" } });
  });

  it("scalars keep their cases: a header integer, a JSON body member, an exploded form array of integers", () => {
    const op: OperationSpec = {
      ...listing(
        { type: "object", properties: { count: { type: "integer", minimum: 1 }, ids: { type: "array", items: { type: "integer" } }, note: { type: "string", maxLength: 3 } } },
        [{ field: "count", in: "header", name: "X-Count" }, { field: "ids", in: "query", name: "id" }, { field: "note", in: "body", name: "note" }],
      ),
      method: "POST",
    };
    expect(negativeCases(op).map((c) => c.name)).toEqual(["wrong type for count", "count below minimum 1", "wrong type for ids", "wrong type for note", "note longer than 3"]);
    expect(droppedNegativeCases(op)).toEqual([]);
    expect(asReceived(op, "ids", "not-a-value")).toMatchObject({ sent: "id=not-a-value", value: ["not-a-value"] });
  });
});

describe("every location and style reads back as a server reads it", () => {
  const op: OperationSpec = {
    ...listing(
      {
        type: "object",
        properties: {
          ids: { type: "array", items: { type: "integer" } },
          session: { type: "string", pattern: "^s[0-9]+$" },
          path: { type: "string", pattern: "^[a-z/]+$" },
          colors: { type: "array", items: { type: "string" } },
        },
      },
      [
        { field: "ids", in: "path", name: "ids", style: "label", explode: true },
        { field: "session", in: "cookie", name: "sid" },
        { field: "path", in: "query", name: "path", allowReserved: true },
        { field: "colors", in: "header", name: "X-Colors" },
      ],
    ),
    path: "/things/{ids}",
  };

  it("a label path array, a cookie, a query value with allowReserved, a header array", () => {
    expect(asReceived(op, "ids", [3, 4])).toEqual({ sent: "/things/.3.4", present: true, value: [3, 4] });
    expect(asReceived(op, "session", "!")).toEqual({ sent: "Cookie: sid=%21", present: true, value: "!" });
    expect(asReceived(op, "path", "a/b")).toEqual({ sent: "path=a/b", present: true, value: "a/b" });
    expect(asReceived(op, "colors", "red")).toEqual({ sent: "X-Colors: red", present: true, value: ["red"] });
    // A bare word in a label path is the one-item array ["not-a-value"]: still not integers, so a case.
    expect(negativeCases(op).map((c) => c.name)).toEqual(["wrong type for ids", "path not matching ^[a-z/]+$", "session not matching ^s[0-9]+$"]);
    expect(droppedNegativeCases(op).map((d) => d.name)).toEqual(["wrong type for colors"]);
  });
});

describe("stale and near values from the field's own schema", () => {
  const etag = { type: "string", pattern: "^r[0-9a-f]{8}$" };
  const op = listing({ type: "object", properties: { if_match: etag, level: { type: "integer", minimum: 0, maximum: 5 }, state: { enum: ["open", "closed"] } } }, []);

  it("a stale value keeps the pattern (no `-stale` suffix where the pattern forbids it)", () => {
    const [stale] = otherAllowedValues(op, "if_match", "r6fe2c97b", "stale", 1);
    expect(stale).toEqual({ label: "one character changed", value: "r6fe2c97c" });
  });

  it("near values: a case variant only where the pattern allows one, then one character changed", () => {
    expect(otherAllowedValues(op, "if_match", "r6fe2c97b", "near")).toEqual([{ label: "one character changed", value: "r6fe2c97c" }]);
    const free = listing({ type: "object", properties: { owner: { type: "string" } } }, []);
    expect(otherAllowedValues(free, "owner", "alice", "near")).toEqual([
      { label: "upper-cased", value: "ALICE" },
      { label: "one character changed", value: "alicf" },
    ]);
    expect(otherAllowedValues(free, "owner", "alice", "stale", 1)).toEqual([{ label: "another value", value: "alice-stale" }]);
  });

  it("numbers within their bounds, enums among their values; none left is said", () => {
    expect(otherAllowedValues(op, "level", 5, "stale", 1)).toEqual([{ label: "one less", value: 4 }]);
    expect(otherAllowedValues(op, "level", 0, "near")).toEqual([{ label: "one more", value: 1 }]);
    expect(otherAllowedValues(op, "state", "open", "stale", 1)).toEqual([{ label: "another declared value", value: "closed" }]);
    const only = listing({ type: "object", properties: { v: { const: "x" } } }, []);
    expect(otherAllowedValues(only, "v", "x", "stale")).toEqual([]);
    expect(noOtherValue(only, "v", "x")).toBe('no value of v other than "x" found that its schema allows (const "x"): one that broke it would be refused as invalid input, not compared');
  });
});

describe("a field an error names by its wire name is the input field", () => {
  const bindings = [
    { field: "if_match", in: "header", name: "If-Match" },
    { field: "idempotency_key", in: "header", name: "Idempotency-Key" },
    { field: "tags", in: "query", name: "tag" },
    { field: "occurred", in: "query", name: "occurred" },
    { field: "session", in: "cookie", name: "sid" },
    { field: "quantity", in: "body", name: "quantity" },
  ] as const;

  it("headers ignoring case, query and cookie names, body pointers; input fields and unknown names as they are", () => {
    expect(inputFieldOf(bindings, "If-Match")).toBe("if_match");
    expect(inputFieldOf(bindings, "idempotency-key")).toBe("idempotency_key");
    expect(inputFieldOf(bindings, "tag")).toBe("tags");
    expect(inputFieldOf(bindings, "tag[0]")).toBe("tags[0]");
    expect(inputFieldOf(bindings, "occurred[from]")).toBe("occurred[from]");
    expect(inputFieldOf(bindings, "sid")).toBe("session");
    expect(inputFieldOf(bindings, "/quantity")).toBe("quantity");
    expect(inputFieldOf(bindings, "#/quantity")).toBe("quantity");
    expect(inputFieldOf(bindings, "if_match")).toBe("if_match");
    expect(inputFieldOf(bindings, "Tag")).toBe("Tag");
    expect(inputFieldOf(bindings, "unknown")).toBe("unknown");
  });
});
