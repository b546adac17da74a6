/**
 * The generated contract test suite (`tests/`): the contract facts the checks need (tests/contract.ts),
 * one vitest file with a describe per operation whose cases call the copied runtime checks
 * (tests/runtime/, from src/tests-runtime), its vitest config, and a write-once fixture template the
 * implementer fills in. Pure functions of the model.
 */
import type { ContractModel, OperationModel } from "../../model/types.js";
import { generatedHeader, lineCommentText, literal, literalBlock } from "../shared/literals.js";

export const FIXTURE_FILE = "tests/fixture.ts";

function operationSpec(op: OperationModel): unknown {
  const p = op.pagination;
  return {
    id: op.names.id,
    method: op.http.method,
    path: op.http.path,
    bindings: op.http.bindings.map((b) => ({ field: b.field, in: b.in, name: b.name })),
    successStatus: op.http.successStatus,
    kind: op.effects.kind,
    input: op.input.schema,
    output: op.output.schema,
    errors: op.errors.map((e) => e.code),
    idempotency: op.idempotency && op.effects.idempotent === "key" ? { keyField: op.idempotency.keyField, mismatchError: op.idempotency.mismatchError } : null,
    preview: op.preview
      ? { dryRunField: op.preview.dryRunField, confirmTokenField: op.preview.confirmTokenField, invalidTokenError: op.preview.invalidTokenError, ttlMs: op.preview.ttlMs, output: op.preview.output?.schema ?? null }
      : null,
    preconditions: op.preconditions.map((c) => ({ kind: c.kind, field: c.field, error: c.error })),
    pagination: p
      ? { cursorField: p.cursorField, nextCursorField: p.nextCursorField, itemsField: p.itemsField, limitField: p.limitField, limitMax: p.limitMax, totalField: p.totalField, partialField: p.partialField, errorsField: p.errorsField }
      : null,
    task: op.task
      ? { recordsExaminedField: op.task.recordsExaminedField, completeField: op.task.completeField, continuationField: op.task.continuationField, answerField: op.task.answerField }
      : null,
  };
}

/** `tests/contract.ts`: what the checks know of the contract (taxonomy in a Map: codes are never object keys). */
export function emitTestContract(model: ContractModel): string {
  const auth = model.transport.auth;
  const taxonomy = model.errors
    .map((e) => `  [${literal(e.code)}, ${literalBlock({ class: e.class, action: e.action, http: e.httpStatus, field: e.field, details: e.details?.schema ?? null }, 2)}],`)
    .join("\n");
  const operations = model.operations.map((op) => `  ${literalBlock(operationSpec(op), 2)},`).join("\n");
  return `${generatedHeader(model.name, model.version)}import type { ContractSpec, ErrorSpec, OperationSpec } from "./runtime/harness.js";

const TAXONOMY = new Map<string, ErrorSpec>([
${taxonomy}
]);

const OPERATIONS: OperationSpec[] = [
${operations}
];

export const CONTRACT_SPEC: ContractSpec = {
  name: ${literal(model.name)},
  version: ${literal(model.version)},
  auth: { type: ${literal(auth.type)}, header: ${literal(auth.type === "apiKey" ? auth.header : null)} },
  taxonomy: TAXONOMY,
  operations: OPERATIONS,
};
`;
}

