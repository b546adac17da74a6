/**
 * The generated contract test suite (`tests/`): the contract facts the checks need (tests/contract.ts),
 * one vitest file with a describe per operation whose cases call the copied runtime checks
 * (tests/runtime/, from src/tests-runtime), its vitest config, and a write-once fixture template the
 * implementer fills in. Pure functions of the model.
 */
import { authEnvVars, type ContractModel, type OperationModel } from "../../model/types.js";
import { clientClassName } from "../../model/naming.js";
import { generatedHeader, lineCommentText, literal } from "../shared/literals.js";
import { revisionField } from "../sdk/operations.js";

export const FIXTURE_FILE = "tests/fixture.ts";

/**
 * Cases of the behaviour checks: a key scoped to its operation (keyed operations, when the contract has
 * another), not-found at execution (previews with a not_found code), an execution changing exactly what
 * its preview said (previews with a target read), preconditions compared exactly, revisions advancing.
 */
function behaviourCases(op: OperationModel, model: ContractModel): string[] {
  const cases: string[] = [];
  const keyed = (o: OperationModel) => o.idempotency !== null && o.effects.idempotent === "key";
  const other = model.operations.find((o) => o !== op && keyed(o));
  if (keyed(op) && other) {
    cases.push(`  it("a key is scoped to its operation: a key used on another operation executes this one anew", (t) => run(t, () => behaviour.keyScopedToOperation(h, op)));`);
  }
  const readWith = op.target?.kind === "read" ? op.target.operation : null;
  if (op.preview && op.errors.some((e) => model.errors.find((d) => d.code === e.code)?.class === "not_found")) {
    cases.push(`  it("not-found at execution too: executing against a missing object is refused as not found", (t) => run(t, () => behaviour.notFoundAtExecution(h, op)));`);
  }
  if (op.preview && readWith !== null) {
    cases.push(`  it("an execution changes exactly what its preview said", (t) => run(t, () => behaviour.executionMatchesPreview(h, op)));`);
  }
  op.preconditions.forEach((c, i) => {
    cases.push(`  it(${literal(`a near ${c.field} (a case variant, an integer one off) fails with ${c.error} and changes nothing`)}, (t) => run(t, () => behaviour.preconditionComparedExactly(h, op, ${i})));`);
  });
  if (readWith !== null && revisionField(op, model.operations) !== null) {
    cases.push(`  it("record revisions advance on every mutation", (t) => run(t, () => behaviour.revisionAdvances(h, op)));`);
  }
  return cases;
}

/** The class of `code` in the model's taxonomy. */
function classOf(model: ContractModel, code: string): string | undefined {
  return model.errors.find((e) => e.code === code)?.class;
}

/** The input fields `op` sends in its path, sorted (tests/runtime/checks-stateful.ts identifiers). */
function identifiersOf(op: OperationModel): string[] {
  return op.http.bindings.filter((b) => b.in === "path").map((b) => b.field).sort();
}

/** Reads taking exactly the identifiers of `op`: its target.readWith, then GET reads at its path (checks-stateful.ts readsOf). */
function readsOf(op: OperationModel, model: ContractModel): OperationModel[] {
  const ids = identifiersOf(op).join("\n");
  if (ids === "") return [];
  const declared = op.target?.kind === "read" ? model.operations.find((o) => o.names.id === (op.target as { operation: string }).operation) : undefined;
  const candidates = [...(declared ? [declared] : []), ...model.operations.filter((o) => o.http.method === "GET" && o.http.path === op.http.path)];
  return candidates.filter((o) => o !== op && o.effects.kind === "read" && identifiersOf(o).join("\n") === ids);
}

/** Whether `op` deletes an object a read shows (checks-stateful.ts deletedObjectRead): a DELETE of an item, with that read. */
function deletesReadableObject(op: OperationModel, model: ContractModel): boolean {
  return op.http.method === "DELETE" && /\/\{[^{}/]+\}\/?$/.test(op.http.path) && readsOf(op, model).length > 0;
}

