/** What an MCP tool result says about one page of a next-link, page or offset read (completenessOf). */
import { describe, expect, it } from "vitest";
import { completenessOf, type StyledPageSpec, type ToolSpec } from "../../src/mcp-runtime/server.js";

const page: StyledPageSpec = { style: "page", positionField: "page", firstPage: 1, itemsField: null, limitField: "per_page", limitDefault: 30, nextLinkField: null, partialField: null, errorsField: null };
const tool = (p: StyledPageSpec) => ({ name: "list_notes", page: p, task: null }) as unknown as ToolSpec;
const notes = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }));

describe("MCP completeness of one page", () => {
  it("page style: a full page says which page to ask for next; a short page is the last", () => {
    expect(completenessOf(tool(page), notes(2), { per_page: 2 })).toMatchObject({ complete: false, continuation: "2", reasons: [expect.stringMatching(/page = 2/)] });
    expect(completenessOf(tool(page), notes(1), { per_page: 2 })).toEqual({ complete: true, continuation: null, reasons: [] });
    // Without a page size in the call, the contract's default (30) judges the page.
    expect(completenessOf(tool(page), notes(30), {})).toMatchObject({ complete: false, continuation: "2" });
  });

  it("offset style: the next offset advances by the items on this page; a later page alone is never the answer", () => {
    const offset: StyledPageSpec = { ...page, style: "offset", positionField: "offset", itemsField: "notes" };
    expect(completenessOf(tool(offset), { notes: notes(2) }, { offset: 4, per_page: 2 })).toMatchObject({ complete: false, continuation: "6" });
    const last = completenessOf(tool(offset), { notes: notes(1) }, { offset: 4, per_page: 2 })!;
    expect(last.complete).toBe(false);
    expect(last.reasons.join(" ")).toMatch(/continues a traversal/);
  });

  it("next-link style: a Link header page is never stated complete, a link field only when it is empty", () => {
    const header: StyledPageSpec = { ...page, style: "next-link", positionField: null };
    expect(completenessOf(tool(header), notes(1), {})!.complete).toBe(false);
    const field: StyledPageSpec = { ...header, itemsField: "notes", nextLinkField: "next" };
    expect(completenessOf(tool(field), { notes: notes(1), next: "https://x.test/p2" }, {})!.complete).toBe(false);
    expect(completenessOf(tool(field), { notes: notes(1), next: null }, {})).toEqual({ complete: true, continuation: null, reasons: [] });
  });
});
