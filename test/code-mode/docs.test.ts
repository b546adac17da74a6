/**
 * Code mode's `search_docs` source (src/code-runtime/docs.ts): the SDK's methods as the package's own
 * client declares them, with their documentation and the types they name, ranked by a query and
 * served in bounded pages with a continuation.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type DocsBrief, type DocsEntry, docsIndex, groupByOperation, readMethodDocs, SEARCH_DOCS_MAX } from "../../src/code-runtime/docs.js";
import { toolSpecs } from "../../src/emit/mcp/tools.js";
import { parseContract } from "../../src/contract/parse.js";
import { codeMethods } from "../../src/emit/code/methods.js";

const billing = parseContract("specs/billing.v2.yaml").model!;
const read = (file: string) => readFileSync(`generated-examples/billing.v2/sdk/${file}`, "utf8");
const methods = readMethodDocs(read("client.ts"), read("types.ts"), "BillingClient", new Set(codeMethods(billing).map((m) => m.name)));

describe("search_docs over the billing SDK", () => {
  it("holds every method code mode bridges, each with its signature, its documentation and the types it names", () => {
    expect(methods.map((m) => m.name).sort()).toEqual(codeMethods(billing).map((m) => m.name).sort());
    const refund = methods.find((m) => m.name === "refundInvoice")!;
    expect(refund.signature).toMatch(/^refundInvoice\(input: .*T\.RefundInvoiceInput.*\): Promise<T\.RefundInvoiceOutput>$/);
    // The behaviour the generator documented: preview and token, key, preconditions, errors with actions.
    expect(refund.doc).toContain("pass the `confirm_token` that `previewRefundInvoice`");
    expect(refund.doc).toContain("idempotent under its operation key");
    expect(refund.doc).toContain("INVOICE_CHANGED");
    expect(refund.doc).toMatch(/REFUND_EXCEEDS_BALANCE \(conflict → reread_and_replan\)/);
    expect(refund.types.join("\n")).toContain("export interface RefundInvoiceInput");
    // The output is an alias of a shared type: the entry follows it to its declaration.
    expect(refund.types.join("\n")).toContain("export type RefundInvoiceOutput = Refund;");
    expect(refund.types.join("\n")).toMatch(/export (interface|type) Refund\b/);
  });

  it("ranks by the query's words (name first) and pages with a continuation until the matches end", () => {
    const index = docsIndex(methods);
    const first = index.search("refund an invoice", 0, 1);
    expect(first.results.map((r) => r.method)).toEqual(["refundInvoice"]);
    expect(first.next_offset).toBe(1);
    const all: string[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const page = index.search("refund an invoice", offset, 1);
      all.push(...page.results.map((r) => r.method));
      offset = page.next_offset;
    }
    expect(all).toHaveLength(first.total);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain("previewRefundInvoice");
    expect(index.search("zzzz qqqq").total).toBe(0);
    // A page is bounded whatever it asks for.
    expect(index.search("", 0, 1000).results.length).toBeLessThanOrEqual(SEARCH_DOCS_MAX);
  });

  it("shows an operation once, its preview and traversal with it and its worked example; the best match whole, the others in brief until asked by name", () => {
    const operations = toolSpecs(billing).map(({ spec }) => ({ call: spec.sdkMethod, preview: spec.previewMethod, all: spec.allMethod ?? null, ...(spec.codeExample ? { example: spec.codeExample } : {}) }));
    const grouped = groupByOperation(methods, operations);
    expect(grouped.map((m) => m.name).sort()).toEqual(operations.map((o) => o.call).sort());
    const index = docsIndex(grouped);
    const refund = index.search("refund an invoice", 0, 1).results[0] as DocsEntry;
    expect(refund.method).toBe("refundInvoice");
    expect(refund.variants?.map((v) => v.method)).toEqual(["previewRefundInvoice"]);
    expect(refund.variants?.[0]?.doc).toContain("executes nothing");
    expect(refund.example).toContain("client.previewRefundInvoice(");
    // The preview's own result type joins the call's.
    expect(refund.types).toContain("RefundInvoicePreview");
    const customers = index.search("list customers", 0, 1).results[0] as DocsEntry;
    expect(customers.variants?.map((v) => v.method)).toEqual(["listCustomersAll"]);
    expect(customers.example).toContain(".collect()");
    // The rest of a page is brief: name, signature, summary; its method's name brings it whole.
    const page = index.search("customer", 0, 4).results;
    expect(page.length).toBeGreaterThan(1);
    expect("doc" in page[0]!).toBe(true);
    for (const brief of page.slice(1) as DocsBrief[]) {
      expect(brief).toMatchObject({ brief: true, signature: expect.stringContaining(brief.method) });
      expect(brief.summary.length).toBeGreaterThan(0);
      expect("types" in brief).toBe(false);
      const whole = index.search(brief.method, 0, 1).results[0] as DocsEntry;
      expect(whole.method).toBe(brief.method);
      expect(whole.types.length).toBeGreaterThan(0);
    }
    // A traversal's or a preview's name finds its operation's entry.
    expect(index.search("previewRefundInvoice", 0, 1).results[0]!.method).toBe("refundInvoice");
  });

  it("a type too large for one entry is cut and says so", () => {
    const huge = `export interface Big {\n${Array.from({ length: 2000 }, (_, i) => `  field_${i}: string;`).join("\n")}\n}\n`;
    const docs = readMethodDocs("export class C {\n  /** Read a big thing. */\n  getBig(input: T.Big): Promise<T.Big> { return null!; }\n}\n", huge, "C");
    const page = docsIndex(docs).search("big");
    expect(page.results[0]).toMatchObject({ method: "getBig", typesCut: true });
    expect((page.results[0] as DocsEntry).types.length).toBeLessThan(huge.length);
  });
});
