/**
 * One contract module per package: the catalogue data (sdk/contract.json) stores what each tool and
 * command shows, and the runtimes join it with its operation's record in the operation table
 * (sdk/operations.json) — preview, key, paging, task, projection. What the generated server and CLI
 * build at start must be what the model defines, field for field, on contracts with previews, keys,
 * projections, tasks and every paging style; and the catalogue data must not repeat those facts.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { commandSpecs } from "../../src/emit/cli/commands.js";
import { continuationArgument, toolSpecs } from "../../src/emit/mcp/tools.js";
import { parseContract } from "../../src/contract/parse.js";
import type { ContractModel, OperationModel } from "../../src/model/types.js";
import { freshRoot, generateInto } from "../hostile/harness.js";

const CONTRACTS = ["specs/incidents.yaml", "specs/billing.v2.yaml", "specs/releases.yaml", "test/fixtures/valid/pagination-styles.yaml"];

function model(spec: string): ContractModel {
  const parsed = parseContract(spec);
  if (!parsed.model) throw new Error(`${spec} did not parse`);
  return parsed.model;
}

/** What a tool's operation promises, straight from the model (the expectation the join is held to). */
function expectedToolFacts(op: OperationModel): Record<string, unknown> {
  const p = op.pagination;
  const page =
    p === null
      ? null
      : p.style === "cursor"
        ? { cursorField: p.cursorField, nextCursorField: p.nextCursorField, partialField: p.partialField, errorsField: p.errorsField }
        : {
            style: p.style,
            positionField: p.style === "page" ? p.pageField : p.style === "offset" ? p.offsetField : null,
            firstPage: p.firstPage,
            itemsField: p.itemsField,
            limitField: p.limitField,
            limitDefault: p.limitDefault,
            nextLinkField: p.nextLink?.kind === "field" ? p.nextLink.field : null,
            ...(p.style === "next-link" ? { continuationArg: continuationArgument(op) } : {}),
            partialField: p.partialField,
            errorsField: p.errorsField,
          };
  return {
    dryRunField: op.preview?.dryRunField ?? null,
    confirmTokenField: op.preview?.confirmTokenField ?? null,
    keyField: op.idempotency && op.effects.idempotent === "key" ? op.idempotency.keyField : null,
    defaultDryRun: op.preview ? op.preview.defaultDryRun : null,
    page,
    task: op.task ? { completeField: op.task.completeField, continuationField: op.task.continuationField } : null,
  };
}

/** What a command's operation promises, straight from the model. */
function expectedCommandFacts(op: OperationModel): Record<string, unknown> {
  return {
    keyField: op.idempotency && op.effects.idempotent === "key" ? op.idempotency.keyField : null,
    dryRunField: op.preview?.dryRunField ?? null,
    confirmTokenField: op.preview?.confirmTokenField ?? null,
    defaultDryRun: op.preview ? op.preview.defaultDryRun : null,
    fieldsField: op.projection?.field ?? null,
    cursorField: op.pagination?.cursorField ?? null,
  };
}

/** As JSON: the loaded specs carry validators and descriptors, which are code. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("catalogue data joined with the operation table", () => {
  for (const spec of CONTRACTS) {
    it(`${spec}: the served tools and the CLI's commands are the model's, and the data repeats no operation fact`, async () => {
      const m = model(spec);
      const dir = join(freshRoot("contract-module"), m.name);
      const files = await generateInto(dir, m);
      const data = JSON.parse(files.get("sdk/contract.json")!) as { tools: Array<Record<string, unknown>>; commands: Array<Record<string, unknown>> };
      for (const tool of data.tools) for (const fact of ["dryRunField", "confirmTokenField", "keyField", "defaultDryRun", "page", "task"]) expect(tool).not.toHaveProperty(fact);
      for (const command of data.commands) for (const fact of ["keyField", "dryRunField", "confirmTokenField", "defaultDryRun", "fieldsField", "cursorField"]) expect(command).not.toHaveProperty(fact);

      const { TOOLS } = (await import(pathToFileURL(join(dir, "mcp", "tools.ts")).href)) as { TOOLS: ReadonlyArray<Record<string, unknown>> };
      const expectedTools = toolSpecs(m).map(({ spec: s }) => s);
      expect(TOOLS.map((t) => t.name)).toEqual(expectedTools.map((t) => t.name));
      TOOLS.forEach((tool, i) => {
        const { validateInput: _v, descriptor, ...shown } = tool;
        expect((descriptor as { id: string }).id).toBe(expectedTools[i]!.operation);
        expect(plain(shown), String(tool.name)).toEqual(plain(expectedTools[i]));
        const op = m.operations.find((o) => o.names.id === expectedTools[i]!.operation)!;
        expect(plain(shown), `${String(tool.name)}: facts`).toMatchObject(plain(expectedToolFacts(op)) as object);
      });

      const { COMMANDS } = (await import(pathToFileURL(join(dir, "cli", "commands.ts")).href)) as { COMMANDS: readonly unknown[] };
      expect(plain(COMMANDS)).toEqual(plain(commandSpecs(m)));
      expect(plain(COMMANDS)).toMatchObject(plain(m.operations.map(expectedCommandFacts)) as object);
    });
  }

  it("covers what the join derives: previews, keys, projections, tasks and every paging style", () => {
    const ops = CONTRACTS.flatMap((s) => model(s).operations);
    expect(ops.some((op) => op.preview !== null)).toBe(true);
    expect(ops.some((op) => op.idempotency !== null && op.effects.idempotent === "key")).toBe(true);
    expect(ops.some((op) => op.projection !== null)).toBe(true);
    expect(ops.some((op) => op.task !== null)).toBe(true);
    for (const style of ["cursor", "next-link", "page", "offset"]) expect(ops.some((op) => op.pagination?.style === style), style).toBe(true);
  });
});
