import { describe, expect, it } from "vitest";
import { canonicalJson, hashValue, intentParameters } from "../../src/runtime/hash.js";

describe("canonicalJson", () => {
  it("does not depend on key order", () => {
    expect(canonicalJson({ b: 1, a: 2, c: 3 })).toBe(canonicalJson({ c: 3, a: 2, b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it("sorts keys at every nesting level, including objects inside arrays", () => {
    const a = { z: { y: 1, x: [{ q: 1, p: 2 }, 3] }, a: null };
    const b = { a: null, z: { x: [{ p: 2, q: 1 }, 3], y: 1 } };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"a":null,"z":{"x":[{"p":2,"q":1},3],"y":1}}');
  });

  it("keeps array order significant", () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it("distinguishes different values", () => {
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
    expect(canonicalJson({ a: { b: 1 } })).not.toBe(canonicalJson({ a: { b: 2 } }));
  });

  it("encodes scalars as JSON", () => {
    expect(canonicalJson("x\"y")).toBe('"x\\"y"');
    expect(canonicalJson(1.5)).toBe("1.5");
    expect(canonicalJson(true)).toBe("true");
    expect(canonicalJson(null)).toBe("null");
  });

  it("drops undefined properties and maps undefined array slots to null, like JSON", () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson([1, undefined])).toBe("[1,null]");
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("sorts keys by code unit, independently of locale", () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, _: 4 })).toBe('{"B":2,"_":4,"a":3,"b":1}');
  });

  it("is parseable JSON equal to the input", () => {
    const value = { z: [1, { b: "x", a: [true, null] }], y: { "k\n": 0 } };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });
});

describe("hashValue", () => {
  it("is a sha256 hex digest, equal for equal values in any key order", () => {
    const h = hashValue({ b: [1, { d: 1, c: 2 }], a: "x" });
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).toBe(hashValue({ a: "x", b: [1, { c: 2, d: 1 }] }));
    expect(h).not.toBe(hashValue({ a: "y", b: [1, { c: 2, d: 1 }] }));
  });
});

describe("intentParameters", () => {
  const excluded = ["idempotency_key", "dry_run", "confirm_token"];

  it("drops the key, dry-run and confirm-token fields and keeps everything else", () => {
    const input = { idempotency_key: "k1", dry_run: false, confirm_token: "t", amount: 5, note: { a: 1 } };
    expect(intentParameters(input, excluded)).toEqual({ amount: 5, note: { a: 1 } });
  });

  it("gives the same hash whatever key, dry-run flag or token is used", () => {
    const a = hashValue(intentParameters({ idempotency_key: "k1", dry_run: true, amount: 5 }, excluded));
    const b = hashValue(intentParameters({ amount: 5, idempotency_key: "k2", dry_run: false, confirm_token: "tok" }, excluded));
    expect(a).toBe(b);
    const c = hashValue(intentParameters({ amount: 6, idempotency_key: "k1" }, excluded));
    expect(c).not.toBe(a);
  });

  it("drops undefined values and ignores undefined entries of the exclusion list", () => {
    expect(intentParameters({ a: 1, b: undefined, k: "x" }, ["k", undefined, undefined])).toEqual({ a: 1 });
    expect(Object.keys(intentParameters({ a: 1, b: undefined }, []))).toEqual(["a"]);
  });

  it("does not mutate its input", () => {
    const input = { idempotency_key: "k", a: 1 };
    intentParameters(input, excluded);
    expect(input).toEqual({ idempotency_key: "k", a: 1 });
  });
});
