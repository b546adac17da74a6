/**
 * The `pagination` block's styles (cursor, next-link, page, offset): a valid contract per style
 * reaches the model as written, and each way to get a style wrong is a located diagnostic.
 * (Single-code cases also live in test/fixtures/invalid/, checked by fixtures.test.ts.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContract } from "../../src/contract/parse.js";

const VALID = "test/fixtures/valid/pagination-styles.yaml";

describe("a contract with every pagination style", () => {
  const result = parseContract(VALID);
  const page = (id: string) => result.model!.operations.find((o) => o.names.id === id)!.pagination;

  it("validates without findings", () => {
    expect(result.diagnostics).toEqual([]);
  });

  it("keeps cursor paging as before, with style cursor by default", () => {
    expect(page("list_by_cursor")).toMatchObject({ style: "cursor", cursorField: "cursor", nextCursorField: "next_cursor", itemsField: "notes", limitField: "limit", limitDefault: 2, limitMax: 50, nextLink: null, pageField: null, offsetField: null });
  });

  it("models a next link in an output field or in the Link header", () => {
    expect(page("list_by_link_field")).toMatchObject({ style: "next-link", nextLink: { kind: "field", field: "next" }, itemsField: "notes", cursorField: null, nextCursorField: null });
    expect(page("list_by_link_header")).toMatchObject({ style: "next-link", nextLink: { kind: "header", header: "Link" }, itemsField: null, limitField: "per_page", limitDefault: 30 });
  });

  it("takes the page-size bound from the limit field's maximum when limit.max is left out", () => {
    expect(page("list_by_link_header")!.limitMax).toBe(100);
  });

  it("models page numbers (with their first page) and offsets", () => {
    expect(page("list_by_page")).toMatchObject({ style: "page", pageField: "page", firstPage: 0, itemsField: null, limitMax: 20 });
    expect(page("list_by_offset")).toMatchObject({ style: "offset", offsetField: "offset", itemsField: "notes", limitField: "count", limitMax: 25, totalField: "total" });
  });
});

/** The valid contract with one operation's pagination block (and optionally its schemas) rewritten. */
function variant(op: string, edit: (text: string) => string): string {
  const text = readFileSync(VALID, "utf8");
  const start = text.indexOf(`  ${op}:\n`);
  const end = text.indexOf("\n  list_", start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  const path = join(mkdtempSync(join(tmpdir(), "paging-")), "contract.yaml");
  writeFileSync(path, text.replace(section, edit(section)));
  return path;
}

function findings(path: string): string[] {
  return parseContract(path).diagnostics.map((d) => `${d.severity} ${d.code} ${d.location.pointer}`);
}

describe("invalid pagination blocks", () => {
  it("a style without its field is missing a required field", () => {
    expect(findings(variant("list_by_page", (s) => s.replace("      page: page\n", "")))).toEqual(["error contract-required-field /operations/list_by_page/pagination/page"]);
    expect(findings(variant("list_by_offset", (s) => s.replace("      offset: offset\n", "")))).toEqual(["error contract-required-field /operations/list_by_offset/pagination/offset"]);
    expect(findings(variant("list_by_link_field", (s) => s.replace("      nextLink: next\n", "")))).toEqual(["error contract-required-field /operations/list_by_link_field/pagination/nextLink"]);
  });

  it("cursor paging still requires its cursor fields, items and limit.max", () => {
    expect(findings(variant("list_by_cursor", (s) => s.replace("      cursor: cursor\n", "")))).toEqual(["error contract-required-field /operations/list_by_cursor/pagination/cursor"]);
    expect(findings(variant("list_by_cursor", (s) => s.replace("      items: notes\n", "")))).toEqual(["error contract-required-field /operations/list_by_cursor/pagination/items"]);
    expect(findings(variant("list_by_cursor", (s) => s.replace("default: 2, max: 50", "default: 2")))).toEqual(["error contract-required-field /operations/list_by_cursor/pagination/limit/max"]);
  });

  it("rejects an unknown style, a wrong nextLink shape and a firstPage other than 0 or 1", () => {
    expect(findings(variant("list_by_page", (s) => s.replace("style: page", "style: pages")))).toEqual(["error contract-invalid-value /operations/list_by_page/pagination/style"]);
    expect(findings(variant("list_by_link_header", (s) => s.replace("{ header: Link }", "{ header: X-Next }")))).toEqual(["error contract-invalid-value /operations/list_by_link_header/pagination/nextLink/header"]);
    expect(findings(variant("list_by_link_field", (s) => s.replace("nextLink: next", "nextLink: 3")))).toEqual(["error contract-invalid-type /operations/list_by_link_field/pagination/nextLink"]);
    expect(findings(variant("list_by_page", (s) => s.replace("firstPage: 0", "firstPage: 2")))).toEqual(["error contract-invalid-value /operations/list_by_page/pagination/firstPage"]);
  });

  it("a page or offset field must be an integer input, a next-link field a string output", () => {
    expect(findings(variant("list_by_page", (s) => s.replace("page: { type: integer, minimum: 0 }", "page: { type: string }")))).toEqual(["error pagination-field-missing /operations/list_by_page/pagination/page"]);
    expect(findings(variant("list_by_offset", (s) => s.replace("      offset: offset\n      items", "      offset: skip\n      items")))).toEqual(["error pagination-field-missing /operations/list_by_offset/pagination/offset"]);
    expect(findings(variant("list_by_link_field", (s) => s.replace('next: { type: [string, "null"] }', "next: { type: integer }")))).toEqual(["error pagination-field-missing /operations/list_by_link_field/pagination/nextLink"]);
  });

  it("items may be omitted only when the output itself is an array", () => {
    expect(findings(variant("list_by_offset", (s) => s.replace("      items: notes\n", "")))).toEqual(["error pagination-items-omitted /operations/list_by_offset/pagination"]);
  });

  it("a key of another style is refused, not ignored", () => {
    expect(findings(variant("list_by_page", (s) => s.replace("      page: page\n", "      page: page\n      cursor: page\n")))).toEqual(["error pagination-style-field /operations/list_by_page/pagination/cursor"]);
    expect(findings(variant("list_by_cursor", (s) => s.replace("      cursor: cursor\n", "      cursor: cursor\n      firstPage: 1\n")))).toEqual(["error pagination-style-field /operations/list_by_cursor/pagination/firstPage"]);
  });

  it("without a known page-size bound, validate warns (and a limit default above the field's maximum is an error)", () => {
    expect(findings(variant("list_by_page", (s) => s.replace("      limit: { field: per_page, default: 2, max: 20 }\n", "")))).toEqual(["warning pagination-unbounded /operations/list_by_page/pagination"]);
    expect(findings(variant("list_by_link_header", (s) => s.replace("per_page: { type: integer, minimum: 1, maximum: 100 }", "per_page: { type: integer, minimum: 1 }")))).toEqual(["warning pagination-unbounded /operations/list_by_link_header/pagination/limit"]);
    expect(findings(variant("list_by_link_header", (s) => s.replace("default: 30", "default: 300")))).toEqual(["error pagination-limit-inconsistent /operations/list_by_link_header/pagination/limit/default"]);
    // A stated max must still agree with the field's maximum.
    expect(findings(variant("list_by_page", (s) => s.replace("max: 20", "max: 30")))).toEqual(["error pagination-limit-inconsistent /operations/list_by_page/pagination/limit/max"]);
  });
});

describe("paging fields whose type is given through allOf", () => {
  const NOTES = `        notes: { type: array, items: { $ref: "#/types/Note" } }\n`;
  const TOTAL = `        total: { type: integer }\n`;
  const withFields = (notes: string, total = "{ type: integer }") => variant("list_by_cursor", (s) => s.replace(NOTES, `        notes: ${notes}\n`).replace(TOTAL, `        total: ${total}\n`));

  it("accepts OpenAPI 3.0's way of describing a reference: allOf with the type and a description", () => {
    const path = withFields(`{ allOf: [{ type: array, items: { $ref: "#/types/Note" } }, { description: The page. }] }`, `{ allOf: [{ type: integer }, { description: All notes. }] }`);
    expect(findings(path)).toEqual([]);
  });

  it("reads the type through a reference inside allOf, and lets branches narrow it (number and integer meet in integer)", () => {
    const path = join(mkdtempSync(join(tmpdir(), "paging-")), "contract.yaml");
    const text = readFileSync(withFields(`{ allOf: [{ $ref: "#/types/Notes" }, { description: The page. }] }`, `{ allOf: [{ type: number }, { type: integer, minimum: 0 }] }`), "utf8");
    writeFileSync(path, text.replace("types:\n", `types:\n  Notes:\n    type: array\n    items: { $ref: "#/types/Note" }\n`));
    expect(findings(path)).toEqual([]);
  });

  it("still refuses a field whose allOf branches leave it no array (or no integer)", () => {
    expect(findings(withFields(`{ allOf: [{ type: array, items: { type: string } }, { type: object }] }`))).toEqual(["error pagination-field-missing /operations/list_by_cursor/pagination/items"]);
    expect(findings(withFields(NOTES.trim().replace("notes: ", ""), `{ allOf: [{ type: integer }, { type: string }] }`))).toEqual(["error pagination-field-missing /operations/list_by_cursor/pagination/total"]);
  });
});