/** The state-dependent refusals a preview may give (checks-stateful.ts stateRefusalCodes). */
function stateRefusalCodes(op: OperationModel, model: ContractModel): string[] {
  const elsewhere = new Set<string | null | undefined>([op.preview?.invalidTokenError, op.idempotency?.mismatchError, ...op.preconditions.map((p) => p.error)]);
  const readWith = op.target?.kind === "read" ? op.target.operation : null;
  const deletable = model.operations.some(
    (o) =>
      o !== op &&
      o.effects.kind === "mutating" &&
      o.http.method === "DELETE" &&
      ((readWith !== null && o.target?.kind === "read" && o.target.operation === readWith) || (o.http.path === op.http.path && identifiersOf(o).length > 0)),
  );
  return op.errors.map((e) => e.code).filter((code) => !elsewhere.has(code) && (classOf(model, code) === "conflict" || (deletable && classOf(model, code) === "not_found")));
}

/**
 * Cases of the stateful checks (tests/runtime/checks-stateful.ts), where the contract makes the
 * promise: use after delete (a DELETE of an object a read shows), the dry-run default (preview.default
 * true), preconditions and state-dependent refusals checked again at execution (previews), keys kept
 * for their retention (keyed operations), scopes needed at preview, and a transient refusal after
 * commit followed by retry_same_key (keyed operations declaring such a transient error).
 */
function statefulCases(op: OperationModel, model: ContractModel): string[] {
  const cases: string[] = [];
  const keyed = op.idempotency !== null && op.effects.idempotent === "key";
  if (deletesReadableObject(op, model)) {
    cases.push(`  it("use after delete: the deleted object reads as not found, and no list shows it", (t) => run(t, () => stateful.useAfterDelete(h, op)));`);
  }
  if (op.preview?.defaultDryRun) {
    cases.push(`  it(${literal(`${op.preview.dryRunField} omitted (preview.default true): a preview, nothing executed, with or without a confirm token`)}, (t) => run(t, () => stateful.dryRunDefaultHonoured(h, op)));`);
  }
  if (op.preview) {
    op.preconditions.forEach((c, i) => {
      cases.push(`  it(${literal(`${c.field} re-checked at execution: the target moved between preview and confirm, the confirm fails with ${c.error}`)}, (t) => run(t, () => stateful.preconditionRecheckedAtExecution(h, op, ${i})));`);
    });
    const codes = stateRefusalCodes(op, model);
    if (codes.length > 0) {
      cases.push(`  it(${literal(`a refusal a preview gives (${codes.join(", ")}) is given at execution too when the state changed after the preview`)}, (t) => run(t, () => stateful.refusalRepeatedAtExecution(h, op)));`);
    }
    for (const scope of op.scopes) {
      cases.push(`  it(${literal(`a preview with a credential without ${scope} is refused as permission, no token issued`)}, (t) => run(t, () => stateful.scopeRequiredAtPreview(h, op, ${literal(scope)})));`);
    }
  }
  if (keyed) {
    cases.push(`  it(${literal(`a key is kept ${op.idempotency!.retention} (its retention): a retry just before then replays the recorded outcome`)}, (t) => run(t, () => stateful.keyRetained(h, op)));`);
    const retrySameKey = op.errors.some((e) => model.errors.some((d) => d.code === e.code && d.class === "transient" && d.action === "retry_same_key"));
    if (retrySameKey) {
      cases.push(`  it("a transient refusal after commit: the retry under the same key replays the recorded outcome, one effect", (t) => run(t, () => stateful.transientAfterCommitReplays(h, op)));`);
    }
  }
  return cases;
}

