/**
 * The HTTP front end reads back what the SDK sends: for every OpenAPI parameter style the SDK's
 * encoder writes (runtime/wire-request.ts), decodeInput (host-runtime/http-binding.ts) rebuilds the
 * same input, typed by the input schema. Property-based over locations, styles, explode, value shapes
 * and text that needs percent-encoding; each case goes through a real URL, query string and headers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { HostFieldBinding, HostHttpOperation } from "../../src/host-runtime/contract.js";
import { compileRoutes, decodeInput, matchRoute, parseMultipart } from "../../src/host-runtime/http-binding.js";
import { encodeRequest, type WireBinding } from "../../src/runtime/wire-request.js";

type Kind = "string" | "integer" | "boolean" | "strings" | "integers" | "object";

const SCHEMAS: Record<Kind, Record<string, unknown>> = {
  string: { type: "string" },
  integer: { type: "integer" },
  boolean: { type: "boolean" },
  strings: { type: "array", items: { type: "string" } },
  integers: { type: "array", items: { type: "integer" } },
  object: { type: "object", properties: { alpha: { type: "string" }, beta: { type: "integer" } } },
};

/** Which styles each location allows, and which value kinds each style carries. */
const CASES: Array<{ in: HostFieldBinding["in"]; style?: NonNullable<HostFieldBinding["style"]>; kinds: Kind[] }> = [
  { in: "query", kinds: ["string", "integer", "boolean", "strings", "integers"] },
  { in: "query", style: "form", kinds: ["string", "integer", "strings", "integers", "object"] },
  { in: "query", style: "spaceDelimited", kinds: ["strings", "integers"] },
  { in: "query", style: "pipeDelimited", kinds: ["strings", "integers", "object"] },
  { in: "query", style: "deepObject", kinds: ["object"] },
  { in: "path", kinds: ["string", "integer", "strings", "integers"] },
  { in: "path", style: "simple", kinds: ["string", "strings", "integers", "object"] },
  { in: "path", style: "label", kinds: ["string", "strings", "integers", "object"] },
  { in: "path", style: "matrix", kinds: ["string", "integer", "strings", "integers", "object"] },
  { in: "header", kinds: ["string", "integer", "strings", "integers"] },
  { in: "header", style: "simple", kinds: ["strings", "object"] },
  { in: "cookie", kinds: ["string", "integer", "strings"] },
];

/** Text that needs percent-encoding where it travels (minus each style's own delimiter). */
function text(binding: { in: string; style?: string; explode: boolean }): fc.Arbitrary<string> {
  let chars = ["a", "Z", "0", "-", "_", "~", "é", "漢", "/", "?", "&", "#", "%", "+", "'", "(", "!", "*", "@", ":", "[", "]"];
  if (binding.in === "query" || binding.in === "cookie") chars.push(",", "=", "|", ";", " ");
  if (binding.style === "spaceDelimited") chars = chars.filter((c) => c !== " ");
  if (binding.in === "path") chars = chars.filter((c) => !(binding.style === "label" && c === "."));
  // Headers are sent as they are: visible ASCII, no delimiter of the simple style.
  if (binding.in === "header") chars = ["a", "Z", "0", "-", "_", "~", "/", "?", "&", "#", "%", "+", "(", "!", "*", "@", ":", "[", "]"];
  // A cookie value is sent form-encoded; "%" is fine, the separators are encoded.
  return fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength: 8 }).map((cs) => cs.join(""));
}

function value(kind: Kind, binding: { in: string; style?: string; explode: boolean }): fc.Arbitrary<unknown> {
  const int = fc.integer({ min: -1_000_000, max: 1_000_000 });
  switch (kind) {
    case "string":
      return text(binding);
    case "integer":
      return int;
    case "boolean":
      return fc.boolean();
    case "strings":
      return fc.array(text(binding), { minLength: 1, maxLength: 4 });
    case "integers":
      return fc.array(int, { minLength: 1, maxLength: 4 });
    case "object":
      return fc.record({ alpha: text(binding), beta: int });
  }
}

const scenario = fc
  .constantFrom(...CASES)
  .chain((c) => fc.record({ c: fc.constant(c), kind: fc.constantFrom(...c.kinds), explode: c.style === undefined ? fc.constant(undefined) : fc.boolean() }))
  .filter(({ c, kind, explode }) => !(c.style === "deepObject" && explode === false) && !(c.in === "cookie" && kind === "strings" && explode === false))
  .chain(({ c, kind, explode }) => fc.record({ c: fc.constant(c), kind: fc.constant(kind), explode: fc.constant(explode), value: value(kind, { in: c.in, ...(c.style ? { style: c.style } : {}), explode: explode ?? true }) }));

function roundTrip(c: (typeof CASES)[number], kind: Kind, explode: boolean | undefined, v: unknown) {
  const binding: HostFieldBinding & WireBinding = { field: "f", in: c.in, name: c.in === "header" ? "X-F" : "f", ...(c.style ? { style: c.style } : {}), ...(explode !== undefined ? { explode } : {}) };
  const op: HostHttpOperation = {
    http: { method: "GET", path: c.in === "path" ? "/things/{f}" : "/things", bindings: [binding], body: null },
    input: { schema: { type: "object", properties: { f: SCHEMAS[kind] }, additionalProperties: false } },
  };
  const wire = encodeRequest({ method: "GET", path: op.http.path, bindings: [binding] }, { f: v }, "http://127.0.0.1:1");
  const url = new URL(wire.url);
  const rawPath = wire.url.slice("http://127.0.0.1:1".length).split("?")[0]!;
  const match = matchRoute(compileRoutes([op]), "GET", rawPath);
  if (match.kind !== "matched") throw new Error(`no route for ${rawPath}`);
  const rawQuery = wire.url.includes("?") ? wire.url.slice(wire.url.indexOf("?") + 1) : "";
  return decodeInput(op, { rawPathValues: match.rawPathValues, query: url.searchParams, rawQuery, header: (name) => wire.headers[name.toLowerCase()], body: "" });
}

