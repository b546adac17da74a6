/**
 * The `effects-inferred` warning tells the reader how to settle the guess where they write: a contract
 * file removes `inferred: true`; an OpenAPI document read in place has no such line, and states the
 * effects in the operation's x-contract instead.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseContractText } from "../../src/contract/parse.js";
import { parseOpenApi } from "../../src/import/openapi/in-memory.js";

const ROOT = join(process.cwd(), "test-results", "import-effects-hint");

beforeAll(() => {
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(ROOT, { recursive: true });
});

describe("effects-inferred hint", () => {
  it("read from OpenAPI, it says to state effects in x-contract, not to remove a line the document lacks", async () => {
    const file = join(ROOT, "notes.yaml");
    writeFileSync(file, [
      "openapi: 3.1.0",
      "info: { title: Notes, version: 1.0.0 }",
      "servers: [{ url: https://api.notes.example }]",
      "paths:",
      "  /notes:",
      "    get:",
      "      operationId: list_notes",
      "      summary: List notes.",
      "      responses:",
      "        \"200\": { description: The notes. }",
      "",
    ].join("\n"));
    const r = await parseOpenApi(file);
    const d = r.diagnostics.find((x) => x.code === "effects-inferred");
    expect(d?.hint).toMatch(/state them in the operation's `x-contract`/);
    expect(d?.hint).not.toMatch(/remove `inferred: true`/);
    expect(d?.location.file).toBe(file);
  });

  it("in a contract file, it still says to remove inferred: true", () => {
    const text = [
      "contract: notes",
      "version: 1.0.0",
      "changelog: [{ version: 1.0.0, date: \"2026-01-01\", summary: First. }]",
      "transport: { http: { baseUrl: https://api.notes.example } }",
      "errors: { NOT_FOUND: { class: not_found, action: verify_identifier, http: 404 } }",
      "operations:",
      "  list_notes:",
      "    summary: List notes.",
      "    http: { method: GET, path: /notes }",
      "    effects: { kind: read, inferred: true }",
      "    input: { type: object }",
      "    output: { type: object }",
      "",
    ].join("\n");
    const d = parseContractText("notes.yaml", text).diagnostics.find((x) => x.code === "effects-inferred");
    expect(d?.hint).toMatch(/remove `inferred: true`/);
  });
});