/** Cases of the error taxonomy (provoked), permission, projection and reversibility checks. */
function errorCases(op: OperationModel): string[] {
  const cases = [
    `  describe("error taxonomy", () => {
    for (const code of errors.provokedCodes(h.contract, op)) {
      it(\`\${code} (\${h.contract.taxonomy.get(code)?.class ?? "undeclared"}) arrives as declared and changes nothing\`, (t) => run(t, () => errors.provokedError(h, op, code)));
    }
    for (const scope of op.scopes ?? []) {
      it(\`a credential without \${scope} is refused as permission and changes nothing\`, (t) => run(t, () => errors.missingScope(h, op, scope)));
    }
    if (errors.provokedCodes(h.contract, op).length === 0 && (op.scopes ?? []).length === 0) {
      nothingToCheck("none to provoke", "the operation declares no error another check does not already provoke, and no scope");
    }
  });`,
  ];
  if (op.projection) {
    cases.push(`  it("a selection returns only the selected and identity properties", (t) => run(t, () => projection.projectionSelects(h, op)));`);
    cases.push(`  it("no selection returns every property", (t) => run(t, () => projection.projectionOmitted(h, op)));`);
  }
  if (op.effects.undo) {
    cases.push(`  it(${literal(`doing, then undoing with ${op.effects.undo}, restores the observed state`)}, (t) => run(t, () => undo.doThenUndo(h, op)));`);
  }
  return cases;
}

/**
 * `tests/contract.ts`: what the checks know of the contract, read from the SDK of the package under
 * test (sdk/contract.ts, the operation table and the stored schemas) by the harness: the suite
 * repeats none of it.
 */
export function emitTestContract(model: ContractModel): Array<[string, string]> {
  const contract = `${generatedHeader(model.name, model.version)}import { CONTRACT } from "../sdk/contract.js";
import { type ContractSpec, contractSpec } from "./runtime/harness.js";

/** The contract under test: the SDK's facts, its operation table (sdk/operations.json) and stored schemas (sdk/schemas.json). */
export const CONTRACT_SPEC: ContractSpec = contractSpec(CONTRACT, new URL("../sdk/", import.meta.url));
`;
  return [["tests/contract.ts", contract]];
}

function operationBlock(op: OperationModel, model: ContractModel): string {
  const id = literal(op.names.id);
  const cases: string[] = [`  it("schema conformance of a successful call", (t) => run(t, () => check.conformance(h, op)));`];
  if (op.effects.kind === "read") {
    // Only where the contract alone gives values to vary (samples.ts): no identifier; an enum, a bound or a projection.
    cases.push(`  if (samples.derivedInputs(op).length > 1) it("every enum value, bound and projectable property the input declares is answered as declared", (t) => run(t, () => samples.declaredValuesAnswered(h, op)));`);
  }
  cases.push(`  describe("negative inputs", () => {
    const negative = check.negativeCases(op);
    for (const c of negative) it(c.name, (t) => run(t, () => check.negativeInput(h, op, c)));
    // A value the schema forbids but the parameter's serialization makes valid is no case: said, not sent.
    const dropped = check.droppedNegativeCases(op);
    for (const d of dropped) it(d.name, (t) => run(t, () => Promise.resolve({ skip: d.why })));
    if (negative.length === 0 && dropped.length === 0) nothingToCheck("none derivable", "the input schema has no constraint the wire can express");
  });`);
  if (op.preview) {
    cases.push(`  it("a preview has no effect", (t) => run(t, () => check.previewHasNoEffect(h, op)));`);
    cases.push(`  it("an execution without a confirm token is refused", (t) => run(t, () => check.executeWithoutToken(h, op)));`);
    cases.push(`  it("a token from a preview of other parameters is refused", (t) => run(t, () => check.executeWithOtherParametersToken(h, op)));`);
    cases.push(`  it("an expired confirm token is refused", (t) => run(t, () => check.expiredToken(h, op)));`);
    if (op.preview.singleUse) cases.push(`  it("a used single-use confirm token is refused", (t) => run(t, () => check.tokenSingleUse(h, op)));`);
  }
  op.preconditions.forEach((c, i) => {
    cases.push(`  it(${literal(`a stale ${c.field} fails with ${c.error} and changes nothing`)}, (t) => run(t, () => check.stalePrecondition(h, op, ${i})));`);
  });
  if (op.idempotency && op.effects.idempotent === "key") {
    cases.push(`  it("the same key twice: one effect, the first outcome replayed", (t) => run(t, () => check.sameKeyReplays(h, op)));`);
    cases.push(`  it("changed parameters under a used key are refused", (t) => run(t, () => check.changedParametersRejected(h, op)));`);
    cases.push(`  it("distinct keys with equal parameters: two effects", (t) => run(t, () => check.distinctKeysTwoEffects(h, op)));`);
    cases.push(`  it("concurrent calls under one key: one effect, one outcome", (t) => run(t, () => check.concurrentSameKey(h, op)));`);
  }
  if (op.pagination) {
    cases.push(`  it(${literal(endsName(op.pagination.style))}, (t) => run(t, () => paging.traversalEnds(h, op)));`);
    cases.push(
      op.pagination.style === "cursor"
        ? `  it("multi-page traversal: totals match, last cursor null", (t) => run(t, () => check.traversal(h, op)));`
        : `  it("multi-page traversal: totals match, ends on the style's last page", (t) => run(t, () => check.traversal(h, op)));`,
    );
  }
  cases.push(...behaviourCases(op, model));
  cases.push(...statefulCases(op, model));
  cases.push(...errorCases(op));
  cases.push(...processAndParityCases(op));
  cases.push(...completenessCases(op, model.operations));
  return `describe(${id}, () => {
  const op = h.operation(${id});
${cases.join("\n")}
});`;
}

