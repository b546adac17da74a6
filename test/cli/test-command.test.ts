/**
 * `contractgen test <spec> --base-url …`: the generated suite, run against a live implementation
 * (the billing reference platform, started here) without writing a project: exit 0 against the
 * correct platform, 1 against a seeded defect naming the failing check, 2 on bad input; the
 * report files are well-formed and agree with each other; the credential never shows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { type RunningPlatform, type SeededDefect, startPlatform } from "../../examples/shared/host.js";
import { NotImplementedError } from "../../src/host-runtime/errors.js";
import { run } from "../../src/cli/main.js";
import type { RunSummary } from "../../src/tests-runtime/report.js";
import { descendants, parseXml } from "../contract-suite/xml.js";

const TOKEN = "tok-3f9a1c-never-shown";
const SPEC = "specs/billing.v2.yaml";
const dir = mkdtempSync(join(tmpdir(), "contractgen-test-cli-"));
const SAMPLES = join(dir, "samples.yaml");
// No reset between checks on a live platform: samples that succeed again and again (no optional expectations).
writeFileSync(
  SAMPLES,
  `create_customer:
  - { email: new@example.com, name: New Customer }
  - { email: other@example.com, name: Other Customer }
get_customer: [{ customer_id: cus_ada001 }]
list_customers: [{}]
update_customer: [{ customer_id: cus_ada001, expected_revision: 1, name: Ada King }]
refund_invoice:
  - { invoice_id: inv_1001, amount: 100 }
  - { invoice_id: inv_1001, amount: 200 }
`,
);

async function contractgen(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  process.env.BILLING_TEST_TOKEN = TOKEN;
  const code = await run(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), color: false });
  return { code, stdout, stderr };
}

/** The skip reason of a check nothing can provoke on a live platform: the samples-file entry that would enable it (no fixture member: the run has no --fixture). */
const NO_RATE_LIMIT = "nothing provokes RATE_LIMITED: none was given or derived — give it in the samples file (--samples): errors: { get_invoice: { RATE_LIMITED: input that fails with RATE_LIMITED } }";
const RATE_LIMIT_CHECK = "error taxonomy > RATE_LIMITED (rate_limited) arrives as declared and changes nothing";

const platforms: RunningPlatform[] = [];
async function platform(defect?: SeededDefect): Promise<string> {
  const p = await startBillingServer({ token: TOKEN, ...(defect ? { defect } : {}) });
  platforms.push(p);
  return p.url;
}

