/**
 * `contractgen test <spec> --base-url <url>`: run the contract's generated test suite against a live
 * implementation without writing a project. The suite is emitted from the model by the same emitters
 * as `generate` (tests/ only) into a temporary folder, run by the vitest contractgen has installed,
 * with its progress streamed to stderr and, with --report-dir, the JUnit XML and Markdown summary of
 * report mode written there. The folder is removed afterwards.
 *
 * Exit codes: 0 every check that ran passed (skipped ones allowed, at least one ran), 1 at least one
 * check failed (a contract violation), 2 bad input (usage, invalid contract, unreadable samples,
 * unreachable base URL, a suite that could not run), 3 no check ran (every one skipped: nothing was
 * verified, never reported as a pass).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve, sep } from "node:path";
import { emitPackage } from "../../emit/index.js";
import { emitContractTests } from "../../emit/tests/suite.js";
import type { ContractModel } from "../../model/types.js";
import { loadSourceFile } from "../../contract/load.js";
import { openContract } from "../../import/open.js";
import { escapePointerSegment } from "../../contract/source.js";
import { refusedFolder } from "../../write/places.js";
import { credentialTooShort, MIN_CREDENTIAL_LENGTH } from "../../runtime/redact.js";
import { JUNIT_XML, noCheckRan, notImplementedChecks, type RunSummary, SUMMARY_JSON, SUMMARY_MARKDOWN, visible } from "../../tests-runtime/report.js";
import { maskSecrets } from "../../tests-runtime/mask.js";
import { transportFailure } from "../../runtime/transport.js";
import { durationMs } from "../../model/duration.js";
import { EXIT, type Io, printDiagnostics } from "../io.js";

/** `contractgen test`'s exit code when every check was skipped: nothing was verified, which is not a pass. */
export const EXIT_NO_CHECK_RAN = 3;
/**
 * No check failed, but some met a generated handler stub: the implementation does not keep the whole
 * contract yet. Distinct from a violation (1) so a team filling in a skeleton can tell the two apart,
 * and not 0 so CI never passes an implementation with stubs left in (`--allow-not-implemented` does).
 */
export const EXIT_NOT_IMPLEMENTED = 4;

export interface TestOptions {
  readonly baseUrl?: string;
  readonly tokenEnv?: string;
  readonly fixture?: string;
  readonly samples?: string;
  /** `--reset-command`: run before every check to bring the implementation back to its initial state. */
  readonly resetCommand?: string;
  /** `--observe-command`: prints a JSON snapshot of everything an operation may change (else one is derived). */
  readonly observeCommand?: string;
  /** `--clock-command`: moves the implementation's clock forward by the milliseconds appended. */
  readonly clockCommand?: string;
  /** `--dataset-command`: resets into the data set appended (empty, mixed, default) and a per-call bound; exit 3 when it cannot. */
  readonly datasetCommand?: string;
  /** `--degrade-command`: makes part of the store behind the operation appended fail until the next reset; exit 3 when it cannot. */
  readonly degradeCommand?: string;
  /** `--fail-after-commit-command`: the next execution of the operation appended commits, then answers its transient error; exit 3 when it cannot. */
  readonly failAfterCommitCommand?: string;
  /** `--no-derive` (false): only the samples file's inputs, nothing derived from the implementation's answers (no object created to derive with). */
  readonly derive?: boolean;
  readonly operations?: string;
  readonly reportDir?: string;
  readonly refRoot?: readonly string[];
  /** `--overlay`, repeatable: overlays applied, in order, to an OpenAPI document. */
  readonly overlay?: readonly string[];
  /** Per-request time limit (a duration such as "10s"); default the contract's http.timeout. */
  readonly requestTimeout?: string;
  /** Time limit of the whole suite (a duration); default DEFAULT_SUITE_TIMEOUT. */
  readonly suiteTimeout?: string;
  readonly maxResponseBytes?: string;
  /** vitest's own verbose output (with stack traces) instead of one line per check. */
  readonly verbose?: boolean;
  /** `--allow-not-implemented`: checks skipped because a handler is still its generated stub do not fail the run (exit 0, not 4). */
  readonly allowNotImplemented?: boolean;
}

/** Default time limit of a whole suite run. */
const DEFAULT_SUITE_TIMEOUT = "20m";
/** After the suite's deadline, how long vitest gets to fail the remaining checks and write its reports before it is stopped. */
const WIND_DOWN_MS = 60_000;

