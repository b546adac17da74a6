/**
 * Report mode joins the hostile corpus: contracts whose field names, patterns and text carry markup,
 * control and bidi characters are run through `contractgen test` against an implementation that
 * answers with hostile bodies too. The JUnit XML must stay well-formed with one testcase per check,
 * and the Markdown summary must keep its tables and code blocks intact and show no invisible or
 * markup-active character outside a code block.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { parseContract } from "../../src/contract/parse.js";
import { mdCode, mdInline, renderMarkdown, type RunSummary, summarize } from "../../src/tests-runtime/report.js";
import { descendants, parseXml } from "../contract-suite/xml.js";

const HOSTILE = 'x</failure>]]><script>&amp;\u0000\u001b[31m\u202e\u2028```|`|\ud800"\'${CANARY_R}';
/** Characters that must never reach Markdown outside a code block, nor any report raw. */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])/;

/** Every fenced block is closed by a fence at least as long; outside them, the text of each line. */
function outsideCode(md: string): { blocks: number; lines: string[] } {
  const lines: string[] = [];
  let fence: string | null = null;
  let blocks = 0;
  for (const line of md.split("\n")) {
    const m = /^(`{3,})/.exec(line);
    if (fence === null && m) {
      fence = m[1]!;
      blocks++;
    } else if (fence !== null && m && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
    else if (fence === null) lines.push(line);
  }
  expect(fence, "an unclosed code block").toBeNull();
  return { blocks, lines };
}

function checkMarkdown(md: string, summary: RunSummary): void {
  const { blocks, lines } = outsideCode(md);
  expect(blocks).toBe(summary.failed + summary.errors.length);
  for (const line of lines) {
    expect(line).not.toMatch(INVISIBLE);
    // No raw HTML or entity outside code: every < and & is escaped.
    expect(line).not.toMatch(/(?<!\\)[<&]/);
    // Table rows keep their columns: 5 in the counts table, 3 in the skipped table.
    if (line.startsWith("|")) expect([4, 6]).toContain(line.split(/(?<!\\)\|/).length - 1);
  }
}

describe("report helpers escape hostile text", () => {
  it("inline text: one line, no invisible character, every markup character escaped", () => {
    const s = mdInline(HOSTILE);
    expect(s).not.toMatch(INVISIBLE);
    expect(s).not.toContain("\n");
    expect(s).not.toMatch(/(?<!\\)[<>&|`*_[\]$]/);
    expect(s).toContain("\\u\\{202e\\}");
  });
  it("code blocks: no content closes the fence early", () => {
    const block = mdCode("a\n```\n````\nb");
    expect(block.startsWith("`````text\n")).toBe(true);
    expect(block.endsWith("\n`````")).toBe(true);
  });
  it("a summary of hostile checks renders with intact tables and blocks", () => {
    const checks = [
      { operation: HOSTILE, check: HOSTILE, state: "failed" as const, message: HOSTILE, violation: true },
      { operation: HOSTILE, check: `${HOSTILE}2`, state: "skipped" as const, reason: HOSTILE },
      { operation: "ok", check: "fine", state: "passed" as const },
    ];
    const summary = summarize(HOSTILE, checks, [HOSTILE]);
    checkMarkdown(renderMarkdown(summary), summary);
  });
});

describe("contractgen test reports on hostile contracts and a hostile implementation", () => {
  let server: Server;
  let url = "";
  let n = 0;
  const dir = mkdtempSync(join(tmpdir(), "contractgen-hostile-report-"));
  beforeAll(async () => {
    // Answers alternate: an undeclared hostile error code, a hostile success body, hostile text.
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const k = n++ % 3;
        if (k === 0) res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: HOSTILE, message: HOSTILE, field: HOSTILE } }));
        else if (k === 1) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: HOSTILE, [HOSTILE]: HOSTILE }));
        else res.writeHead(200, { "content-type": "text/plain" }).end(HOSTILE);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const name of ["inject-pattern", "inject-control-chars", "reserved-proto-keys", "skeleton-names-and-text"]) {
    it(name, async () => {
      const spec = `test/hostile/corpus/${name}.yaml`;
      const model = parseContract(spec).model!;
      const samples = join(dir, `${name}.json`);
      writeFileSync(samples, JSON.stringify(Object.fromEntries(model.operations.map((o) => [o.names.id, [{}]]))));
      const reports = join(dir, name);
      let stdout = "";
      let stderr = "";
      const code = await run(["test", spec, "--base-url", url, "--samples", samples, "--report-dir", reports], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
      expect(code, stderr).toBe(1);
      for (const out of [stdout, stderr]) expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/);
      const summary = JSON.parse(readFileSync(join(reports, "contract-summary.json"), "utf8")) as RunSummary;
      expect(summary.failed).toBeGreaterThan(0);
      const xml = parseXml(readFileSync(join(reports, "contract-junit.xml"), "utf8"));
      const cases = descendants(xml, "testcase");
      expect(cases.length).toBe(summary.run);
      expect(Number(xml.attributes.get("tests"))).toBe(summary.run);
      expect(cases.filter((c) => c.children.some((x) => x.name === "failure")).length).toBe(summary.failed);
      expect(cases.filter((c) => c.children.some((x) => x.name === "skipped")).length).toBe(summary.skipped);
      checkMarkdown(readFileSync(join(reports, "contract-summary.md"), "utf8"), summary);
    }, 120_000);
  }
});