afterAll(async () => {
  for (const p of platforms) await p.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("contractgen test against the billing reference platform", () => {
  let correct: { code: number; stdout: string; stderr: string };
  const reports = join(dir, "reports-ok");
  beforeAll(async () => {
    correct = await contractgen("test", SPEC, "--base-url", await platform(), "--token-env", "BILLING_TEST_TOKEN", "--samples", SAMPLES, "--report-dir", reports);
  }, 180_000);

  it("exits 0, streams progress on stderr and prints the counts on stdout", () => {
    expect(correct.code, correct.stderr).toBe(0);
    expect(correct.stderr).toContain("✓ create_customer > schema conformance of a successful call");
    // One line per check: no stack frames, no code frames.
    expect(correct.stderr).not.toMatch(/^\s+at |❯ /m);
    expect(correct.stdout).toMatch(/^billing 2\.0\.0 against http:\/\/127\.0\.0\.1:\d+\/: \d+ checks, \d+ passed, 0 failed, \d+ skipped/);
  });

  it("reports what it could not check as skipped, with the reason", () => {
    // A rate limit, a limited credential and the clock are not available on a live platform: each skip names the flag or entry.
    expect(correct.stdout).toContain("no credential lacking billing.customers:write — give it in the samples file (--samples): tokensWithout: { billing.customers:write: VARIABLE }");
    expect(correct.stdout).toContain("give --clock-command");
    expect(correct.stdout).not.toMatch(/fixture\.(sampleInput|errorInput|tokenWithout)|the fixture has no /);
    const summary = JSON.parse(readFileSync(join(reports, "contract-summary.json"), "utf8")) as RunSummary;
    // get_invoice has no sample: it is derived (the contract's example identifier), so its conformance runs.
    expect(summary.checks.find((c) => c.operation === "get_invoice" && c.check === "schema conformance of a successful call")).toMatchObject({ state: "passed" });
    expect(summary.checks.find((c) => c.operation === "get_invoice" && c.check === RATE_LIMIT_CHECK)).toMatchObject({ state: "skipped", reason: NO_RATE_LIMIT });
  });

  it("writes a JUnit XML and a Markdown summary whose counts agree with the run", () => {
    const summary = JSON.parse(readFileSync(join(reports, "contract-summary.json"), "utf8")) as RunSummary;
    const xml = parseXml(readFileSync(join(reports, "contract-junit.xml"), "utf8"));
    const cases = descendants(xml, "testcase");
    expect(xml.attributes.get("name")).toBe("billing 2.0.0");
    expect(Number(xml.attributes.get("tests"))).toBe(summary.run);
    expect(cases.length).toBe(summary.run);
    expect(cases.filter((c) => c.children.some((x) => x.name === "skipped")).length).toBe(summary.skipped);
    expect(summary.failed).toBe(0);
    expect(summary.passed + summary.skipped).toBe(summary.run);
    expect(summary.run).toBeGreaterThan(50);
    // The skip reason reaches the JUnit report as a property of the case.
    const skippedRateLimit = cases.find((c) => c.attributes.get("name") === `get_invoice > ${RATE_LIMIT_CHECK}`)!;
    expect(descendants(skippedRateLimit, "property").map((p) => p.attributes.get("value"))).toContain(NO_RATE_LIMIT);
    const md = readFileSync(join(reports, "contract-summary.md"), "utf8");
    expect(md).toContain(`**all checks passed**: ${summary.run} checks, ${summary.passed} passed, 0 failed, ${summary.skipped} skipped.`);
    for (const o of summary.operations) expect(md).toContain(`| ${o.operation.replace(/_/g, "\\_")} | ${o.run} | ${o.passed} | ${o.failed} | ${o.skipped} |`);
    expect(summary.operations.reduce((n, o) => n + o.run, 0)).toBe(summary.run);
  });

  it("never prints the credential", () => {
    expect(correct.stdout + correct.stderr).not.toContain(TOKEN);
    for (const f of ["contract-junit.xml", "contract-summary.md", "contract-summary.json"]) expect(readFileSync(join(reports, f), "utf8")).not.toContain(TOKEN);
  });
});

describe("contractgen test against a partly implemented skeleton (update_customer still its generated stub)", () => {
  let partial: { code: number; stdout: string; stderr: string };
  let stubUrl = "";
  const reports = join(dir, "reports-stub");
  const NOT_IMPLEMENTED = "not implemented: the server does not implement update_customer yet (its handler is a generated stub: fill it in mcp/handlers/update-customer.ts)";
  beforeAll(async () => {
    const p = await startBillingServer({
      token: TOKEN,
      // The reference platform with one handler as `generate --mcp skeleton` writes it.
      serve: (o) => {
        const stub = () => {
          throw new NotImplementedError("update_customer");
        };
        return startPlatform({ ...o, handlers: { ...(o.handlers as Record<string, never>), update_customer: { target: stub, execute: stub } } });
      },
    });
    platforms.push(p);
    stubUrl = p.url;
    partial = await contractgen("test", SPEC, "--base-url", p.url, "--token-env", "BILLING_TEST_TOKEN", "--samples", SAMPLES, "--report-dir", reports);
  }, 180_000);

  it("skips the stub's checks as not implemented, naming the handler file, instead of failing them as contract violations", () => {
    // Nothing failed, but the run is not a pass either: exit 4 says stubs are left, naming the flag that allows them.
    expect(partial.code, partial.stdout + partial.stderr).toBe(4);
    expect(partial.stdout).toMatch(/; exit 4 until they are filled in \(--allow-not-implemented exits 0 meanwhile\)$/m);
    expect(partial.stdout).toMatch(/^all \d+ checks that ran passed; \d+ wait for handlers still generated stubs$/m);
    expect(partial.stderr).toContain(`  - update_customer > schema conformance of a successful call (skipped: ${NOT_IMPLEMENTED})`);
    expect(partial.stdout + partial.stderr).not.toMatch(/undeclared error code|✗ update_customer/);
    expect(partial.stdout).toMatch(/: \d+ checks, \d+ passed, \d+ failed, \d+ skipped \(\d+ not implemented\)\n/);
    expect(partial.stdout).toMatch(new RegExp(`^  skipped \\d+ \\(update_customer\\): ${NOT_IMPLEMENTED.replace(/[()]/g, "\\$&")}$`, "m"));
    expect(partial.stdout).toMatch(/^not implemented yet: \d+ checks \(update_customer\) were skipped, not failed: an operation they call answers with a generated handler stub \(501 NOT_IMPLEMENTED\); exit 4 /m);
    const summary = JSON.parse(readFileSync(join(reports, "contract-summary.json"), "utf8")) as RunSummary;
    expect(summary.checks.find((c) => c.operation === "update_customer" && c.check === "schema conformance of a successful call")).toMatchObject({ state: "skipped", reason: NOT_IMPLEMENTED });
    // The Markdown report's verdict says so too, never "all checks passed".
    const md = readFileSync(join(reports, "contract-summary.md"), "utf8");
    expect(md).toMatch(/^\*\*not implemented yet: every check that ran passed, \d+ wait for handlers still generated stubs\*\*: /m);
    expect(md).not.toContain("all checks passed");
    // None of the stub's checks fails: each reaches the stub (skipped, not implemented) or is the host's own (input validation: passed).
    expect(summary.checks.filter((c) => c.operation === "update_customer" && c.state === "failed")).toEqual([]);
    expect(summary.checks.filter((c) => c.operation === "update_customer" && c.reason === NOT_IMPLEMENTED).length).toBeGreaterThanOrEqual(3);
    // The implemented operations are still checked.
    expect(summary.checks.find((c) => c.operation === "create_customer" && c.check === "schema conformance of a successful call")).toMatchObject({ state: "passed" });
  });

  it("exits 0 with --allow-not-implemented while the skeleton is being filled in, saying the stubs were allowed", async () => {
    const r = await contractgen("test", SPEC, "--base-url", stubUrl, "--token-env", "BILLING_TEST_TOKEN", "--samples", SAMPLES, "--operations", "update_customer", "--allow-not-implemented");
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^not implemented yet: \d+ checks \(update_customer\) were skipped, not failed: .*; allowed by --allow-not-implemented$/m);
  }, 180_000);

  it("names the operations on every summary line of skipped checks", () => {
    const skippedLines = partial.stdout.split("\n").filter((l) => l.startsWith("  skipped "));
    expect(skippedLines.length).toBeGreaterThan(3);
    for (const line of skippedLines) expect(line).toMatch(/^  skipped \d+ \([a-z_]+(, [a-z_]+)*( and \d+ more)?\): \S/);
    expect(partial.stdout).toMatch(/^  skipped \d+ \(get_invoice\): nothing provokes RATE_LIMITED/m);
  });
});

describe("contractgen test against a seeded defect", () => {
  it("exits 1 naming the failing check, and the reports carry the request and the response", async () => {
    const reports = join(dir, "reports-defect");
    const r = await contractgen("test", SPEC, "--base-url", await platform("executes-without-confirm-token"), "--token-env", "BILLING_TEST_TOKEN", "--samples", SAMPLES, "--operations", "refund_invoice", "--report-dir", reports);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain("failed: refund_invoice > an execution without a confirm token is refused");
    expect(r.stdout).toContain("refund_invoice: an execution without a confirm token must be refused, but it succeeded (200)");
    const summary = JSON.parse(readFileSync(join(reports, "contract-summary.json"), "utf8")) as RunSummary;
    expect(new Set(summary.checks.map((c) => c.operation))).toEqual(new Set(["refund_invoice"]));
    const xml = parseXml(readFileSync(join(reports, "contract-junit.xml"), "utf8"));
    expect(Number(xml.attributes.get("failures"))).toBe(summary.failed);
    const failed = descendants(xml, "testcase").filter((c) => c.children.some((x) => x.name === "failure"));
    expect(failed.map((c) => c.attributes.get("name"))).toContain("refund_invoice > an execution without a confirm token is refused");
    const failure = descendants(failed.find((c) => c.attributes.get("name") === "refund_invoice > an execution without a confirm token is refused")!, "failure")[0]!;
    expect(failure.attributes.get("type")).toBe("ContractViolation");
    expect(failure.attributes.get("message")).toMatch(/request: POST http:\/\/127\.0\.0\.1:\d+\/invoices\/inv_1001\/refunds \{"amount":100,"dry_run":false\}\s+response: 200 \{"id":"re_/);
    const md = readFileSync(join(reports, "contract-summary.md"), "utf8");
    expect(md).toContain("**contract violations found**");
    expect(md).toContain("### refund\\_invoice: an execution without a confirm token is refused\n\n```text\nrefund_invoice: an execution without a confirm token must be refused, but it succeeded (200)\n  request: POST");
  }, 180_000);
});

describe("contractgen test with the implementer's fixture", () => {
  it("runs the suite with --fixture (here the reference fixture, which starts a platform with a seeded defect) and exits 1", async () => {
    process.env.CONTRACT_DEFECT = "ignores-invalid-input";
    try {
      const r = await contractgen("test", SPEC, "--fixture", "examples/billing/contract-fixture.ts", "--operations", "get_customer");
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain("billing 2.0.0 against the fixture examples/billing/contract-fixture.ts:");
      expect(r.stdout).toContain("failed: get_customer > negative inputs > customer_id not matching ^cus_[A-Za-z0-9]+$");
      // The reports lived in the deleted temporary folder: nothing says where.
      expect(r.stderr).not.toContain("JUNIT report written");
    } finally {
      delete process.env.CONTRACT_DEFECT;
    }
  }, 180_000);
});

describe("contractgen test: the suite's time limit", () => {
  it("past --suite-timeout, the remaining checks fail at once saying so, and the reports are still written", async () => {
    const reports = join(dir, "reports-deadline");
    const r = await contractgen("test", SPEC, "--base-url", await platform(), "--token-env", "BILLING_TEST_TOKEN", "--samples", SAMPLES, "--operations", "get_customer", "--suite-timeout", "1ms", "--report-dir", reports);
    expect(r.code, r.stderr).toBe(1);
    const summary = JSON.parse(readFileSync(join(reports, "contract-summary.json"), "utf8")) as RunSummary;
    const failed = summary.checks.filter((c) => c.state === "failed");
    expect(failed.length).toBeGreaterThan(0);
    for (const c of failed) expect(c.message).toMatch(/not sent, the suite's time limit is reached/);
  }, 180_000);

  it("a suite that outlives its time limit (a fixture that never starts) is stopped: test-suite-timeout, exit 2", async () => {
    const fixture = join(dir, "never-starts.ts");
    writeFileSync(fixture, "export const fixture = { baseUrl: 'http://127.0.0.1:1', start: () => new Promise(() => {}), reset: async () => {}, sampleInput: () => undefined };\n");
    process.env.CONTRACTGEN_TEST_WIND_DOWN_MS = "500";
    try {
      const r = await contractgen("test", SPEC, "--fixture", fixture, "--operations", "get_customer", "--suite-timeout", "2s");
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/error \[test-suite-timeout\] the suite did not finish within --suite-timeout 2s/);
    } finally {
      delete process.env.CONTRACTGEN_TEST_WIND_DOWN_MS;
    }
  }, 180_000);
});

describe("contractgen test: bad input exits 2 with a stable code and no stack trace", () => {
  async function closedPort(): Promise<number> {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  }
  const badSamples = join(dir, "bad-samples.yaml");
  writeFileSync(badSamples, "create_customer: [{ email: a@example.com }]\nno_such_operation: [{}]\n");
  const notList = join(dir, "not-list.json");
  writeFileSync(notList, '{ "get_customer": [1] }');
  const badError = join(dir, "bad-error.yaml");
  writeFileSync(badError, "errors:\n  get_customer:\n    NO_SUCH_CODE: { customer_id: cus_x }\n");
  const credentialInFile = join(dir, "credential-in-file.yaml");
  writeFileSync(credentialInFile, "tokensWithout:\n  billing.customers:read: Bearer abc.def\n");

  const cases: Array<[string, () => Promise<string[]>, RegExp]> = [
    ["no target", async () => ["test", SPEC], /error \[test-no-target\]/],
    ["a base URL that is not one", async () => ["test", SPEC, "--base-url", "127.0.0.1:8080"], /error \[test-bad-base-url\]/],
    ["an unreachable base URL", async () => ["test", SPEC, "--base-url", `http://127.0.0.1:${await closedPort()}`], /error \[test-base-url-unreachable\] cannot reach http:\/\/127\.0\.0\.1:\d+\/: connection refused \(ECONNREFUSED\)/],
    ["an unset token variable", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--token-env", "CONTRACTGEN_NO_SUCH_VARIABLE"], /error \[test-token-env-unset\]/],
    ["a samples file naming an unknown operation", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--samples", badSamples], /bad-samples\.yaml:2:1: error \[test-samples-invalid\] the contract has no operation "no_such_operation" \(at \/no_such_operation\)/],
    ["a sample that is not an object", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--samples", notList], /not-list\.json:1:20: error \[test-samples-invalid\] a sample input must be a mapping/],
    ["a samples file provoking an error the operation does not declare", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--samples", badError], /bad-error\.yaml:3:5: error \[test-samples-invalid\] get_customer declares no error "NO_SUCH_CODE"; it declares .* \(at \/errors\/get_customer\/NO_SUCH_CODE\)/],
    ["a credential written into the samples file instead of its variable", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--samples", credentialInFile], /credential-in-file\.yaml:2:\d+: error \[test-samples-invalid\] give the name of the environment variable holding the credential \(never the credential itself\) \(at \/tokensWithout\/billing\.customers:read\)/],
    ["a missing samples file", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--samples", join(dir, "missing.yaml")], /error \[test-samples-invalid\].*\[file-not-found\]/],
    ["an unknown operation filter", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--operations", "refund_invoice,nope"], /error \[test-unknown-operation\] no operation "nope"/],
    ["a missing fixture module", async () => ["test", SPEC, "--fixture", join(dir, "nope.ts")], /error \[test-fixture-not-found\]/],
    ["an invalid contract", async () => ["test", "test/fixtures/invalid/does-not-exist.yaml", "--base-url", "http://127.0.0.1:1"], /error \[file-not-found\]/],
    ["an unknown option", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--no-such-flag"], /unknown option/],
    ["reports into a system folder", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--report-dir", "/etc"], /error \[test-report-dir-refused\] --report-dir \/etc is the system folder \/etc/],
    ["reports into the root", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--report-dir", "/"], /error \[test-report-dir-refused\] --report-dir \/ is the root of the file system/],
    ["a credential too short to mask", async () => ((process.env.CONTRACTGEN_SHORT_TOKEN = "abc"), ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--token-env", "CONTRACTGEN_SHORT_TOKEN"]), /error \[test-token-too-short\]/],
    ["a request timeout that is not a duration", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--request-timeout", "soon"], /error \[test-bad-limit\] --request-timeout "soon"/],
    ["a suite timeout past 24h", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--suite-timeout", "2d"], /error \[test-bad-limit\] --suite-timeout "2d"/],
    ["a response limit that is not a number", async () => ["test", SPEC, "--base-url", "http://127.0.0.1:1", "--max-response-bytes", "1e9"], /error \[test-bad-limit\] --max-response-bytes "1e9"/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const r = await contractgen(...(await args()));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
    });
  }
});

describe("contractgen test when no check ran", () => {
  it("says nothing was verified and exits 3, never 'all checks passed'", async () => {
    const { createServer: createHttpServer } = await import("node:http");
    const server = createHttpServer((_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
    const reports = join(dir, "reports-none");
    try {
      const port = (server.address() as import("node:net").AddressInfo).port;
      // --no-derive: only the (absent) samples, so nothing is sent at all.
      const r = await contractgen("test", "specs/petstore.yaml", "--base-url", `http://127.0.0.1:${port}/v2`, "--operations", "get_pet", "--no-derive", "--report-dir", reports);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toMatch(/: (\d+) checks, 0 passed, 0 failed, \1 skipped/);
      expect(r.stdout).toMatch(/no check ran: all \d+ checks were skipped, so nothing was verified/);
      expect(r.stdout).not.toContain("passed\n");
      const md = readFileSync(join(reports, "contract-summary.md"), "utf8");
      expect(md).toContain("**no check ran: every check was skipped, nothing was verified**");
      expect(md).not.toContain("all checks passed");
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  }, 120_000);

  it("--help documents exit code 3", async () => {
    const r = await contractgen("test", "--help");
    expect(r.stdout).toContain("3 no check ran");
  });
});

describe("contractgen test on an OpenAPI document with its overlay", () => {
  it("imports the document in memory and runs the suite against the bookshelf reference platform", async () => {
    const { startBookshelfServer } = await import("../../examples/bookshelf/server.js");
    const p = await startBookshelfServer();
    platforms.push(p);
    const samples = join(dir, "bookshelf-samples.yaml");
    writeFileSync(samples, "list_books: [{}, { limit: 2 }]\nget_book: [{ book_id: bk_dune65 }]\n");
    const r = await contractgen("test", "specs/openapi/bookshelf.yaml", "--overlay", "specs/openapi/bookshelf.overlay.yaml", "--base-url", p.url, "--samples", samples, "--operations", "list_books,get_book");
    expect(r.stderr).not.toContain("invalid contract");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/[1-9]\d* passed/);
  }, 240_000);
});

describe("contractgen test --reset-command", () => {
  it("runs the team's command before every check; a failing one fails the check saying why", async () => {
    const log = join(dir, "resets.log");
    const ok = await contractgen("test", SPEC, "--base-url", await platform(), "--token-env", "BILLING_TEST_TOKEN", "--samples", SAMPLES, "--operations", "get_customer", "--reset-command", `echo reset >> ${JSON.stringify(log)}`);
    expect(ok.code).toBe(0);
    const resets = readFileSync(log, "utf8").split("\n").filter((l) => l === "reset").length;
    expect(resets).toBeGreaterThanOrEqual(3);
    const broken = await contractgen("test", SPEC, "--base-url", await platform(), "--token-env", "BILLING_TEST_TOKEN", "--samples", SAMPLES, "--operations", "get_customer", "--reset-command", "echo store is down >&2; exit 3", "--verbose");
    expect(broken.code).toBe(1);
    expect(broken.stdout + broken.stderr).toContain("--reset-command exited 3: store is down");
  }, 240_000);
});