/** Every error `contractgen test` reports itself (besides contract diagnostics): stable code → hint. */
export const TEST_ERRORS = {
  "test-no-target": "Pass --base-url <url> (the implementation to test) or --fixture <module> (your own fixture, which knows it).",
  "test-bad-base-url": "Give an absolute http:// or https:// URL, e.g. --base-url http://127.0.0.1:8080.",
  "test-base-url-unreachable": "Start the implementation first, or check the host and port; any HTTP answer counts as reachable.",
  "test-token-env-unset": "Export the credential in that environment variable; contractgen reads it there and never prints it.",
  "test-token-too-short": `Use a credential of at least ${MIN_CREDENTIAL_LENGTH} characters: a shorter one cannot be masked in the output and reports without corrupting them.`,
  "test-bad-limit": "Give --request-timeout and --suite-timeout as durations (500ms, 10s, 5m, 1h) and --max-response-bytes as a positive whole number of bytes.",
  "test-report-dir-refused": "Write the reports into a folder of your project or CI workspace (e.g. --report-dir reports), not a system folder.",
  "test-suite-timeout": "The suite ran past --suite-timeout and was stopped; raise it, or test fewer operations at a time (--operations).",
  "test-fixture-not-found": "Pass the path of a module exporting `fixture` (see tests/fixture.ts in a generated package).",
  "test-samples-invalid": "The samples file maps operation ids to a list of one or two input objects: { create_customer: [{ email: a@example.com }, { email: b@example.com }] }.",
  "test-unknown-operation": "Use operation ids of the contract (contractgen validate lists them in the generated README).",
  "test-vitest-missing": "contractgen test runs the suite with vitest: install it next to contractgen (npm i -D vitest).",
  "test-suite-did-not-run": "The suite failed outside any check (the fixture could not load or start); the report names the error.",
} as const;

export type TestErrorCode = keyof typeof TEST_ERRORS;

class TestInputError extends Error {
  constructor(
    readonly code: TestErrorCode,
    message: string,
    readonly where?: string,
  ) {
    super(message);
  }
}

function report(io: Io, e: TestInputError): void {
  io.stderr(`${e.where ? `${e.where}: ` : ""}error [${e.code}] ${visible(e.message)}\n  hint: ${TEST_ERRORS[e.code]}\n`);
}

/** A URL as shown in messages: never with the user name or password it may carry. */
function shownUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

function parseBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TestInputError("test-bad-base-url", "--base-url is not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TestInputError("test-bad-base-url", `--base-url must use http or https, not ${url.protocol}`);
  return url;
}

async function expectReachable(url: URL): Promise<void> {
  try {
    const response = await fetch(url, { method: "GET", redirect: "manual", signal: AbortSignal.timeout(5000) });
    await response.body?.cancel();
  } catch (e) {
    throw new TestInputError("test-base-url-unreachable", `cannot reach ${shownUrl(url)}: ${transportFailure(e, false, 5000).message}`);
  }
}

/** How long one run of --reset-command may take before the check it precedes fails. */
const RESET_TIMEOUT_MS = 120_000;

/** Largest samples file read. */
const MAX_SAMPLES_BYTES = 1024 * 1024;

/**
 * What `--samples` gives: sample inputs per operation, and the sections for what only the team can
 * give (each keyed by contract names, so Maps): error inputs, the variables of credentials lacking a
 * scope, undo inputs and task results.
 */
export interface SamplesFile {
  readonly samples: Map<string, Array<Record<string, unknown>>>;
  /** operation → code → input that provokes it from the reset state. */
  readonly errors: Map<string, Map<string, Record<string, unknown>>>;
  /** scope → environment variable holding a credential with every scope except it. */
  readonly tokensWithout: Map<string, string>;
  /** operation → input of the call that undoes it. */
  readonly undo: Map<string, Record<string, unknown>>;
  /** operation → what a complete run gives on the default data set. */
  readonly taskResults: Map<string, { recordsExamined: number; answer?: unknown }>;
}

/** Top-level keys of the samples file that are sections, not operation ids (an operation of that name keeps its samples). */
const SAMPLES_SECTIONS = ["errors", "tokensWithout", "undo", "taskResults"] as const;

