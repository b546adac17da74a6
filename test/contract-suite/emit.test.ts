/**
 * The suite emitter: deterministic, the fixture is write-once, contract strings arrive escaped, and
 * the negative cases follow the input schema's constraints (only those the wire can express).
 */
import { describe, expect, it } from "vitest";
import { emitPackage, writeOnceFiles } from "../../src/emit/index.js";
import { emitContractTests } from "../../src/emit/tests/suite.js";
import type { ContractModel, OperationModel } from "../../src/model/types.js";
import { parseContract } from "../../src/contract/parse.js";
import { negativeCases } from "../../src/tests-runtime/checks.js";
import type { OperationSpec } from "../../src/tests-runtime/harness.js";

const billing = parseContract("specs/billing.v2.yaml").model!;

describe("generated tests/", () => {
  it("is deterministic and ships the runtime, config, contract facts and a write-once fixture", async () => {
    const a = await emitPackage(billing);
    const b = await emitPackage(billing);
    const tests = [...a.keys()].filter((p) => p.startsWith("tests/"));
    expect([...tests].sort()).toEqual([
      "tests/adapters.ts",
      "tests/contract.test.ts",
      "tests/contract.ts",
      "tests/fixture.ts",
      "tests/runtime/checks-behaviour.ts",
      "tests/runtime/checks-errors.ts",
      "tests/runtime/checks-paging.ts",
      "tests/runtime/checks-process.ts",
      "tests/runtime/checks-projection.ts",
      "tests/runtime/checks-stateful.ts",
      "tests/runtime/checks-undo.ts",
      "tests/runtime/checks.ts",
      "tests/runtime/derive.ts",
      "tests/runtime/filter-meaning.ts",
      "tests/runtime/harness.ts",
      "tests/runtime/mask.ts",
      "tests/runtime/parity.ts",
      "tests/runtime/proxy.ts",
      "tests/runtime/report.ts",
      "tests/runtime/retry-child.mjs",
      "tests/runtime/samples.ts",
      "tests/runtime/schema-values.ts",
      "tests/runtime/wire-values.ts",
      "tests/vitest.config.ts",
    ]);
    for (const p of tests) expect(a.get(p)).toBe(b.get(p));
    expect(writeOnceFiles(billing).has("tests/fixture.ts")).toBe(true);
    expect(a.get("README.md")).toContain("npx vitest run -c tests/vitest.config.ts");
    expect(a.get("README.md")).toContain("CONTRACT_REPORT_DIR=reports npx vitest run -c tests/vitest.config.ts");
  });

  it("writes an operation named to break out of a string as an escaped literal", () => {
    const op = billing.operations[0]!;
    const hostile: OperationModel = { ...op, names: { ...op.names, id: 'x"); process.exit(1); ("\u202E' } };
    const text = emitContractTests({ ...billing, operations: [hostile] } as ContractModel);
    expect(text).toContain(`describe("x\\"); process.exit(1); (\\"\\u202e", () => {`);
    expect(text).not.toContain("\u202E");
  });
});