function operationBlock(op: OperationModel): string {
  const id = literal(op.names.id);
  const cases: string[] = [`  it("schema conformance of a successful call", (t) => run(t, check.conformance(h, op)));`];
  cases.push(`  describe("negative inputs", () => {
    for (const c of check.negativeCases(op)) it(c.name, (t) => run(t, check.negativeInput(h, op, c)));
  });`);
  if (op.preview) {
    cases.push(`  it("a preview has no effect", (t) => run(t, check.previewHasNoEffect(h, op)));`);
    cases.push(`  it("an execution without a confirm token is refused", (t) => run(t, check.executeWithoutToken(h, op)));`);
    cases.push(`  it("a token from a preview of other parameters is refused", (t) => run(t, check.executeWithOtherParametersToken(h, op)));`);
    cases.push(`  it("an expired confirm token is refused", (t) => run(t, check.expiredToken(h, op)));`);
    if (op.preview.singleUse) cases.push(`  it("a used single-use confirm token is refused", (t) => run(t, check.tokenSingleUse(h, op)));`);
  }
  op.preconditions.forEach((c, i) => {
    cases.push(`  it(${literal(`a stale ${c.field} fails with ${c.error} and changes nothing`)}, (t) => run(t, check.stalePrecondition(h, op, ${i})));`);
  });
  if (op.idempotency && op.effects.idempotent === "key") {
    cases.push(`  it("the same key twice: one effect, the first outcome replayed", (t) => run(t, check.sameKeyReplays(h, op)));`);
    cases.push(`  it("changed parameters under a used key are refused", (t) => run(t, check.changedParametersRejected(h, op)));`);
    cases.push(`  it("distinct keys with equal parameters: two effects", (t) => run(t, check.distinctKeysTwoEffects(h, op)));`);
    cases.push(`  it("concurrent calls under one key: one effect, one outcome", (t) => run(t, check.concurrentSameKey(h, op)));`);
  }
  if (op.pagination) {
    cases.push(`  it("multi-page traversal: totals match, last cursor null", (t) => run(t, check.traversal(h, op)));`);
  }
  cases.push(...completenessCases(op));
  return `describe(${id}, () => {
  const op = h.operation(${id});
${cases.join("\n")}
});`;
}

/** Completeness of bounded reads (tests/runtime/checks-paging.ts): data sets, full and partial pages, bounded tasks. */
function completenessCases(op: OperationModel): string[] {
  const cases: string[] = [];
  if (op.pagination) {
    cases.push(`  it("the empty data set: one empty, final page", (t) => run(t, paging.emptyDataSet(h, op)));`);
    cases.push(`  it("the mixed data set: small pages give every record once, totals match", (t) => run(t, paging.mixedDataSet(h, op)));`);
    cases.push(`  it("a full page of a larger set carries a next cursor", (t) => run(t, paging.fullPageHasNext(h, op)));`);
    if (op.pagination.partialField !== null || op.pagination.errorsField !== null) {
      cases.push(`  it("a degraded store: partial pages say so, a clean last page does not complete the traversal", (t) => run(t, paging.degradedTraversal(h, op)));`);
    }
  }
  if (op.task) {
    cases.push(`  it("the empty data set: the task completes at once, nothing examined", (t) => run(t, paging.taskEmptyDataSet(h, op)));`);
    cases.push(`  it("over the per-call bound: no early complete, continuations reach the full answer", (t) => run(t, paging.taskBounded(h, op)));`);
  }
  return cases;
}

/** `tests/contract.test.ts`: one describe per operation, each case one runtime check. */
export function emitContractTests(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type TestContext, afterAll, beforeAll, describe, it } from "vitest";
import { CONTRACT_SPEC } from "./contract.js";
import * as check from "./runtime/checks.js";
import * as paging from "./runtime/checks-paging.js";
import { type Fixture, Harness } from "./runtime/harness.js";

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

/** A check that had nothing to check with (see the fixture) is reported as skipped, with why. */
async function run(t: TestContext, result: Promise<check.CheckResult>): Promise<void> {
  const outcome = await result;
  if (outcome) t.skip(outcome.skip);
}

${model.operations.map(operationBlock).join("\n\n")}
`;
}

/** `tests/vitest.config.ts`: run from the package root with \`npx vitest run -c tests/vitest.config.ts\`. */
export function emitTestConfig(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["tests/contract.test.ts"],
    // Cases share one implementation and reset it: they run one after another.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
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

/** `tests/fixture.ts`: written once, then the implementer's. */
export function emitFixtureTemplate(model: ContractModel): string {
  const auth = model.transport.auth;
  const tokenLine = auth.type === "none" ? "" : `\n  // The credential the suite sends (${auth.type === "bearer" ? "bearer token" : "API key"}).\n  token: process.env.CONTRACT_TOKEN ?? process.env[${literal(auth.tokenEnv)}],`;
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
  // async observe() { return …; },${completenessTodo(model)}
};
`;
}
