/**
 * Report mode of the contract test suite: a vitest reporter that writes a Markdown summary
 * (contract-summary.md: checks run, passed, failed and skipped per operation, then each failure with
 * the broken promise, the request and what came back) and the same facts as JSON
 * (contract-summary.json, for tools such as `contractgen test`). vitest's own junit reporter writes
 * the JUnit XML beside them (see tests/vitest.config.ts).
 *
 * Everything in here is data from a contract or from the implementation under test: names, messages
 * and responses are escaped for Markdown and clipped, never trusted.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Reporter, TestCase, TestModule, TestSuite } from "vitest/node";
import { maskSecrets } from "./mask.js";

export const SUMMARY_MARKDOWN = "contract-summary.md";
export const SUMMARY_JSON = "contract-summary.json";
export const JUNIT_XML = "contract-junit.xml";

/** Longest failure message kept (characters), and longest line within it. */
const MAX_MESSAGE = 6000;
const MAX_LINE = 1500;

/**
 * How the reason of a check skipped because its operation is not implemented yet begins (a generated
 * skeleton's stub answered, harness.ts OperationNotImplemented): reports count and name these apart.
 */
export const NOT_IMPLEMENTED_REASON = "not implemented: ";

export type CheckState = "passed" | "failed" | "skipped";

export interface CheckRecord {
  readonly operation: string;
  /** The check's name below its operation ("negative inputs > missing required email"). */
  readonly check: string;
  readonly state: CheckState;
  /** Why it was skipped (the fixture gave nothing to check with). */
  readonly reason?: string;
  /** What broke: a ContractViolation names the promise, the request and the response. */
  readonly message?: string;
  /** False when the failure is not a broken promise (the fixture, the network, a timeout). */
  readonly violation?: boolean;
}