/** `--samples`: operation id → [variant 0, variant 1?] input objects, and the sections; located in the file when wrong. */
export function readSamples(path: string, model: ContractModel): SamplesFile {
  if (existsSync(path) && statSync(path).isFile() && statSync(path).size > MAX_SAMPLES_BYTES) {
    throw new TestInputError("test-samples-invalid", `the samples file is larger than ${MAX_SAMPLES_BYTES} bytes`, path);
  }
  // The contract loader's reader: regular files only, UTF-8, YAML or JSON, alias and depth limits.
  const loaded = loadSourceFile(path);
  const problem = loaded.diagnostics.find((d) => d.severity === "error");
  if (problem || !loaded.file) {
    const at = problem ? `${problem.location.file}:${problem.location.line}:${problem.location.col}` : path;
    throw new TestInputError("test-samples-invalid", `${problem?.message ?? "cannot read the samples file"} [${problem?.code ?? "file-unreadable"}]`, at);
  }
  const file = loaded.file;
  const fail = (pointer: string, message: string, atKey = false): never => {
    const l = atKey ? file.locateKey(pointer) : file.locate(pointer);
    throw new TestInputError("test-samples-invalid", `${message} (at ${pointer || "/"})`, `${l.file}:${l.line}:${l.col}`);
  };
  const mapping = (value: unknown, pointer: string, what: string): Record<string, unknown> => {
    if (!value || typeof value !== "object" || Array.isArray(value)) fail(pointer, `${what} must be a mapping`);
    return value as Record<string, unknown>;
  };
  const root = mapping(file.value, "", "the samples file");
  const operations = new Map(model.operations.map((o) => [o.names.id, o] as const));
  const knownOperation = (operation: string, pointer: string): void => {
    if (!operations.has(operation)) fail(pointer, `the contract has no operation ${JSON.stringify(operation)}`, true);
  };
  const result: SamplesFile = { samples: new Map(), errors: new Map(), tokensWithout: new Map(), undo: new Map(), taskResults: new Map() };
  for (const [key, value] of Object.entries(root)) {
    const pointer = `/${escapePointerSegment(key)}`;
    const section = (SAMPLES_SECTIONS as readonly string[]).includes(key) && !operations.has(key) ? key : undefined;
    if (section === "errors") {
      for (const [operation, codes] of Object.entries(mapping(value, pointer, "errors (operation → code → input)"))) {
        const at = `${pointer}/${escapePointerSegment(operation)}`;
        knownOperation(operation, at);
        const declared = operations.get(operation)!.errors.map((e) => e.code);
        const byCode = new Map<string, Record<string, unknown>>();
        for (const [code, input] of Object.entries(mapping(codes, at, `errors of ${operation} (code → input)`))) {
          const codeAt = `${at}/${escapePointerSegment(code)}`;
          if (!declared.includes(code)) fail(codeAt, `${operation} declares no error ${JSON.stringify(code)}; it declares ${declared.join(", ")}`, true);
          byCode.set(code, mapping(input, codeAt, "an error input"));
        }
        result.errors.set(operation, byCode);
      }
    } else if (section === "tokensWithout") {
      const scopes = new Set(model.operations.flatMap((o) => o.scopes));
      for (const [scope, variable] of Object.entries(mapping(value, pointer, "tokensWithout (scope → environment variable)"))) {
        const at = `${pointer}/${escapePointerSegment(scope)}`;
        if (!scopes.has(scope)) fail(at, `no operation of the contract needs the scope ${JSON.stringify(scope)}`, true);
        if (typeof variable !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) fail(at, "give the name of the environment variable holding the credential (never the credential itself)");
        result.tokensWithout.set(scope, variable as string);
      }
    } else if (section === "undo") {
      for (const [operation, input] of Object.entries(mapping(value, pointer, "undo (operation → input of the undo call)"))) {
        const at = `${pointer}/${escapePointerSegment(operation)}`;
        knownOperation(operation, at);
        result.undo.set(operation, mapping(input, at, "an undo input"));
      }
    } else if (section === "taskResults") {
      for (const [operation, outcome] of Object.entries(mapping(value, pointer, "taskResults (operation → { recordsExamined, answer })"))) {
        const at = `${pointer}/${escapePointerSegment(operation)}`;
        knownOperation(operation, at);
        const o = mapping(outcome, at, "a task result");
        if (typeof o.recordsExamined !== "number" || !Number.isInteger(o.recordsExamined) || o.recordsExamined < 0) fail(`${at}/recordsExamined`, "recordsExamined must be a whole number of at least 0");
        result.taskResults.set(operation, { recordsExamined: o.recordsExamined as number, ...(Object.hasOwn(o, "answer") ? { answer: o.answer } : {}) });
      }
    } else {
      knownOperation(key, pointer);
      const list = Array.isArray(value) ? value : [value];
      if (list.length < 1 || list.length > 2) fail(pointer, "give one or two sample inputs (variant 0, variant 1)");
      list.forEach((input, i) => {
        if (!input || typeof input !== "object" || Array.isArray(input)) fail(Array.isArray(value) ? `${pointer}/${i}` : pointer, "a sample input must be a mapping of input fields");
      });
      result.samples.set(key, list as Array<Record<string, unknown>>);
    }
  }
  return result;
}

/** The node_modules folder holding `pkg` as contractgen resolves it (vitest, ajv, ajv-formats). */
function packageFolder(pkg: string): string | undefined {
  const require = createRequire(import.meta.url);
  // Any file the package exports lies under its folder: package.json where exported, else its entry
  // point (commander hides package.json; the MCP SDK maps it into dist/).
  let file: string | undefined;
  for (const request of [`${pkg}/package.json`, pkg]) {
    try {
      file = require.resolve(request);
      break;
    } catch {
      // try the next request
    }
  }
  const marker = `${sep}node_modules${sep}${pkg.split("/").join(sep)}${sep}`;
  const at = file?.lastIndexOf(marker) ?? -1;
  return file === undefined || at < 0 ? undefined : file.slice(0, at + marker.length - 1);
}

/**
 * The fixture `contractgen test` builds from its flags and samples file; what they do not give is
 * derived from the contract and the implementation's answers (tests-runtime/derive.ts). Its skip
 * reasons name the flag or samples-file entry that would enable a check (Fixture.enabler).
 */