/**
 * A lost response retried from a second process (keyed operations), and adapter parity: the sample
 * call, an identifier the fixture did not seed and one forbidden input through the SDK, CLI and MCP server.
 */
function processAndParityCases(op: OperationModel): string[] {
  const cases: string[] = [];
  if (op.idempotency && op.effects.idempotent === "key") {
    cases.push(`  it("a response lost after commit, retried from a second process: one effect, the recorded outcome", (t) => run(t, () => processCheck.lostResponseRetriedElsewhere(h, op)));`);
  }
  cases.push(`  it("adapter parity: the generated SDK, CLI and MCP server agree (sample call, unseeded identifier, forbidden input)", (t) => run(t, () => parity.adapterParity(h, ADAPTERS, op)));`);
  return cases;
}

/** The name of the case checking where a traversal of `style` ends (tests/runtime/checks-paging.ts traversalEnds). */
function endsName(style: "cursor" | "next-link" | "page" | "offset"): string {
  switch (style) {
    case "cursor":
      return "the traversal ends: the cursor advances, the last page's cursor is null, no page is empty after the first";
    case "next-link":
      return "the traversal ends: the next link advances, the last page has none, no page is empty after the first";
    default:
      return "the traversal ends: each page advances, within the declared total";
  }
}

/** Completeness of bounded reads (tests/runtime/checks-paging.ts): data sets, full and partial pages, bounded tasks. */
function completenessCases(op: OperationModel, operations: readonly OperationModel[]): string[] {
  const cases: string[] = [];
  if (op.pagination) {
    cases.push(`  it("the empty data set: one empty, final page", (t) => run(t, () => paging.emptyDataSet(h, op)));`);
    cases.push(`  it("the mixed data set: small pages give every record once, totals match", (t) => run(t, () => paging.mixedDataSet(h, op)));`);
    cases.push(`  it("a full page of a larger set carries a next ${op.pagination.style === "cursor" ? "cursor" : op.pagination.style === "next-link" ? "link" : "page"}", (t) => run(t, () => paging.fullPageHasNext(h, op)));`);
    if (op.pagination.partialField !== null || op.pagination.errorsField !== null) {
      cases.push(`  it("a degraded store: partial pages say so, a clean last page does not complete the traversal", (t) => run(t, () => paging.degradedTraversal(h, op)));`);
    }
  }
  // Filters without a meaning are judged by totals (and equality where it shows); those with one, by it.
  if (op.pagination && op.filters.some((f) => f.match === null)) {
    cases.push(`  it("each filter value: every item matches it, the total counts exactly the filtered items", (t) => run(t, () => paging.filteredTraversals(h, op)));`);
  }
  if (op.pagination && op.filters.some((f) => f.match !== null)) {
    cases.push(`  it("each filter's meaning: values from the data select exactly the records that satisfy it, totals agree", (t) => run(t, () => paging.filterMeanings(h, op)));`);
  }
  if (op.task) {
    cases.push(`  it("the empty data set: the task completes at once, nothing examined", (t) => run(t, () => paging.taskEmptyDataSet(h, op)));`);
    cases.push(`  it("over the per-call bound: no early complete, continuations reach the full answer", (t) => run(t, () => paging.taskBounded(h, op)));`);
    // A list declaring the same filters: the count and it must agree (tests/runtime/checks-paging.ts taskAgreesWithList).
    const names = new Set(op.filters.map((f) => f.field));
    const sameFilters = (o: OperationModel) => o.pagination !== null && o !== op && o.filters.length === names.size && o.filters.every((f) => names.has(f.field));
    if (op.filters.length > 0 && op.task.answerField !== null && operations.some(sameFilters)) {
      cases.push(`  it("the answer agrees with the list declaring the same filters, for each filter value", (t) => run(t, () => paging.taskAgreesWithList(h, op)));`);
    }
  }
  return cases;
}

