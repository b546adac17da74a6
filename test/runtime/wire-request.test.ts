/**
 * The request encoder (src/runtime/wire-request.ts) by OpenAPI 3.1's "Style Values" table, and the
 * SDK and the contract suite's harness sending through it to a real HTTP server: form-urlencoded and
 * multipart bodies, deepObject queries, cookies, Accept with a PDF or text result, a required empty
 * body, and header values refused before anything is sent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ContractClient, type ContractInfo, type OperationSpec, type Validator } from "../../src/runtime/client.js";
import { InvalidInputError } from "../../src/runtime/errors.js";
import { encodeRequest, headerValueProblem, MAX_DEEP_OBJECT_DEPTH, pathValue, percentEncode, queryPairs, type ParamStyle, type WireOperation } from "../../src/runtime/wire-request.js";
import { Harness, type OperationSpec as SuiteOperation } from "../../src/tests-runtime/harness.js";

const query = (name: string, value: unknown, style: ParamStyle, explode: boolean) => queryPairs(name, value, style, explode).map(([k, v]) => `${k}=${v}`).join("&");

// OpenAPI 3.1.0, 4.8.12.4 "Style Examples": color = "blue", ["blue","black","brown"], {R:100,G:200,B:150}.
const str = "blue";
const arr = ["blue", "black", "brown"];
const obj = { R: 100, G: 200, B: 150 };

describe("OpenAPI style examples", () => {
  const table: Array<[string, () => string, string]> = [
    ["matrix, explode false, string", () => pathValue("color", str, "matrix", false), ";color=blue"],
    ["matrix, explode false, array", () => pathValue("color", arr, "matrix", false), ";color=blue,black,brown"],
    ["matrix, explode false, object", () => pathValue("color", obj, "matrix", false), ";color=R,100,G,200,B,150"],
    ["matrix, explode true, string", () => pathValue("color", str, "matrix", true), ";color=blue"],
    ["matrix, explode true, array", () => pathValue("color", arr, "matrix", true), ";color=blue;color=black;color=brown"],
    ["matrix, explode true, object", () => pathValue("color", obj, "matrix", true), ";R=100;G=200;B=150"],
    ["label, explode false, string", () => pathValue("color", str, "label", false), ".blue"],
    ["label, explode false, array", () => pathValue("color", arr, "label", false), ".blue,black,brown"],
    ["label, explode false, object", () => pathValue("color", obj, "label", false), ".R,100,G,200,B,150"],
    ["label, explode true, string", () => pathValue("color", str, "label", true), ".blue"],
    ["label, explode true, array", () => pathValue("color", arr, "label", true), ".blue.black.brown"],
    ["label, explode true, object", () => pathValue("color", obj, "label", true), ".R=100.G=200.B=150"],
    ["simple, explode false, string", () => pathValue("color", str, "simple", false), "blue"],
    ["simple, explode false, array", () => pathValue("color", arr, "simple", false), "blue,black,brown"],
    ["simple, explode false, object", () => pathValue("color", obj, "simple", false), "R,100,G,200,B,150"],
    ["simple, explode true, array", () => pathValue("color", arr, "simple", true), "blue,black,brown"],
    ["simple, explode true, object", () => pathValue("color", obj, "simple", true), "R=100,G=200,B=150"],
    ["form, explode false, string", () => query("color", str, "form", false), "color=blue"],
    ["form, explode false, array", () => query("color", arr, "form", false), "color=blue,black,brown"],
    ["form, explode false, object", () => query("color", obj, "form", false), "color=R,100,G,200,B,150"],
    ["form, explode true, string", () => query("color", str, "form", true), "color=blue"],
    ["form, explode true, array", () => query("color", arr, "form", true), "color=blue&color=black&color=brown"],
    ["form, explode true, object", () => query("color", obj, "form", true), "R=100&G=200&B=150"],
    ["form, explode false, empty string", () => query("color", "", "form", false), "color="],
    ["spaceDelimited, explode false, array", () => query("color", arr, "spaceDelimited", false), "color=blue%20black%20brown"],
    ["spaceDelimited, explode false, object", () => query("color", obj, "spaceDelimited", false), "color=R%20100%20G%20200%20B%20150"],
    ["spaceDelimited, explode true, array", () => query("color", arr, "spaceDelimited", true), "color=blue&color=black&color=brown"],
    ["pipeDelimited, explode false, array", () => query("color", arr, "pipeDelimited", false), "color=blue|black|brown"],
    ["pipeDelimited, explode false, object", () => query("color", obj, "pipeDelimited", false), "color=R|100|G|200|B|150"],
    ["pipeDelimited, explode true, array", () => query("color", arr, "pipeDelimited", true), "color=blue&color=black&color=brown"],
    ["deepObject, explode true, object", () => query("color", obj, "deepObject", true), "color[R]=100&color[G]=200&color[B]=150"],
    // Stripe nests deeper: metadata[a][b]=1, arrays by index.
    ["deepObject, brackets and reserved characters in keys are encoded once", () => query("m", { "a[b]": "x&y", "é": 1 }, "deepObject", true), "m[a%5Bb%5D]=x%26y&m[%C3%A9]=1"],
    ["deepObject, nested objects and arrays", () => query("created", { gt: 1, tags: ["a", "b"], m: { k: "v w" } }, "deepObject", true), "created[gt]=1&created[tags][0]=a&created[tags][1]=b&created[m][k]=v%20w"],
  ];
  it.each(table)("%s", (_name, encode, want) => {
    expect(encode()).toBe(want);
  });

  it("percent-encodes per RFC 3986: values and delimiters inside them, reserved characters kept only with allowReserved", () => {
    expect(query("q", "a,b c&d=é", "form", false)).toBe("q=a%2Cb%20c%26d%3D%C3%A9");
    expect(query("q", ["a,b", "c"], "form", false)).toBe("q=a%2Cb,c");
    expect(queryPairs("q", "/a?b=c&d#e", "form", true, true)).toEqual([["q", "/a?b=c&d#e"]]);
    expect(percentEncode("50% off", true)).toBe("50%25%20off");
    expect(percentEncode("%41", true)).toBe("%41");
    expect(percentEncode("!'()*")).toBe("%21%27%28%29%2A");
    expect(pathValue("id", "a/b", "simple", false)).toBe("a%2Fb");
  });

  it("stops nesting deepObject values at the depth limit (JSON text below it)", () => {
    let deep: unknown = "x";
    for (let i = 0; i < MAX_DEEP_OBJECT_DEPTH + 10; i++) deep = { a: deep };
    const pairs = queryPairs("d", deep, "deepObject", true);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]![0]).toBe(`d${"[a]".repeat(MAX_DEEP_OBJECT_DEPTH)}`);
    expect(decodeURIComponent(pairs[0]![1]).startsWith('{"a":')).toBe(true);
  });
});

describe("encodeRequest", () => {
  const base = "http://h";
  it("keeps contractgen's wire protocol without declared styles: object query values as JSON, arrays repeated", () => {
    const op: WireOperation = { method: "GET", path: "/x", bindings: [{ field: "f", in: "query", name: "f" }, { field: "t", in: "query", name: "t" }] };
    const r = encodeRequest(op, { f: { a: 1 }, t: ["x", "y"] }, base);
    expect(r.url).toBe(`http://h/x?f=${percentEncode('{"a":1}')}&t=x&t=y`);
    expect(r.headers.accept).toBe("application/json");
    expect(r.body).toBeUndefined();
  });

  it("sends cookies (form), headers (simple) and a path label", () => {
    const op: WireOperation = {
      method: "GET",
      path: "/items/{id}",
      bindings: [
        { field: "id", in: "path", name: "id", style: "label", explode: true },
        { field: "hint", in: "cookie", name: "session_hint" },
        { field: "ids", in: "cookie", name: "ids", explode: false },
        { field: "trace", in: "header", name: "X-Trace", style: "simple" },
      ],
    };
    const r = encodeRequest(op, { id: ["a", "b"], hint: "x y", ids: [1, 2], trace: ["t1", "t2"] }, base);
    expect(r.url).toBe("http://h/items/.a.b");
    expect(r.headers.cookie).toBe("session_hint=x%20y; ids=1,2");
    expect(r.headers["x-trace"]).toBe("t1,t2");
  });

  it("encodes a form-urlencoded body per field encoding (default form, explode)", () => {
    const op: WireOperation = {
      method: "POST",
      path: "/v1/charges",
      contentType: "application/x-www-form-urlencoded",
      bindings: [
        { field: "amount", in: "body", name: "amount" },
        { field: "metadata", in: "body", name: "metadata", style: "deepObject", explode: true },
        { field: "expand", in: "body", name: "expand" },
        { field: "tags", in: "body", name: "tags", style: "pipeDelimited", explode: false },
      ],
    };
    const r = encodeRequest(op, { amount: 100, metadata: { order: "A 1" }, expand: ["a", "b"], tags: ["x", "y"] }, base);
    expect(r.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(r.body).toBe("amount=100&metadata[order]=A%201&expand=a&expand=b&tags=x|y");
    expect(new URLSearchParams(r.body as string).get("metadata[order]")).toBe("A 1");
  });

  it("sends a required body with no field given as {} (JSON) or an empty form; an optional one not at all", () => {
    const op: WireOperation = { method: "POST", path: "/x", bodyRequired: true, bindings: [{ field: "a", in: "body", name: "a" }] };
    expect(encodeRequest(op, {}, base).body).toBe("{}");
    expect(encodeRequest(op, {}, base).headers["content-type"]).toBe("application/json");
    expect(encodeRequest({ ...op, contentType: "application/x-www-form-urlencoded" }, {}, base).body).toBe("");
    expect(encodeRequest({ ...op, bodyRequired: false }, {}, base).body).toBeUndefined();
  });

  it("builds a multipart body: file fields as bytes with their part type, objects as JSON parts", () => {
    const op: WireOperation = {
      method: "POST",
      path: "/upload",
      contentType: "multipart/form-data",
      bindings: [
        { field: "purpose", in: "body", name: "purpose" },
        { field: "file", in: "body", name: "file", file: true, contentType: "image/png" },
        { field: "meta", in: "body", name: "meta" },
      ],
    };
    const r = encodeRequest(op, { purpose: "id", file: Buffer.from([0, 1, 2, 255]).toString("base64"), meta: { a: 1 } }, base, { boundary: "BOUNDARY" });
    expect(r.headers["content-type"]).toBe("multipart/form-data; boundary=BOUNDARY");
    const text = Buffer.from(r.body as ArrayBuffer).toString("latin1");
    expect(text).toBe(
      [
        "--BOUNDARY",
        'Content-Disposition: form-data; name="purpose"',
        "",
        "id",
        "--BOUNDARY",
        'Content-Disposition: form-data; name="file"; filename="file"',
        "Content-Type: image/png",
        "",
        "\u0000\u0001\u0002\u00ff",
        "--BOUNDARY",
        'Content-Disposition: form-data; name="meta"',
        "Content-Type: application/json",
        "",
        '{"a":1}',
        "--BOUNDARY--",
        "",
      ].join("\r\n"),
    );
  });

  it("names fields like Object.prototype members as plain keys", () => {
    const op: WireOperation = { method: "POST", path: "/x", bindings: [{ field: "__proto__", in: "body", name: "__proto__" }, { field: "constructor", in: "query", name: "constructor" }] };
    const input = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const r = encodeRequest(op, input, base);
    expect(r.body).toBe('{"__proto__":{"polluted":true}}');
    expect(r.url).toBe("http://h/x");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses header values outside visible Latin-1 or with CR/LF", () => {
    expect(headerValueProblem("café")).toBeNull();
    expect(headerValueProblem("a\r\nb")).toMatch(/line break/);
    expect(headerValueProblem("日本")).toMatch(/outside Latin-1/);
    expect(headerValueProblem("a\u0000")).toMatch(/control character U\+0000/);
  });
});

// ---------------------------------------------------------------------------------------------
// Over a real HTTP server: the SDK client and the suite's harness.
// ---------------------------------------------------------------------------------------------

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

let server: Server;
let baseUrl = "";
const seen: Seen[] = [];
let reply: { status: number; type: string; body: Buffer | string } = { status: 200, type: "application/json", body: "{}" };

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(reply.status, { "content-type": reply.type });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen.length = 0;
  reply = { status: 200, type: "application/json", body: "{}" };
});

const ajv = new Ajv2020({ strict: false });
const compile = (schema: object): Validator => ajv.compile(schema);
const contract = (): ContractInfo => ({ name: "wire", version: "1.0.0", baseUrl, baseUrlEnv: null, timeoutMs: 5000, auth: { type: "none" }, taxonomy: {} });
const client = () => new ContractClient(contract(), { journal: false, retry: { maxAttempts: 1 } });

function sdkOp(id: string, facts: Omit<OperationSpec, "id" | "mutating" | "idempotent" | "keyField" | "preview" | "pagination" | "errors" | "validateInput" | "validateOutput" | "validatePreview">, input: object, output: object = {}, mutating = true): OperationSpec {
  return { id, ...facts, mutating, idempotent: mutating ? "none" : "natural", keyField: null, preview: null, pagination: null, errors: [], validateInput: compile(input), validateOutput: compile(output), validatePreview: null };
}

const createCharge = sdkOp(
  "create_charge",
  {
    method: "POST",
    path: "/v1/charges",
    contentType: "application/x-www-form-urlencoded",
    bodyRequired: true,
    bindings: [
      { field: "amount", in: "body", name: "amount" },
      { field: "metadata", in: "body", name: "metadata", style: "deepObject", explode: true },
      { field: "trace", in: "header", name: "X-Trace-Id" },
    ],
  },
  { type: "object", properties: { amount: { type: "integer" }, metadata: { type: "object" }, trace: { type: "string" } } },
);

const listCharges = sdkOp(
  "list_charges",
  {
    method: "GET",
    path: "/v1/charges",
    bindings: [
      { field: "created", in: "query", name: "created", style: "deepObject", explode: true },
      { field: "hint", in: "cookie", name: "hint" },
    ],
  },
  { type: "object" },
  {},
  false,
);

const uploadFile = sdkOp(
  "upload_file",
  {
    method: "POST",
    path: "/files",
    contentType: "multipart/form-data",
    bindings: [
      { field: "purpose", in: "body", name: "purpose" },
      { field: "file", in: "body", name: "file", file: true, contentType: "application/pdf" },
    ],
  },
  { type: "object", properties: { purpose: { type: "string" }, file: { type: "string", contentEncoding: "base64" } } },
);

const invoicePdf = sdkOp("invoice_pdf", { method: "GET", path: "/invoices/{id}/pdf", accept: "application/pdf", bindings: [{ field: "id", in: "path", name: "id" }] }, { type: "object" }, { type: "string", contentEncoding: "base64" }, false);
const invoiceText = sdkOp("invoice_text", { method: "GET", path: "/invoices/{id}/txt", accept: "text/plain", bindings: [{ field: "id", in: "path", name: "id" }] }, { type: "object" }, { type: "string", maxLength: 20 }, false);

describe("the SDK over HTTP", () => {
  it("sends a form-urlencoded body with a deepObject field", async () => {
    await client().call(createCharge, { amount: 500, metadata: { order_id: "A-1", note: "a&b" } });
    const r = seen[0]!;
    expect(r.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(r.body.toString("utf8"));
    expect([...form]).toEqual([["amount", "500"], ["metadata[order_id]", "A-1"], ["metadata[note]", "a&b"]]);
  });

  it("sends a required body when no body field is given (an empty form)", async () => {
    await client().call(createCharge, {});
    expect(seen[0]!.method).toBe("POST");
    expect(seen[0]!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(seen[0]!.headers["content-length"]).toBe("0");
  });

  it("sends a deepObject query and a cookie", async () => {
    await client().call(listCharges, { created: { gt: 1700000000, lte: 1800000000 }, hint: "h1" });
    expect(seen[0]!.url).toBe("/v1/charges?created[gt]=1700000000&created[lte]=1800000000");
    expect(seen[0]!.headers.cookie).toBe("hint=h1");
  });

  it("sends a multipart body whose file part holds the decoded bytes", async () => {
    const bytes = Buffer.from("%PDF-1.7 \u00ff\u0000", "latin1");
    await client().call(uploadFile, { purpose: "dispute_evidence", file: bytes.toString("base64") });
    const r = seen[0]!;
    const type = String(r.headers["content-type"]);
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    // Parse it back the way servers do.
    const parsed = await new Response(new Uint8Array(r.body), { headers: { "content-type": type } }).formData();
    expect(parsed.get("purpose")).toBe("dispute_evidence");
    const file = parsed.get("file") as File;
    expect(file.type).toBe("application/pdf");
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it("asks for a PDF and returns it as base64, validated against the output schema", async () => {
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    reply = { status: 200, type: "application/pdf", body: pdf };
    const result = await client().call(invoicePdf, { id: "in_1" });
    expect(seen[0]!.headers.accept).toBe("application/pdf");
    expect(result).toBe(pdf.toString("base64"));
  });

  it("returns a text answer as a string, and refuses one the output schema refuses", async () => {
    reply = { status: 200, type: "text/plain; charset=utf-8", body: "Invoice in_1: 5 €" };
    expect(await client().call(invoiceText, { id: "in_1" })).toBe("Invoice in_1: 5 €");
    expect(seen[0]!.headers.accept).toBe("text/plain");
    reply = { status: 200, type: "text/plain", body: "x".repeat(30) };
    await expect(client().call(invoiceText, { id: "in_1" })).rejects.toMatchObject({ code: "CLIENT_RESPONSE_INVALID" });
  });

  it("refuses a header value outside Latin-1 at validation, naming the field, and sends nothing", async () => {
    const error = await client().call(createCharge, { amount: 1, trace: "trace-日本" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ code: "CLIENT_INVALID_INPUT", field: "trace", outcome: "rejected" });
    expect((error as Error).message).toContain("X-Trace-Id");
    const crlf = await client().call(createCharge, { amount: 1, trace: "a\r\nInjected: 1" }).catch((e: unknown) => e);
    expect(crlf).toMatchObject({ code: "CLIENT_INVALID_INPUT", field: "trace" });
    expect(seen).toHaveLength(0);
  });
});

describe("the contract suite's harness sends what the SDK sends", () => {
  const suiteOp = (op: OperationSpec, output: object): SuiteOperation => ({
    id: op.id,
    method: op.method,
    path: op.path,
    bindings: op.bindings,
    successStatus: 200,
    body: null,
    ...(op.contentType !== undefined ? { contentType: op.contentType } : {}),
    ...(op.bodyRequired !== undefined ? { bodyRequired: op.bodyRequired } : {}),
    ...(op.accept !== undefined ? { accept: op.accept } : {}),
    kind: op.mutating ? "mutating" : "read",
    input: { type: "object" },
    output,
    errors: [],
    idempotency: null,
    preview: null,
    preconditions: [],
    pagination: null,
  });
  const harness = () => new Harness({ name: "wire", version: "1.0.0", auth: { type: "none", header: null }, taxonomy: new Map(), operations: [] }, { baseUrl, reset: async () => {}, sampleInput: () => undefined });

  it.each([
    ["a form body with a deepObject field", createCharge, { amount: 7, metadata: { a: "b c" } }],
    ["a required empty body", createCharge, {}],
    ["a deepObject query and a cookie", listCharges, { created: { gt: 1 }, hint: "h" }],
  ] as const)("%s", async (_name, op, input) => {
    await client().call(op, input);
    await harness().call(suiteOp(op, {}), input);
    const [sdk, suite] = seen;
    expect(suite!.url).toBe(sdk!.url);
    expect(suite!.body.toString("utf8")).toBe(sdk!.body.toString("utf8"));
    for (const name of ["content-type", "accept", "cookie"]) expect(suite!.headers[name]).toBe(sdk!.headers[name]);
  });

  it("reads a PDF answer as base64, as the SDK does", async () => {
    reply = { status: 200, type: "application/pdf", body: Buffer.from([1, 2, 3]) };
    const h = harness();
    const op = suiteOp(invoicePdf, { type: "string", contentEncoding: "base64" });
    const exchange = await h.call(op, { id: "x" });
    expect(seen[0]!.headers.accept).toBe("application/pdf");
    expect(h.expectSuccess(op, exchange)).toBe("AQID");
  });
});
