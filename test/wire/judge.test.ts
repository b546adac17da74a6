/**
 * The independent wire judge in CI: real OpenAPI documents (installed packages) served by Prism,
 * which validates each request against the document; every operation called through the generated
 * SDK, each declared error status provoked, a sample through the CLI and MCP server. Any rejected
 * request, unrecognised declared error or adapter request that differs from the SDK's fails.
 * The whole set, with a per-document table, is `node bench/wire.mjs`.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without type declarations
import { judgeDocument, JUDGE_ROOT } from "../../bench/wire/judge.mjs";
// @ts-expect-error: a plain ES module of the bench, without type declarations
import { WIRE_DOCUMENTS } from "../../bench/wire/documents.mjs";

interface Problem {
  operation: string;
  kind: string;
  detail: string;
}
interface Judgement {
  operations: number;
  called: number;
  fine: number;
  rejected: number;
  noInput: number;
  otherFailure: number;
  responseRefused: number;
  documentUnsound: number;
  mockLimitation: number;
  errorsProvoked: number;
  errorsRecognised: number;
  adapterCalls: number;
  adapterMismatches: number;
  problems: Problem[];
}

const work = mkdtempSync(join(tmpdir(), "contractgen-wire-"));
const documents = (WIRE_DOCUMENTS as Array<{ name: string; path: string; ci: boolean; errors?: boolean; covers: string }>).filter((d) => d.ci);

describe("wire judge: generated adapters against an OpenAPI mock that validates requests", () => {
  it.each(documents.map((d) => [d.name, d] as const))("%s", async (_name, doc) => {
    const r = (await judgeDocument({ document: join(JUDGE_ROOT as string, doc.path), name: doc.name, workDir: join(work, doc.name), maxOperations: 40, adapterSample: 2 })) as Judgement;
    const listed = (kinds: string[]) => r.problems.filter((p) => kinds.some((k) => p.kind.endsWith(k))).map((p) => `${p.operation} ${p.kind}: ${p.detail}`);
    // Not vacuous: most operations were called, and errors were provoked where the document declares them.
    expect(r.called, listed(["no-input"]).join("\n")).toBeGreaterThanOrEqual(Math.ceil(Math.min(r.operations, 40) * 0.8));
    expect(listed(["request-rejected"]), "requests the document's own validator refused").toEqual([]);
    expect(listed(["error-unrecognised"]), "declared errors that did not arrive as their contract code").toEqual([]);
    expect(listed(["request-differs"]), "CLI or MCP requests that differ from the SDK's").toEqual([]);
    expect(listed(["failure", "response-refused"]), "other failures").toEqual([]);
    expect(r.adapterCalls).toBeGreaterThan(0);
    if (doc.errors) expect(r.errorsProvoked, "declared errors provoked").toBeGreaterThan(0);
    // Every call accepted; an answer Prism could not build from the document's own examples is the document's fault.
    expect(r.fine + r.documentUnsound + r.mockLimitation).toBe(r.called);
    expect(r.documentUnsound).toBeLessThanOrEqual(r.called / 2);
  }, 300_000);
});