/** `tests/contract.test.ts`: one describe per operation, each case one runtime check. */
export function emitContractTests(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type TestContext, afterAll, beforeAll, describe, it } from "vitest";
import { ADAPTERS } from "./adapters.js";
import { CONTRACT_SPEC } from "./contract.js";
import * as check from "./runtime/checks.js";
import * as errors from "./runtime/checks-errors.js";
import * as projection from "./runtime/checks-projection.js";
import * as undo from "./runtime/checks-undo.js";
import * as processCheck from "./runtime/checks-process.js";
import * as parity from "./runtime/parity.js";
import * as paging from "./runtime/checks-paging.js";
import * as samples from "./runtime/samples.js";
import * as behaviour from "./runtime/checks-behaviour.js";
import * as stateful from "./runtime/checks-stateful.js";
import { DerivedInputRefused, type Fixture, Harness, OperationNotImplemented } from "./runtime/harness.js";
import { maskedError } from "./runtime/mask.js";

// The implementer's fixture: tests/fixture.ts, or the module CONTRACT_FIXTURE names.
const fixtureModule = (process.env.CONTRACT_FIXTURE
  ? await import(pathToFileURL(resolve(process.env.CONTRACT_FIXTURE)).href)
  : await import("./fixture.js")) as { fixture: Fixture };
const fixture = fixtureModule.fixture;
const h = new Harness(CONTRACT_SPEC, fixture);

beforeAll(async () => {
  await fixture.start?.();
});
afterAll(async () => {
  await fixture.stop?.();
});

/** Runs of a check whose derived input the implementation refused: each next run derives another object. */
const DERIVATION_ATTEMPTS = 3;

/** A check that had nothing to check with (see the fixture) is reported as skipped, with why (in the JUnit XML as a property). */
async function run(t: TestContext, runCheck: () => Promise<check.CheckResult>): Promise<void> {
  let outcome: check.CheckResult;
  for (let attempt = 1; ; attempt++) {
    try {
      outcome = await runCheck();
      break;
    } catch (e) {
      // An input the suite derived, refused with a declared error: the derivation guessed wrong, no promise
      // broke. The derivation avoids that object next time, so the check runs again before it is skipped.
      if (e instanceof DerivedInputRefused) {
        if (attempt < DERIVATION_ATTEMPTS) continue;
        outcome = { skip: maskedError(e).message };
        break;
      }
      // A generated skeleton's stub answered: the operation is not implemented yet, so no promise can be judged.
      if (e instanceof OperationNotImplemented) {
        outcome = { skip: maskedError(e).message };
        break;
      }
      // A credential the implementation echoed back never reaches a message or report.
      throw maskedError(e);
    }
  }
  if (outcome) {
    await t.annotate(outcome.skip, "skipped");
    t.skip(outcome.skip);
  }
}