describe("decodeInput reads back what the SDK encodes", () => {
  it("every location, style and explode, with text that needs encoding", () => {
    fc.assert(
      fc.property(scenario, ({ c, kind, explode, value: v }) => {
        const decoded = roundTrip(c, kind, explode, v);
        expect(decoded.problems).toEqual([]);
        expect(decoded.input).toEqual({ f: v });
      }),
      { numRuns: 600, seed: 20261203 },
    );
  });

  it("a delimiter inside a value stays in the value (it was percent-encoded)", () => {
    expect(roundTrip(CASES[1]!, "strings", false, ["a,b", "c"]).input).toEqual({ f: ["a,b", "c"] });
    expect(roundTrip(CASES[3]!, "strings", false, ["a|b", "c"]).input).toEqual({ f: ["a|b", "c"] });
    expect(roundTrip(CASES[5]!, "strings", undefined, ["a,b", "c"]).input).toEqual({ f: ["a,b", "c"] });
  });

  it("a form-urlencoded body: each body field by its style; a whole-body field from every pair", () => {
    const bindings: Array<HostFieldBinding & WireBinding> = [
      { field: "note", in: "body", name: "note" },
      { field: "tags", in: "body", name: "tags" },
      { field: "meta", in: "body", name: "meta", style: "deepObject" },
    ];
    const op: HostHttpOperation = {
      http: { method: "POST", path: "/notes", bindings, body: null },
      input: { schema: { type: "object", properties: { note: { type: "string" }, tags: SCHEMAS.strings, meta: SCHEMAS.object } } },
    };
    const input = { note: "a & b = c+d", tags: ["x y", "z,w"], meta: { alpha: "é/ü", beta: 7 } };
    const wire = encodeRequest({ method: "POST", path: "/notes", bindings, contentType: "application/x-www-form-urlencoded" }, input, "http://127.0.0.1:1");
    const decoded = decodeInput(op, { rawPathValues: {}, query: new URLSearchParams(), header: (name) => wire.headers[name.toLowerCase()], body: wire.body as string });
    expect(decoded.problems).toEqual([]);
    expect(decoded.input).toEqual(input);

    const whole: HostHttpOperation = { http: { method: "POST", path: "/notes", bindings: [{ field: "form", in: "body", name: "form" }], body: "form" }, input: { schema: { type: "object", properties: { form: SCHEMAS.object } } } };
    const sent = encodeRequest({ method: "POST", path: "/notes", bindings: [{ field: "form", in: "body", name: "form" }], bodyField: "form", contentType: "application/x-www-form-urlencoded" }, { form: { alpha: "a b", beta: 3 } }, "http://127.0.0.1:1");
    expect(decodeInput(whole, { rawPathValues: {}, query: new URLSearchParams(), header: (name) => sent.headers[name.toLowerCase()], body: sent.body as string }).input).toEqual({ form: { alpha: "a b", beta: 3 } });
  });

  it("a multipart/form-data body: text, repeated and JSON parts, and a file's bytes back as base64", async () => {
    const bindings: Array<HostFieldBinding & WireBinding> = [
      { field: "note", in: "body", name: "note" },
      { field: "count", in: "body", name: "count" },
      { field: "tags", in: "body", name: "tags" },
      { field: "meta", in: "body", name: "meta" },
      { field: "upload", in: "body", name: "upload", file: true, contentType: "image/png" },
    ];
    const op: HostHttpOperation = {
      http: { method: "POST", path: "/files", bindings, body: null },
      input: { schema: { type: "object", properties: { note: { type: "string" }, count: { type: "integer" }, tags: SCHEMAS.strings, meta: SCHEMAS.object, upload: { type: "string" } } } },
    };
    const bytes = Buffer.from([0, 1, 2, 13, 10, 45, 45, 255, 128, 0]);
    const input = { note: "line one\r\n--not a boundary", count: 42, tags: ["a", "b c"], meta: { alpha: "é", beta: 1 }, upload: bytes.toString("base64") };
    const wire = encodeRequest({ method: "POST", path: "/files", bindings, contentType: "multipart/form-data" }, input, "http://127.0.0.1:1");
    const parts = await parseMultipart(Buffer.from(wire.body as ArrayBuffer), wire.headers["content-type"]!);
    const decoded = decodeInput(op, { rawPathValues: {}, query: new URLSearchParams(), header: (name) => wire.headers[name.toLowerCase()], body: "", parts });
    expect(decoded.problems).toEqual([]);
    expect(decoded.input).toEqual(input);
    const broken = decodeInput(op, { rawPathValues: {}, query: new URLSearchParams(), header: () => undefined, body: "", parts: await parseMultipart(Buffer.from("not multipart"), "multipart/form-data; boundary=x") });
    expect(broken.problems).toEqual([{ field: null, message: "The request body is not well-formed multipart/form-data." }]);
  });

  it("contractgen's own protocol still sends an undeclared object as JSON text", () => {
    const op: HostHttpOperation = { http: { method: "GET", path: "/t", bindings: [{ field: "f", in: "query", name: "f" }], body: null }, input: { schema: { type: "object", properties: { f: SCHEMAS.object } } } };
    const query = new URLSearchParams({ f: JSON.stringify({ alpha: "x", beta: 2 }) });
    expect(decodeInput(op, { rawPathValues: {}, query, header: () => undefined, body: "" }).input).toEqual({ f: { alpha: "x", beta: 2 } });
  });
});