const DEFAULT_FIXTURE = `// Built by \`contractgen test\` from its flags: the base URL, the credential's variable, the samples file and the commands.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Enabler, Fixture, Input, ResetOptions } from "./runtime/harness.js";
import { derivingFixture } from "./runtime/derive.js";
import { CONTRACT_SPEC } from "./contract.js";

interface Given {
  samples: Array<[string, Input[]]>;
  errors: Array<[string, Array<[string, Input]>]>;
  tokensWithout: Array<[string, string]>;
  undo: Array<[string, Input]>;
  taskResults: Array<[string, { recordsExamined: number; answer?: unknown }]>;
}
const given = JSON.parse(readFileSync(process.env.CONTRACTGEN_TEST_SAMPLES ?? "", "utf8")) as Given;
// Maps: operation ids, codes and scopes are contract names, never plain-object keys.
const samples = new Map(given.samples);
const errors = new Map(given.errors.map(([operation, codes]) => [operation, new Map(codes)] as const));
const tokensWithout = new Map(given.tokensWithout);
const undo = new Map(given.undo);
const taskResults = new Map(given.taskResults);
const tokenVariable = process.env.CONTRACTGEN_TEST_TOKEN_ENV;
const command = (name: string): string | undefined => process.env["CONTRACTGEN_TEST_" + name] || undefined;

/** Exit status of a command meaning "this implementation cannot do that" (the check is skipped). */
const CANNOT = 3;

/** Run the team's command through the shell with \`args\` appended (each quoted); its stdout, or why it failed. */
function runCommand(flag: string, line: string, args: readonly string[], stdout: "ignore" | "pipe", mayDecline = true): { status: number; out: string } {
  const quoted = args.map((a) => "'" + a.replaceAll("'", "'\\\\''") + "'").join(" ");
  const r = spawnSync(quoted ? line + " " + quoted : line, { shell: true, stdio: ["ignore", stdout, "pipe"], encoding: "utf8", timeout: ${RESET_TIMEOUT_MS}, maxBuffer: 64 * 1024 * 1024 });
  if (r.error || r.signal || (r.status !== 0 && !(mayDecline && r.status === CANNOT))) {
    const said = (r.stderr ?? "").trim().split("\\n").slice(-3).join(" | ");
    throw new Error(flag + " " + (r.error ? "could not run" : r.signal ? "was stopped (" + r.signal + ")" : "exited " + r.status) + (said ? ": " + said : ""));
  }
  return { status: r.status ?? 0, out: typeof r.stdout === "string" ? r.stdout : "" };
}

const resetCommand = command("RESET_COMMAND");
const observeCommand = command("OBSERVE_COMMAND");
const clockCommand = command("CLOCK_COMMAND");
const datasetCommand = command("DATASET_COMMAND");
const degradeCommand = command("DEGRADE_COMMAND");
const failAfterCommitCommand = command("FAIL_AFTER_COMMIT_COMMAND");

const inFile = (entry: string): string => "give it in the samples file (--samples): " + entry;

const fromFlags: Fixture = {
  baseUrl: process.env.CONTRACTGEN_TEST_BASE_URL ?? "",
  token: tokenVariable ? process.env[tokenVariable] : undefined,
  // Without --reset-command a live implementation is not reset between checks: the samples must succeed again and again.
  async reset(): Promise<void> {
    // The team's own command, run as its shell would run it, before every check.
    if (resetCommand) runCommand("--reset-command", resetCommand, [], "ignore", false);
  },
  sampleInput(operation: string, variant = 0): Input | undefined {
    const input = samples.get(operation)?.[variant];
    return input === undefined ? undefined : structuredClone(input);
  },
  errorInput(operation: string, code: string): Input | undefined {
    const input = errors.get(operation)?.get(code);
    return input === undefined ? undefined : structuredClone(input);
  },
  ...(tokensWithout.size > 0 ? { tokenWithout: (scope: string) => { const v = tokensWithout.get(scope); return v === undefined ? undefined : process.env[v] || undefined; } } : {}),
  ...(undo.size > 0 ? { undoInput: (operation: string) => { const input = undo.get(operation); return input === undefined ? undefined : structuredClone(input); } } : {}),
  ...(taskResults.size > 0 ? { taskResult: (operation: string) => taskResults.get(operation) } : {}),
  ...(observeCommand ? { async observe(): Promise<unknown> {
    const out = runCommand("--observe-command", observeCommand, [], "pipe", false).out;
    try {
      return JSON.parse(out) as unknown;
    } catch {
      throw new Error("--observe-command printed no JSON");
    }
  } } : {}),
  ...(clockCommand ? { async advanceTime(ms: number): Promise<void> {
    runCommand("--clock-command", clockCommand, [String(ms)], "ignore", false);
  } } : {}),
  ...(datasetCommand ? { async resetWith(state: ResetOptions): Promise<boolean> {
    const args = [state.dataset ?? "default", ...(state.maxExaminedPerCall !== undefined ? [String(state.maxExaminedPerCall)] : [])];
    return runCommand("--dataset-command", datasetCommand, args, "ignore").status === 0;
  } } : {}),
  ...(degradeCommand ? { async degrade(operation: string): Promise<boolean> {
    return runCommand("--degrade-command", degradeCommand, [operation], "ignore").status === 0;
  } } : {}),
  ...(failAfterCommitCommand ? { async failAfterCommit(operation: string): Promise<boolean> {
    return runCommand("--fail-after-commit-command", failAfterCommitCommand, [operation], "ignore").status === 0;
  } } : {}),
  // A run without --fixture has no fixture members to fill in: each skip names a flag or a samples-file entry.
  enabler(need: Enabler): string {
    switch (need.kind) {
      case "sampleName":
        return need.operation + "'s " + (need.variant === 0 ? "first" : "second") + " sample (--samples " + need.operation + ", else derived)";
      case "sample":
        return inFile(need.operation + ": [" + (need.variant === 0 ? "input that succeeds" : "input that succeeds, other input that also succeeds") + "]");
      case "error":
        return inFile("errors: { " + need.operation + ": { " + need.code + ": input that fails with " + need.code + " } }");
      case "tokenWithout":
        return inFile("tokensWithout: { " + need.scope + ": VARIABLE }, the environment variable holding a credential with every scope except " + need.scope);
      case "undo":
        return inFile("undo: { " + need.operation + ": input of the call that undoes it }");
      case "observe":
        return "give --observe-command, a command printing a JSON snapshot of everything an operation may change";
      case "clock":
        return "give --clock-command, a command that moves the implementation's clock forward by the milliseconds it receives";
      case "resetWith":
        return "give --dataset-command, a command that resets into the data set it receives (empty, mixed, default; then a per-call bound, if any), exiting " + CANNOT + " when it cannot, so " + need.purpose + " can be checked";
      case "degrade":
        return "give --degrade-command, a command that makes part of the store behind the operation it receives (" + need.operation + ") fail until the next reset, exiting " + CANNOT + " when it cannot";
      case "failAfterCommit":
        return "give --fail-after-commit-command, a command that makes the next execution of the operation it receives (" + need.operation + ") commit, then answer its transient error, exiting " + CANNOT + " when it cannot";
    }
  },
};

// What the flags do not give is derived from the contract and the implementation's answers (not with --no-derive).
export const fixture: Fixture = process.env.CONTRACTGEN_TEST_NO_DERIVE === "1" ? fromFlags : derivingFixture(CONTRACT_SPEC, fromFlags);
`;