export interface OperationCounts {
  readonly operation: string;
  readonly run: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

export interface RunSummary {
  readonly title: string;
  readonly run: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly operations: readonly OperationCounts[];
  readonly checks: readonly CheckRecord[];
  /** Failures outside any check: the fixture or the suite itself could not load or start. */
  readonly errors: readonly string[];
}

export interface SummaryReporterOptions {
  /** Folder the summaries are written to (created when missing). */
  readonly dir: string;
  /** "billing 2.0.0": named in the Markdown heading. */
  readonly title: string;
}

/** Keep `text` to `max` characters, saying how much was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * The credentials this process knows of: the one `contractgen test` (or the implementer) passes in
 * CONTRACT_TOKEN. The checks mask what they send where they fail; this masks it again in whatever
 * reaches a report (an error thrown outside any check, a fixture's own message).
 */
function knownSecrets(): string[] {
  return process.env.CONTRACT_TOKEN ? [process.env.CONTRACT_TOKEN] : [];
}

/** Masked first, then clipped: a clip never keeps part of a credential. */
function clipMessage(message: string): string {
  return clip(maskSecrets(message, knownSecrets()).split("\n").map((line) => clip(line, MAX_LINE)).join("\n"), MAX_MESSAGE);
}

/**
 * Characters that would corrupt or disguise a report: C0/C1 controls (but tab and newline), bidi
 * overrides and isolates, zero-width characters, line/paragraph separators and lone surrogates are
 * shown as \u{…} escapes instead.
 */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/** Inline Markdown text (a table cell, a heading): one line, every character that means something escaped. */
export function mdInline(text: string): string {
  return visible(text.replace(/\r\n?|\n|\t/g, " ")).replace(/[\\`*_{}[\]()<>#+!|~&$@]/g, (c) => `\\${c}`);
}

/** A fenced code block that no content can close early: the fence is longer than any backtick run inside. */
export function mdCode(text: string): string {
  const body = visible(text.replace(/\r\n?/g, "\n"));
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}text\n${body}\n${fence}`;
}

/** The operation a check belongs to: its outermost describe (the suite has one per operation). */
function placement(test: TestCase): { operation: string; check: string } {
  const names: string[] = [test.name];
  let parent: TestSuite | TestModule = test.parent;
  while (parent.type === "suite") {
    names.unshift(parent.name);
    parent = parent.parent;
  }
  if (names.length === 1) return { operation: "(suite)", check: names[0]! };
  return { operation: names[0]!, check: names.slice(1).join(" > ") };
}

function errorText(error: { name?: unknown; message?: unknown } | undefined): string {
  if (!error) return "unknown error";
  const name = typeof error.name === "string" ? error.name : "Error";
  const message = typeof error.message === "string" ? error.message : String(error.message);
  return name === "ContractViolation" ? message : `${name}: ${message}`;
}

export function recordOf(test: TestCase): CheckRecord {
  const where = placement(test);
  const result = test.result();
  if (result.state === "passed") return { ...where, state: "passed" };
  if (result.state === "failed") {
    const first = result.errors[0];
    const violation = first?.name === "ContractViolation";
    const message = clipMessage(result.errors.map((e) => errorText(e)).join("\n\n"));
    return { ...where, state: "failed", message, violation };
  }
  const reason = result.state === "skipped" ? result.note : "did not run";
  return { ...where, state: "skipped", ...(reason ? { reason: maskSecrets(reason, knownSecrets()) } : {}) };
}

/** Counts overall and per operation (in the order operations first appear). */
export function summarize(title: string, checks: readonly CheckRecord[], errors: readonly string[]): RunSummary {
  const perOperation = new Map<string, { run: number; passed: number; failed: number; skipped: number }>();
  for (const c of checks) {
    let counts = perOperation.get(c.operation);
    if (!counts) perOperation.set(c.operation, (counts = { run: 0, passed: 0, failed: 0, skipped: 0 }));
    counts.run++;
    counts[c.state]++;
  }
  const count = (state: CheckState) => checks.filter((c) => c.state === state).length;
  return {
    title,
    run: checks.length,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    operations: [...perOperation].map(([operation, c]) => ({ operation, ...c })),
    checks,
    errors: errors.map(clipMessage),
  };
}

/** Whether the run verified nothing: no check passed or failed (all skipped, or none at all). Never a pass. */
export function noCheckRan(s: Pick<RunSummary, "passed" | "failed">): boolean {
  return s.passed + s.failed === 0;
}

/** Checks skipped because an operation they call answered with a generated handler stub (not implemented yet). */
export function notImplementedChecks(s: Pick<RunSummary, "checks">): RunSummary["checks"] {
  return s.checks.filter((c) => c.state === "skipped" && (c.reason ?? "").startsWith(NOT_IMPLEMENTED_REASON));
}

export function renderMarkdown(s: RunSummary): string {
  const stubs = notImplementedChecks(s).length;
  const verdict =
    s.errors.length > 0
      ? "the suite did not run completely"
      : s.failed > 0
        ? "contract violations found"
        : noCheckRan(s)
          ? "no check ran: every check was skipped, nothing was verified"
          : stubs > 0
            ? `not implemented yet: every check that ran passed, ${stubs} wait for handlers still generated stubs`
            : "all checks passed";
  const lines = [
    `# Contract test report: ${mdInline(s.title)}`,
    "",
    `**${verdict}**: ${s.run} checks, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped.`,
    "",
    "| operation | checks | passed | failed | skipped |",
    "|---|---:|---:|---:|---:|",
    ...s.operations.map((o) => `| ${mdInline(o.operation)} | ${o.run} | ${o.passed} | ${o.failed} | ${o.skipped} |`),
    "",
  ];
  if (s.errors.length > 0) {
    lines.push("## Errors outside any check", "");
    for (const e of s.errors) lines.push(mdCode(e), "");
  }
  const failed = s.checks.filter((c) => c.state === "failed");
  if (failed.length > 0) {
    lines.push("## Failures", "");
    for (const c of failed) {
      lines.push(`### ${mdInline(c.operation)}: ${mdInline(c.check)}`, "");
      if (c.violation === false) lines.push("Not a contract violation: the check itself could not run (fixture, network or timeout).", "");
      lines.push(mdCode(c.message ?? ""), "");
    }
  }
  const skipped = s.checks.filter((c) => c.state === "skipped");
  if (skipped.length > 0) {
    lines.push("## Skipped", "", "| operation | check | reason |", "|---|---|---|");
    for (const c of skipped) lines.push(`| ${mdInline(c.operation)} | ${mdInline(c.check)} | ${mdInline(c.reason ?? "")} |`);
    lines.push("");
  }
  return lines.join("\n");
}

/**
 * Progress for people and CI logs (CONTRACT_PROGRESS=lines; `contractgen test` uses it): one line per
 * check as it finishes — passed, failed with the first lines of what broke, or skipped with why —
 * and the errors outside any check by their first line. No stack traces, no code frames: those are
 * vitest's own reporters (CONTRACT_PROGRESS=verbose).
 */
export class LineReporter implements Reporter {
  constructor(private readonly write: (text: string) => void = (text) => void process.stderr.write(text)) {}

  onTestCaseResult(test: TestCase): void {
    const record = recordOf(test);
    const name = visible(`${record.operation} > ${record.check}`);
    if (record.state === "passed") this.write(`  ✓ ${name}\n`);
    else if (record.state === "skipped") this.write(`  - ${name} (skipped: ${visible(record.reason ?? "not run")})\n`);
    else {
      const lines = (record.message ?? "").split("\n").slice(0, 4).map((line) => `      ${visible(clip(line, 300))}`);
      this.write(`  ✗ ${name}\n${lines.join("\n")}\n`);
    }
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ name?: unknown; message?: unknown }>): void {
    for (const e of outsideChecks(testModules, unhandledErrors)) this.write(`  error outside any check: ${visible(clip(e.split("\n")[0] ?? "", 500))}\n`);
  }
}

/** Failures outside any check: a module that failed to load, a failing beforeAll/afterAll (the fixture's start or stop), unhandled errors. */
function outsideChecks(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ name?: unknown; message?: unknown }>): string[] {
  const errors: string[] = [];
  for (const module of testModules) {
    for (const e of module.errors()) errors.push(errorText(e));
    for (const suite of module.children.allSuites()) for (const e of suite.errors()) errors.push(`${suite.fullName}: ${errorText(e)}`);
  }
  for (const e of unhandledErrors) errors.push(errorText(e));
  return errors.map((e) => maskSecrets(e, knownSecrets()));
}

/** The vitest reporter of report mode (tests/vitest.config.ts adds it when CONTRACT_REPORT_DIR is set). */
export class SummaryReporter implements Reporter {
  constructor(private readonly options: SummaryReporterOptions) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ name?: unknown; message?: unknown }>): void {
    const checks: CheckRecord[] = [];
    for (const module of testModules) for (const test of module.children.allTests()) checks.push(recordOf(test));
    const summary = summarize(this.options.title, checks, outsideChecks(testModules, unhandledErrors));
    mkdirSync(this.options.dir, { recursive: true });
    writeFileSync(join(this.options.dir, SUMMARY_MARKDOWN), renderMarkdown(summary));
    writeFileSync(join(this.options.dir, SUMMARY_JSON), `${JSON.stringify(summary, null, 2)}\n`);
  }
}