/** vitest fails a whole file for a describe without cases: a group with nothing to check is one skipped case, saying why. */
function nothingToCheck(name: string, reason: string): void {
  it(name, (t) => run(t, () => Promise.resolve({ skip: reason })));
}

${model.operations.map((op) => operationBlock(op, model)).join("\n\n")}
`;
}

/**
 * `tests/adapters.ts`: the generated SDK, CLI and MCP server wired for the parity checks (tests/runtime/parity.ts).
 * The CLI runs its program in this process with stdout captured; in skeleton mode the MCP server runs
 * its own handlers, not the implementation under test, so only the SDK and the CLI are compared.
 */
export function emitTestAdapters(model: ContractModel, mcp: "adapter" | "skeleton"): string {
  const client = clientClassName(model);
  const auth = model.transport.auth;
  return `${generatedHeader(model.name, model.version)}import { COMMANDS } from "../cli/commands.js";
import { runCli } from "../cli/runtime/program.js";
${mcp === "adapter" ? `import { createServer } from "../mcp/server.js";\n` : ""}import { TOOLS } from "../mcp/tools.js";
import { ${client} } from "../sdk/index.js";
import type { ParityAdapters } from "./runtime/parity.js";

export const ADAPTERS: ParityAdapters = {
  commands: COMMANDS,
  tools: TOOLS,
  sdk: (options) => new ${client}(options),
  async cli(argv, options) {
    let stdout = "";
    let stderr = "";
    const exitCode = await runCli(
      {
        name: ${literal(model.name)},
        version: ${literal(model.version)},
        description: ${literal(`${model.title} (contract suite: adapter parity)`)},
        credentialEnv: ${literal(authEnvVars(auth))},
        commands: COMMANDS,
        // The suite's credential, as the CLI would read it from its environment variable.
        createClient: (settings) => new ${client}({ ...settings, ...(options.token !== undefined ? { token: options.token } : {}) }),
      },
      argv,
      { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), stdin: () => options.stdin },
    );
    return { exitCode, stdout, stderr };
  },
  mcp: ${mcp === "adapter" ? "(options) => createServer(options)" : "null"},
};
`;
}

/**
 * `tests/vitest.config.ts`: run from the package root with `npx vitest run -c tests/vitest.config.ts`.
 * Report mode (`CONTRACT_REPORT_DIR=<dir>`) adds vitest's junit reporter and the summary reporter of
 * tests/runtime/report.ts; `CONTRACT_PROGRESS=verbose` prints each check as it finishes.
 */
export function emitTestConfig(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { JUNIT_XML, LineReporter, SummaryReporter } from "./runtime/report.js";

const TITLE = ${literal(`${model.name} ${model.version}`)};
// Report mode: a JUnit XML and a Markdown (and JSON) summary in this folder (relative to where vitest runs).
const reportDir = process.env.CONTRACT_REPORT_DIR ? resolve(process.env.CONTRACT_REPORT_DIR) : undefined;
// "lines": one line per check, no stack traces; "verbose": vitest's own, with them.
const progress = process.env.CONTRACT_PROGRESS === "lines" ? new LineReporter() : process.env.CONTRACT_PROGRESS === "verbose" ? "verbose" : "default";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["tests/contract.test.ts"],
    // Cases share one implementation and reset it: they run one after another.
    fileParallelism: false,
    // Each request has its own limit (CONTRACT_REQUEST_TIMEOUT_MS); this bounds a check as a whole.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: reportDir
      ? [progress, ["junit", { outputFile: resolve(reportDir, JUNIT_XML), suiteName: TITLE }], new SummaryReporter({ dir: reportDir, title: TITLE })]
      : [progress],
  },
});
`;
}