/** Forward the child's output line by line to stderr, the credential masked and control characters shown. */
function forwarder(io: Io, secrets: readonly string[], hide: (line: string) => boolean): { write: (chunk: Buffer) => void; flush: () => void } {
  let pending = "";
  const emit = (line: string) => {
    if (!hide(line)) io.stderr(`${visible(maskSecrets(line, secrets))}\n`);
  };
  return {
    write(chunk) {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) emit(line);
    },
    flush() {
      if (pending) emit(pending);
      pending = "";
    },
  };
}

/** Run vitest; stopped (with its whole process group's children) `killAfterMs` from now. */
function runVitest(vitest: string, config: string, cwd: string, env: NodeJS.ProcessEnv, io: Io, secrets: readonly string[], hide: (line: string) => boolean, killAfterMs: number): Promise<{ code: number | null; killed: boolean }> {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [join(vitest, "vitest.mjs"), "run", "-c", config], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, killAfterMs);
    const out = forwarder(io, secrets, hide);
    child.stdout.on("data", out.write);
    child.stderr.on("data", out.write);
    child.on("error", (e) => {
      clearTimeout(timer);
      failed(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      out.flush();
      done({ code, killed });
    });
  });
}

/** Mask the credential in a report file vitest or the suite wrote (in every encoding it may be in there). */
function maskFile(path: string, secrets: readonly string[]): void {
  if (secrets.length === 0 || !existsSync(path)) return;
  const text = readFileSync(path, "utf8");
  const masked = maskSecrets(text, secrets);
  if (masked !== text) writeFileSync(path, masked);
}

/** A duration flag in milliseconds. */
function durationFlag(flag: string, raw: string): number {
  const ms = durationMs(raw);
  if (ms === undefined || ms < 1 || ms > 86_400_000) throw new TestInputError("test-bad-limit", `${flag} ${JSON.stringify(raw.slice(0, 40))} is not a duration from 1ms to 24h`);
  return ms;
}

/** Operations named on one summary line: the first few, then how many more. */
const NAMED_OPERATIONS = 4;

/** The distinct operations of `operations` (in order), the first few named, then how many more. */
function operationList(operations: readonly string[]): string {
  const distinct = [...new Set(operations)];
  const named = distinct.slice(0, NAMED_OPERATIONS).map(visible).join(", ");
  return distinct.length > NAMED_OPERATIONS ? `${named} and ${distinct.length - NAMED_OPERATIONS} more` : named;
}