describe("completeness cases", () => {
  const incidents = parseContract("specs/incidents.yaml").model!;
  const casesOf = (model: ContractModel, id: string): string[] => {
    const text = emitContractTests(model);
    const block = text.slice(text.indexOf(`describe(${JSON.stringify(id)}`));
    return [...block.slice(0, block.indexOf("\n});")).matchAll(/paging\.(\w+)\(/g)].map((m) => m[1]!);
  };

  it("go where the contract declares pages, partial pages or a task, and nowhere else", () => {
    // Every filter of list_incidents says what it means: filterMeanings judges them, filteredTraversals has nothing left.
    expect(casesOf(incidents, "list_incidents")).toEqual(["traversalEnds", "emptyDataSet", "mixedDataSet", "fullPageHasNext", "degradedTraversal", "filterMeanings"]);
    // count_incidents declares the filters of list_incidents: the two must agree.
    expect(casesOf(incidents, "count_incidents")).toEqual(["taskEmptyDataSet", "taskBounded", "taskAgreesWithList"]);
    expect(casesOf(incidents, "get_incident")).toEqual([]);
    // list_customers declares no partial or errors field: its pages cannot say they are partial.
    expect(casesOf(billing, "list_customers")).toEqual(["traversalEnds", "emptyDataSet", "mixedDataSet", "fullPageHasNext", "filteredTraversals"]);
  });

  it("tell the checks the filters from the model, only where declared", async () => {
    const table = JSON.parse((await emitPackage(incidents)).get("sdk/operations.json")!) as Record<string, { filters: string[] }>;
    expect(table.count_incidents!.filters.map((f) => f.field)).toEqual(["status", "severity", "service", "environment", "owner", "opened_after"]);
    expect(table.count_incidents!.filters.at(-1)).toEqual({ field: "opened_after", property: "opened_at", match: "range", bound: "from", ends: { fromInclusive: false, toInclusive: false } });
    expect(table.get_incident!.filters).toEqual([]);
  });

  it("tell the checks the task's fields from the model", async () => {
    const table = JSON.parse((await emitPackage(incidents)).get("sdk/operations.json")!) as Record<string, { task: unknown }>;
    expect(table.count_incidents!.task).toEqual({ recordsExaminedField: "records_examined", completeField: "complete", continuationField: "continuation", answerField: "count" });
    expect(table.get_incident!.task).toBeNull();
  });
});

describe("stateful cases", () => {
  const scenes = parseContract("test/contract-suite/independent/scenes.yaml").model!;
  const casesOf = (model: ContractModel, id: string): string[] => {
    const text = emitContractTests(model);
    const block = text.slice(text.indexOf(`describe(${JSON.stringify(id)}`));
    return [...block.slice(0, block.indexOf("\n});")).matchAll(/stateful\.(\w+)\(/g)].map((m) => m[1]!);
  };

  it("go where the contract makes the promise, and nowhere else", () => {
    // A keyed creation declaring UPSTREAM_TIMEOUT (transient, retry_same_key).
    expect(casesOf(billing, "create_customer")).toEqual(["keyRetained", "transientAfterCommitReplays"]);
    // A previewable refund (preview.default true) with a precondition, a conflict, a scope and a key.
    expect(casesOf(billing, "refund_invoice")).toEqual(["dryRunDefaultHonoured", "preconditionRecheckedAtExecution", "refusalRepeatedAtExecution", "scopeRequiredAtPreview", "keyRetained", "transientAfterCommitReplays"]);
    // No preview, no key: nothing stateful to check beyond the behaviour checks.
    expect(casesOf(billing, "update_customer")).toEqual([]);
    expect(casesOf(billing, "get_customer")).toEqual([]);
    // A DELETE of an item get_scene reads; a rename whose target delete_scene can delete (its not-found at execution).
    expect(casesOf(scenes, "delete_scene")).toEqual(["useAfterDelete", "dryRunDefaultHonoured", "keyRetained"]);
    expect(casesOf(scenes, "rename_scene")).toEqual(["dryRunDefaultHonoured", "preconditionRecheckedAtExecution", "refusalRepeatedAtExecution", "keyRetained"]);
  });

  it("take no DELETE of a part for the removal of the object a read shows", () => {
    const del = scenes.operations.find((o) => o.names.id === "delete_scene")!;
    const part: OperationModel = { ...del, target: null, http: { ...del.http, path: "/scenes/{scene_id}/thumbnail" } };
    const model = { ...scenes, operations: scenes.operations.map((o) => (o === del ? part : o)) } as ContractModel;
    expect(casesOf(model, "delete_scene")).toEqual(["dryRunDefaultHonoured", "keyRetained"]);
  });

  it("write the contract's scope names as escaped literals", () => {
    const refund = billing.operations.find((o) => o.names.id === "refund_invoice")!;
    const hostile: OperationModel = { ...refund, scopes: ['x"); process.exit(1); ("'] };
    const model = { ...billing, operations: billing.operations.map((o) => (o === refund ? hostile : o)) } as ContractModel;
    expect(emitContractTests(model)).toContain(`stateful.scopeRequiredAtPreview(h, op, "x\\"); process.exit(1); (\\""))`);
  });

  it("ask the fixture template for failAfterCommit only where a check needs it", async () => {
    const hint = "// async failAfterCommit(operation)";
    expect((await emitPackage(billing)).get("tests/fixture.ts")).toContain(hint);
    expect((await emitPackage(scenes)).get("tests/fixture.ts")).not.toContain(hint);
  });
});

function spec(input: object, bindings: OperationSpec["bindings"] = []): OperationSpec {
  return { id: "op", method: "POST", path: "/x/{id}", bindings, successStatus: 200, kind: "mutating", input, output: true, errors: [], idempotency: null, preview: null, preconditions: [], pagination: null };
}

describe("negative cases from the input schema", () => {
  it("derive one case per constraint, naming the field", () => {
    const cases = negativeCases(
      spec({
        type: "object",
        additionalProperties: false,
        required: ["amount"],
        properties: {
          amount: { type: "integer", minimum: 1, maximum: 10 },
          kind: { type: "string", enum: ["a", "b"] },
          code: { $ref: "#/$defs/Code" },
        },
        $defs: { Code: { type: "string", pattern: "^[a-z]+$", maxLength: 4 } },
      }),
    );
    expect(cases.map((c) => [c.name, c.field])).toEqual([
      ["missing required amount", "amount"],
      ["wrong type for amount", "amount"],
      ["amount below minimum 1", "amount"],
      ["amount above maximum 10", "amount"],
      ["wrong type for code", "code"],
      ["code longer than 4", "code"],
      ["code not matching ^[a-z]+$", "code"],
      ["wrong type for kind", "kind"],
      ["kind outside its enum", "kind"],
      ["an extra property", "unexpected_property"],
    ]);
    expect(cases.find((c) => c.name === "code not matching ^[a-z]+$")!.apply({ amount: 1 })).toEqual({ amount: 1, code: "!" });
  });

  it("skip length cases past 1 MiB (they would test the transport, not the schema)", () => {
    const cases = negativeCases(spec({ type: "object", properties: { huge: { type: "string", minLength: 1_000_000_000, maxLength: 2_000_000_000 }, big: { type: "string", maxLength: 1_048_575 } } }));
    expect(cases.map((c) => c.name)).toEqual(["wrong type for big", "big longer than 1048575", "wrong type for huge"]);
    expect((cases[1]!.apply({}) as { big: string }).big).toHaveLength(1_048_576);
  });

  it("skip what the wire cannot express: a number for a path string, a missing path segment", () => {
    const cases = negativeCases(spec({ type: "object", required: ["id"], properties: { id: { type: "string", minLength: 3 } } }, [{ field: "id", in: "path", name: "id" }]));
    expect(cases.map((c) => c.name)).toEqual([]);
  });
});
