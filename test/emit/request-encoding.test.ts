/**
 * The request-encoding facts of a contract reach the generated package: the SDK's operations table
 * carries the declared styles, content type, required body and Accept, and the contract tests read them there,
 * and the runtime's encoder travels verbatim; a contract without them emits what it did before.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { contractSpec } from "../../src/tests-runtime/harness.js";
import { emitPackage } from "../../src/emit/index.js";
import { parseContractText } from "../../src/contract/parse.js";

const CONTRACT = `contract: charges
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
errors: { BAD: { class: invalid_input, action: fix_field, http: 400 } }
operations:
  create_charge:
    summary: Create a charge.
    http:
      method: POST
      path: /v1/charges/{id}
      query: [created]
      cookies: { hint: session_hint }
      params: { created: { style: deepObject, explode: true }, id: { style: label } }
      contentType: application/x-www-form-urlencoded
      encoding: { metadata: { style: deepObject, explode: true } }
      bodyRequired: true
    effects: { kind: mutating, idempotent: none, destructive: false }
    input:
      type: object
      required: [id]
      properties:
        id: { type: string }
        created: { type: object, properties: { gt: { type: integer } } }
        hint: { type: string }
        metadata: { type: object, additionalProperties: { type: string } }
        amount: { type: integer }
    output: { type: object }
  upload:
    summary: Upload a file.
    http: { method: POST, path: /files, contentType: multipart/form-data, encoding: { file: { contentType: image/png } } }
    effects: { kind: mutating, idempotent: none, destructive: false }
    input: { type: object, required: [file], properties: { file: { type: string, contentEncoding: base64 }, purpose: { type: string } } }
    output: { type: object }
  invoice_pdf:
    summary: An invoice as PDF.
    http: { method: GET, path: "/invoices/{id}/pdf", accept: application/pdf }
    effects: { kind: read }
    input: { type: object, required: [id], properties: { id: { type: string } } }
    output: { type: string, contentEncoding: base64, contentMediaType: application/pdf }
`;

describe("request encoding in the generated package", async () => {
  const parsed = parseContractText("charges.yaml", CONTRACT);
  const files = await emitPackage(parsed.model!);
  const operations = JSON.parse(files.get("sdk/operations.json")!) as Record<string, Record<string, unknown>>;

  it("validates", () => {
    expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("puts the declared facts in the SDK's operations table", () => {
    expect(operations.create_charge).toMatchObject({
      contentType: "application/x-www-form-urlencoded",
      bodyRequired: true,
      bindings: [
        { field: "id", in: "path", name: "id", style: "label" },
        { field: "created", in: "query", name: "created", style: "deepObject", explode: true },
        { field: "hint", in: "cookie", name: "session_hint" },
        { field: "metadata", in: "body", name: "metadata", style: "deepObject", explode: true },
        { field: "amount", in: "body", name: "amount" },
      ],
    });
    expect(operations.upload!.bindings).toEqual([
      { field: "file", in: "body", name: "file", contentType: "image/png", file: true },
      { field: "purpose", in: "body", name: "purpose" },
    ]);
    expect(operations.invoice_pdf).toMatchObject({ accept: "application/pdf" });
    expect(operations.invoice_pdf).not.toHaveProperty("contentType");
  });

  it("gives the contract tests the same facts: the suite reads them from the SDK's table", () => {
    const spec = files.get("tests/contract.ts")!;
    expect(spec).not.toContain('"bindings"');
    const dir = mkdtempSync(join(tmpdir(), "request-encoding-"));
    try {
      mkdirSync(join(dir, "sdk"));
      for (const f of ["sdk/operations.json", "sdk/schemas.json"]) writeFileSync(join(dir, f), files.get(f)!);
      const linked = contractSpec({ name: "charges", version: "1.0.0", baseUrl: "http://127.0.0.1", baseUrlEnv: null, timeoutMs: 1000, auth: { type: "none" }, taxonomy: {} }, pathToFileURL(join(dir, "sdk/")));
      const charge = linked.operations.find((op) => op.id === "create_charge")!;
      expect(charge.contentType).toBe("application/x-www-form-urlencoded");
      expect(charge.bodyRequired).toBe(true);
      expect(charge.bindings.find((b) => b.field === "created")).toMatchObject({ style: "deepObject", explode: true });
      expect(linked.operations.find((op) => op.id === "invoice_pdf")!.accept).toBe("application/pdf");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("carries the runtime's one encoder verbatim, and the suite's harness uses it", () => {
    expect(files.get("sdk/runtime/wire-request.ts")).toBe(readFileSync("src/runtime/wire-request.ts", "utf8"));
    expect(files.get("tests/runtime/harness.ts")).toContain('from "../../sdk/runtime/wire-request.js"');
    expect(files.get("tests/runtime/harness.ts")).not.toContain("new URLSearchParams()");
  });

  it("leaves the descriptors of a contract without the new keys as they were", async () => {
    const plain = JSON.parse(readFileSync("generated-examples/billing.v1/sdk/operations.json", "utf8")) as Record<string, Record<string, unknown>>;
    for (const op of Object.values(plain)) {
      expect(op).not.toHaveProperty("contentType");
      expect(op).not.toHaveProperty("accept");
      for (const b of op.bindings as Array<Record<string, unknown>>) expect(Object.keys(b)).toEqual(["field", "in", "name"]);
    }
  });
});