function summaryText(s: RunSummary, target: string, allowNotImplemented: boolean): string {
  const skipped = s.checks.filter((x) => x.state === "skipped");
  const stubs = notImplementedChecks(s);
  const lines = [`${visible(s.title)} against ${target}: ${s.run} checks, ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${stubs.length > 0 ? ` (${stubs.length} not implemented)` : ""}`];
  for (const c of s.checks.filter((x) => x.state === "failed")) {
    lines.push(`  failed: ${visible(c.operation)} > ${visible(c.check)}`);
    const first = (c.message ?? "").split("\n")[0] ?? "";
    if (first) lines.push(`    ${visible(first)}`);
  }
  // Skips grouped by reason, each line naming the operations whose checks it skipped.
  const reasons = new Map<string, string[]>();
  for (const c of skipped) {
    const reason = c.reason ?? "not run";
    reasons.set(reason, [...(reasons.get(reason) ?? []), c.operation]);
  }
  for (const [reason, operations] of reasons) lines.push(`  skipped ${operations.length} (${operationList(operations)}): ${visible(reason)}`);
  if (stubs.length > 0) {
    lines.push(
      `not implemented yet: ${stubs.length} checks (${operationList(stubs.map((c) => c.operation))}) were skipped, not failed: an operation they call answers with a generated handler stub (501 NOT_IMPLEMENTED)` +
        (s.failed === 0 && s.errors.length === 0 && !noCheckRan(s) ? (allowNotImplemented ? "; allowed by --allow-not-implemented" : `; exit ${EXIT_NOT_IMPLEMENTED} until they are filled in (--allow-not-implemented exits 0 meanwhile)`) : ""),
    );
  }
  for (const e of s.errors) lines.push(`  error outside any check: ${visible(e.split("\n")[0] ?? "")}`);
  if (s.failed === 0 && s.errors.length === 0) {
    lines.push(
      noCheckRan(s)
        ? `no check ran: all ${s.skipped} checks were skipped, so nothing was verified (give --samples or a --fixture with inputs; exit ${EXIT_NO_CHECK_RAN})`
        : stubs.length > 0
          ? `all ${s.passed} checks that ran passed; ${stubs.length} wait for handlers still generated stubs`
          : `all ${s.passed} checks that ran passed`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export async function testCommand(spec: string, options: TestOptions, io: Io): Promise<number> {
  try {
    return await runTests(spec, options, io);
  } catch (e) {
    if (e instanceof TestInputError) {
      report(io, e);
      return EXIT.usage;
    }
    throw e;
  }
}

async function runTests(spec: string, options: TestOptions, io: Io): Promise<number> {
  if (!options.baseUrl && !options.fixture) throw new TestInputError("test-no-target", "nothing to test against");
  const baseUrl = options.baseUrl !== undefined ? parseBaseUrl(options.baseUrl) : undefined;
  let secret: string | undefined;
  if (options.tokenEnv !== undefined) {
    secret = process.env[options.tokenEnv];
    if (!secret) throw new TestInputError("test-token-env-unset", `the environment variable ${options.tokenEnv} is not set or empty`);
    const short = credentialTooShort(secret);
    if (short) throw new TestInputError("test-token-too-short", `${options.tokenEnv}: ${short}`);
  }
  const requestTimeoutMs = options.requestTimeout !== undefined ? durationFlag("--request-timeout", options.requestTimeout) : undefined;
  const suiteTimeoutMs = durationFlag("--suite-timeout", options.suiteTimeout ?? DEFAULT_SUITE_TIMEOUT);
  let maxResponseBytes: number | undefined;
  if (options.maxResponseBytes !== undefined) {
    maxResponseBytes = Number(options.maxResponseBytes);
    if (!/^[0-9]+$/.test(options.maxResponseBytes) || !Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 1) {
      throw new TestInputError("test-bad-limit", `--max-response-bytes ${JSON.stringify(options.maxResponseBytes.slice(0, 40))} is not a positive whole number`);
    }
  }
  if (options.reportDir !== undefined) {
    const refused = refusedFolder(options.reportDir, { home: false });
    if (refused) throw new TestInputError("test-report-dir-refused", `--report-dir ${options.reportDir} is ${refused}`);
  }
  const fixture = options.fixture !== undefined ? resolve(options.fixture) : undefined;
  if (fixture !== undefined && !(existsSync(fixture) && statSync(fixture).isFile())) throw new TestInputError("test-fixture-not-found", `no fixture module at ${options.fixture}`);

  const parsed = await openContract(spec, { refRoots: options.refRoot ?? [], overlays: options.overlay ?? [] });
  if (!parsed.model) {
    printDiagnostics(parsed.diagnostics, io);
    io.stderr(`${spec}: invalid contract; nothing was tested.\n`);
    return EXIT.usage;
  }
  const model = parsed.model;
  let operations = model.operations;
  if (options.operations !== undefined) {
    const wanted = options.operations.split(",").map((s) => s.trim()).filter(Boolean);
    const unknown = wanted.filter((w) => !model.operations.some((o) => o.names.id === w));
    if (unknown.length > 0 || wanted.length === 0) {
      throw new TestInputError("test-unknown-operation", `${unknown.length ? `no operation ${unknown.map((u) => JSON.stringify(u)).join(", ")} in the contract` : "--operations names none"}; it has ${model.operations.map((o) => o.names.id).join(", ")}`);
    }
    operations = model.operations.filter((o) => wanted.includes(o.names.id));
  }
  const given: SamplesFile = options.samples !== undefined ? readSamples(options.samples, model) : { samples: new Map(), errors: new Map(), tokensWithout: new Map(), undo: new Map(), taskResults: new Map() };
  // Credentials lacking a scope are masked like the main one (and refused when too short to mask).
  const secrets = secret !== undefined ? [secret] : [];
  for (const [scope, variable] of given.tokensWithout) {
    const value = process.env[variable];
    if (!value) throw new TestInputError("test-token-env-unset", `the environment variable ${variable} (tokensWithout ${scope}) is not set or empty`);
    const short = credentialTooShort(value);
    if (short) throw new TestInputError("test-token-too-short", `${variable}: ${short}`);
    secrets.push(value);
  }
  const vitest = packageFolder("vitest");
  // The same emitters as `generate`: the whole package, since the suite also drives its SDK, CLI and MCP
  // server (adapter parity), whose dependencies (package.json) contractgen has installed too.
  const files = await emitPackage(model);
  // Optional dependencies too: the suite's parity and second-process checks keep SQLite journals.
  const manifest = JSON.parse(files.get("package.json") ?? "{}") as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
  const dependencies = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})];
  const modules = ["vitest", ...dependencies].map((p) => [p, packageFolder(p)] as const);
  if (!vitest || modules.some(([, dir]) => dir === undefined)) {
    throw new TestInputError("test-vitest-missing", `${modules.filter(([, dir]) => dir === undefined).map(([p]) => p).join(", ") || "vitest"} is not installed where contractgen can load it`);
  }
  // The implementer's fixture may start the implementation itself; the default one needs it running now.
  if (baseUrl && fixture === undefined) await expectReachable(baseUrl);

  const work = mkdtempSync(join(tmpdir(), "contractgen-test-"));
  try {
    for (const [path, content] of files) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    if (operations !== model.operations) writeFileSync(join(work, "tests/contract.test.ts"), emitContractTests({ ...model, operations }));
    writeFileSync(join(work, "tests/fixture.ts"), DEFAULT_FIXTURE);
    writeFileSync(
      join(work, "samples.json"),
      JSON.stringify({
        samples: [...given.samples],
        errors: [...given.errors].map(([operation, codes]) => [operation, [...codes]]),
        tokensWithout: [...given.tokensWithout],
        undo: [...given.undo],
        taskResults: [...given.taskResults],
      }),
    );
    // The suite is ES modules, as in a generated package.
    writeFileSync(join(work, "package.json"), `${JSON.stringify({ name: "contractgen-test-run", private: true, type: "module" })}\n`);
    mkdirSync(join(work, "node_modules"));
    for (const [name, dir] of modules) {
      mkdirSync(dirname(join(work, "node_modules", name)), { recursive: true });
      symlinkSync(dir!, join(work, "node_modules", name), "dir");
    }

    const reportDir = options.reportDir !== undefined ? resolve(options.reportDir) : join(work, "reports");
    rmSync(join(reportDir, SUMMARY_JSON), { force: true });
    const deadline = Date.now() + suiteTimeoutMs;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CONTRACT_REPORT_DIR: reportDir,
      CONTRACT_PROGRESS: options.verbose ? "verbose" : "lines",
      CONTRACTGEN_TEST_SAMPLES: join(work, "samples.json"),
      ...(options.resetCommand !== undefined ? { CONTRACTGEN_TEST_RESET_COMMAND: options.resetCommand } : {}),
      ...(options.derive === false ? { CONTRACTGEN_TEST_NO_DERIVE: "1" } : {}),
      ...(options.observeCommand !== undefined ? { CONTRACTGEN_TEST_OBSERVE_COMMAND: options.observeCommand } : {}),
      ...(options.clockCommand !== undefined ? { CONTRACTGEN_TEST_CLOCK_COMMAND: options.clockCommand } : {}),
      ...(options.datasetCommand !== undefined ? { CONTRACTGEN_TEST_DATASET_COMMAND: options.datasetCommand } : {}),
      ...(options.degradeCommand !== undefined ? { CONTRACTGEN_TEST_DEGRADE_COMMAND: options.degradeCommand } : {}),
      ...(options.failAfterCommitCommand !== undefined ? { CONTRACTGEN_TEST_FAIL_AFTER_COMMIT_COMMAND: options.failAfterCommitCommand } : {}),
      CONTRACT_SUITE_DEADLINE: String(deadline),
      NO_COLOR: "1",
      FORCE_COLOR: "0",
    };
    // Only this run's flags reach the fixture, never a value left in the caller's environment.
    for (const name of ["NO_DERIVE", "RESET_COMMAND", "OBSERVE_COMMAND", "CLOCK_COMMAND", "DATASET_COMMAND", "DEGRADE_COMMAND", "FAIL_AFTER_COMMIT_COMMAND"]) {
      if (process.env[`CONTRACTGEN_TEST_${name}`] !== undefined && env[`CONTRACTGEN_TEST_${name}`] === process.env[`CONTRACTGEN_TEST_${name}`]) delete env[`CONTRACTGEN_TEST_${name}`];
    }
    if (options.derive === false) env.CONTRACTGEN_TEST_NO_DERIVE = "1";
    if (options.resetCommand !== undefined) env.CONTRACTGEN_TEST_RESET_COMMAND = options.resetCommand;
    if (options.observeCommand !== undefined) env.CONTRACTGEN_TEST_OBSERVE_COMMAND = options.observeCommand;
    if (options.clockCommand !== undefined) env.CONTRACTGEN_TEST_CLOCK_COMMAND = options.clockCommand;
    if (options.datasetCommand !== undefined) env.CONTRACTGEN_TEST_DATASET_COMMAND = options.datasetCommand;
    if (options.degradeCommand !== undefined) env.CONTRACTGEN_TEST_DEGRADE_COMMAND = options.degradeCommand;
    if (options.failAfterCommitCommand !== undefined) env.CONTRACTGEN_TEST_FAIL_AFTER_COMMIT_COMMAND = options.failAfterCommitCommand;
    if (requestTimeoutMs !== undefined) env.CONTRACT_REQUEST_TIMEOUT_MS = String(requestTimeoutMs);
    if (maxResponseBytes !== undefined) env.CONTRACT_MAX_RESPONSE_BYTES = String(maxResponseBytes);
    if (baseUrl) env.CONTRACTGEN_TEST_BASE_URL = env.CONTRACT_BASE_URL = baseUrl.href.replace(/\/+$/, "");
    if (options.tokenEnv !== undefined) {
      env.CONTRACTGEN_TEST_TOKEN_ENV = options.tokenEnv;
      env.CONTRACT_TOKEN = secret;
    }
    if (fixture !== undefined) env.CONTRACT_FIXTURE = fixture;
    else delete env.CONTRACT_FIXTURE;

    const target = baseUrl ? shownUrl(baseUrl) : `the fixture ${options.fixture}`;
    io.stderr(`Running the ${visible(model.name)} ${visible(model.version)} contract suite against ${visible(target)}…\n`);
    // Reports in the temporary folder are read here and deleted: vitest's note of where it wrote them would mislead.
    const hide = (line: string) => options.reportDir === undefined && line.includes(work);
    // CONTRACTGEN_TEST_WIND_DOWN_MS: a test-only hook, so the hard stop can be tested without waiting a minute.
    const windDown = Number(process.env.CONTRACTGEN_TEST_WIND_DOWN_MS) || WIND_DOWN_MS;
    const { code, killed } = await runVitest(vitest, join(work, "tests/vitest.config.ts"), work, env, io, secrets, hide, suiteTimeoutMs + windDown);
    // The suite masks what it writes; the credential is masked again in each report, whatever wrote it.
    for (const file of [JUNIT_XML, SUMMARY_MARKDOWN, SUMMARY_JSON]) maskFile(join(reportDir, file), secrets);

    let summary: RunSummary;
    try {
      summary = JSON.parse(readFileSync(join(reportDir, SUMMARY_JSON), "utf8")) as RunSummary;
    } catch {
      if (killed) throw new TestInputError("test-suite-timeout", `the suite did not finish within --suite-timeout ${options.suiteTimeout ?? DEFAULT_SUITE_TIMEOUT} and was stopped before reporting`);
      throw new TestInputError("test-suite-did-not-run", `vitest stopped (exit ${String(code)}) before reporting; its output is above`);
    }
    io.stdout(maskSecrets(summaryText(summary, visible(target), options.allowNotImplemented === true), secrets));
    if (options.reportDir !== undefined) io.stdout(`reports: ${[JUNIT_XML, SUMMARY_MARKDOWN, SUMMARY_JSON].map((f) => join(options.reportDir!, f)).join(", ")}\n`);
    if (summary.failed > 0) return EXIT.invalid;
    if (summary.errors.length > 0) throw new TestInputError("test-suite-did-not-run", summary.errors[0]!.split("\n")[0] ?? "");
    if (noCheckRan(summary)) return EXIT_NO_CHECK_RAN;
    if (notImplementedChecks(summary).length > 0 && options.allowNotImplemented !== true) return EXIT_NOT_IMPLEMENTED;
    return EXIT.ok;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