/** The fixture template's hints for the completeness checks, for contracts with lists or counts. */
function completenessTodo(model: ContractModel): string {
  const lists = model.operations.some((op) => op.pagination);
  const partial = model.operations.some((op) => op.pagination && (op.pagination.partialField !== null || op.pagination.errorsField !== null));
  const tasks = model.operations.some((op) => op.task);
  if (!lists && !tasks) return "";
  const lines = [
    "",
    "  // TODO optional: other states for the completeness checks of lists and counts (see runtime/harness.ts).",
    `  // async resetWith({ dataset${tasks ? ", maxExaminedPerCall" : ""} }) { …; return true; }, // "empty" or "mixed" records${tasks ? ", a lower per-call bound" : ""}`,
  ];
  if (partial) lines.push("  // async degrade(operation) { …; return true; }, // a failing shard: its pages must say they are partial");
  return lines.join("\n");
}

/** The fixture template's hint for the transient-after-commit check, for contracts with an operation it runs on. */
function failAfterCommitTodo(model: ContractModel): string {
  const retrySameKey = new Set(model.errors.filter((e) => e.class === "transient" && e.action === "retry_same_key").map((e) => e.code));
  const keyed = model.operations.some((op) => op.idempotency !== null && op.effects.idempotent === "key" && op.errors.some((e) => retrySameKey.has(e.code)));
  if (!keyed) return "";
  return [
    "",
    "  // TODO optional: make the next execution of a keyed operation commit, then answer its transient error (see runtime/harness.ts).",
    "  // async failAfterCommit(operation) { …; return true; },",
  ].join("\n");
}

/** `tests/fixture.ts`: written once, then the implementer's. */
export function emitFixtureTemplate(model: ContractModel): string {
  const auth = model.transport.auth;
  const single = auth.form === "bearer" || auth.form === "apiKey" ? auth.schemes[0]! : null;
  const tokenLine =
    single !== null && single.type !== "basic"
      ? `\n  // The credential the suite sends (${auth.form === "bearer" ? "bearer token" : "API key"}).\n  token: process.env.CONTRACT_TOKEN ?? process.env[${literal(single.tokenEnv)}],`
      : auth.form === "schemes" && auth.schemes.length > 0
        ? `\n  // Credentials by scheme name (${lineCommentText(auth.schemes.map((s) => s.name).join(", "))}); a scheme not given here is read from ${lineCommentText(authEnvVars(auth).join(", "))}.\n  // credentials: new Map([[${literal(auth.schemes[0]!.name)}, ${auth.schemes[0]!.type === "basic" ? `{ username: "…", password: "…" }` : `"…"`}]]),`
        : "";
  const samples = model.operations.map((op) => `      case ${literal(op.names.id)}:\n        return undefined; // TODO parameters that succeed from the reset state`).join("\n");
  return `// The contract test suite's fixture for ${lineCommentText(model.name)}: fill in the TODOs (generated once, never overwritten).
import type { Fixture, Input } from "./runtime/harness.js";

export const fixture: Fixture = {
  baseUrl: process.env.CONTRACT_BASE_URL ?? ${literal(model.transport.baseUrl)},${tokenLine}

  async reset(): Promise<void> {
    // TODO bring the implementation back to a known state (restart it, truncate and seed its store…).
  },

  sampleInput(operation: string, variant = 0): Input | undefined {
    // TODO variant 0: parameters that succeed; variant 1: other parameters that also succeed.
    // Without the operation key, dry-run flag or confirm token: the suite adds those. undefined skips the checks.
    if (variant !== 0) return undefined;
    switch (operation) {
${samples}
      default:
        return undefined;
    }
  },

  // TODO optional: a snapshot of the state operations change; without it "no effect" cannot be checked.
  // async observe() { return …; },

  // TODO optional: parameters that make an operation fail with a declared error code from the reset state
  // (e.g. an unknown id for a not_found code); undefined skips that code.
  // errorInput(operation: string, code: string): Input | undefined { return undefined; },

  // TODO optional: a credential with every scope except \`scope\`; without it permission errors are not checked.
  // tokenWithout(scope: string): string | undefined { return undefined; },${failAfterCommitTodo(model)}${completenessTodo(model)}
};
`;
}
