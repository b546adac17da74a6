import type { ContractModel, OperationModel, PaginationModel } from "../../model/types.js";
import { handlerFile, safeIdentifier } from "../../model/naming.js";
import { escapeInvisible, generatedHeader, literal } from "../shared/literals.js";
import { validatorName } from "./schemas.js";
import { wireBinding, wireFacts } from "../shared/wire.js";
import { jsonEntryLines } from "../shared/json-lines.js";
import type { OperationRecord } from "../../runtime/data.js";

/** Binding name of an operation's descriptor in `operations.ts` (reserved words get a suffix). */
export function descriptorName(op: OperationModel): string {
  return safeIdentifier(op.names.id);
}

/**
 * `sdk/operations.json`: the operation table, every operation's facts as plain data keyed by operation
 * id: how it travels, what it promises and its validators by name (compiled from `schemas.json` when
 * first used). The SDK, the MCP host and the contract tests read it through the runtime's one reader
 * (runtime/data.ts `operationRecords`); nothing else in the package repeats it. JSON rather than
 * typed object literals: tsc checked ~6 ms per literal against OperationSpec (most of the package's
 * check time at GitHub size), and a separate file so a client never parses the larger `contract.json`.
 * One operation a line: a change to one operation is a one-line change in review.
 */
export function emitOperationData(model: ContractModel): string {
  return `${escapeInvisible(jsonEntryLines([...operationRecordTable(model)]))}\n`;
}

/** Built once per model (it is immutable): the CLI and MCP emitters read the same records. */
const recordTables = new WeakMap<ContractModel, ReadonlyMap<string, OperationRecord>>();

/** Every operation's record (what `sdk/operations.json` holds), by operation id, in the contract's order. */
export function operationRecordTable(model: ContractModel): ReadonlyMap<string, OperationRecord> {
  let table = recordTables.get(model);
  if (table === undefined) {
    const byId = new Map(model.operations.map((op) => [op.names.id, op]));
    table = new Map(model.operations.map((op) => [op.names.id, operationRecord(op, model.operations, byId)]));
    recordTables.set(model, table);
  }
  return table;
}

/** One operation's record (runtime/data.ts OperationRecord), in a fixed key order. */
function operationRecord(op: OperationModel, operations: readonly OperationModel[], byId: ReadonlyMap<string, OperationModel>): OperationRecord {
  const v = (slot: "Input" | "Output" | "Preview") => validatorName(op.names.camel, slot);
  const page = op.pagination;
  const idem = op.idempotency;
  const undo = op.effects.undo === null ? undefined : byId.get(op.effects.undo);
  return {
    method: op.http.method,
    path: op.http.path,
    bindings: op.http.bindings.map(wireBinding) as unknown as OperationRecord["bindings"],
    successStatuses: op.http.successStatuses,
    ...(op.http.body !== null ? { bodyField: op.http.body } : {}),
    ...wireFacts(op.http),
    mutating: op.effects.kind === "mutating",
    idempotent: op.effects.idempotent,
    keyField: idem ? idem.keyField : null,
    ...(idem ? { keyRetentionMs: idem.retentionMs, keyScope: idem.scope, keyMismatchError: idem.mismatchError, keyRequired: idem.keyRequired } : {}),
    preview: op.preview
      ? {
          dryRunField: op.preview.dryRunField,
          confirmTokenField: op.preview.confirmTokenField,
          defaultDryRun: op.preview.defaultDryRun,
          ttlMs: op.preview.ttlMs,
          singleUse: op.preview.singleUse,
          invalidTokenError: op.preview.invalidTokenError,
          expiresAtField: op.preview.expiresAtField,
        }
      : null,
    pagination: page ? pageShape(page) : null,
    errors: op.errors.map((e) => e.code),
    ...(op.auth !== null ? { auth: op.auth } : {}),
    scopes: op.scopes,
    readWith: op.target?.kind === "read" ? op.target.operation : null,
    destructive: op.effects.destructive,
    undo: undo ? undo.names.id : null,
    preconditions: op.preconditions.map((c) => ({ kind: c.kind, field: c.field, compares: c.compares, required: c.required, error: c.error })),
    revisionField: revisionField(op, operations),
    projection: op.projection ? { field: op.projection.field, selectable: op.projection.selectable, identity: op.projection.identity } : null,
    filters: op.filters.map((f) => ({ field: f.field, property: f.property, match: f.match, bound: f.bound, ends: f.ends })),
    task: op.task
      ? { recordsExaminedField: op.task.recordsExaminedField, completeField: op.task.completeField, continuationField: op.task.continuationField, answerField: op.task.answerField }
      : null,
    validateInput: v("Input"),
    validateOutput: v("Output"),
    validatePreview: op.preview?.output ? v("Preview") : null,
    handlerFile: handlerFile(op),
  };
}

/**
 * The field a mutation of `op` must advance: a revision precondition's `compares`, else a `revision`
 * property of what the target read answers (the contract's default `compares`), for a mutation that
 * keeps its target (not destructive); null when the record declares none.
 */
export function revisionField(op: OperationModel, operations: readonly OperationModel[]): string | null {
  const declared = op.preconditions.find((c) => c.kind === "revision");
  if (declared) return declared.compares;
  if (op.effects.kind !== "mutating" || op.effects.destructive || op.target?.kind !== "read") return null;
  const readWith = op.target.operation;
  const schema = operations.find((o) => o.names.id === readWith)?.output.schema as Record<string, unknown> | undefined;
  const ref = typeof schema?.$ref === "string" && schema.$ref.startsWith("#/$defs/") ? schema.$ref.slice("#/$defs/".length) : undefined;
  const defs = schema?.$defs as Record<string, unknown> | undefined;
  const shown = (ref !== undefined && defs && Object.hasOwn(defs, ref) ? defs[ref] : schema) as Record<string, unknown> | undefined;
  const properties = shown?.properties as Record<string, unknown> | undefined;
  return properties && Object.hasOwn(properties, "revision") ? "revision" : null;
}

/**
 * `sdk/operations.ts`: one typed binding per operation, its descriptor read from `sdk/operations.json`
 * (each a call of a non-generic function: nothing for tsc to infer).
 */
export function emitOperations(model: ContractModel): string {
  const blocks = model.operations.map((op) => `export const ${descriptorName(op)}: OperationSpec = operation(${literal(op.names.id)});`);
  return [
    generatedHeader(model.name, model.version),
    `import type { OperationSpec } from "./runtime/client.js";`,
    `import { operationTable } from "./runtime/data.js";`,
    "",
    "const operation = operationTable();",
    "",
    blocks.join("\n"),
    "",
    "/** Any operation's descriptor by operation id: the same objects as the exports above. */",
    "export const operationSpec: (id: string) => OperationSpec = operation;",
    "",
  ].join("\n");
}

/** The runtime page shape: cursor keeps its original, shorter shape; other styles spell every field. */
function pageShape(page: PaginationModel): NonNullable<OperationRecord["pagination"]> {
  if (page.style === "cursor") {
    return {
      cursorField: page.cursorField,
      nextCursorField: page.nextCursorField,
      itemsField: page.itemsField,
      limitField: page.limitField,
      limitDefault: page.limitDefault,
      limitMax: page.limitMax,
      totalField: page.totalField,
      partialField: page.partialField,
      errorsField: page.errorsField,
    };
  }
  return {
    style: page.style,
    cursorField: null,
    nextCursorField: null,
    nextLink: page.nextLink === null ? null : page.nextLink.kind === "field" ? { kind: "field", field: page.nextLink.field } : { kind: "header", header: "Link" },
    pageField: page.pageField,
    firstPage: page.firstPage,
    offsetField: page.offsetField,
    itemsField: page.itemsField,
    limitField: page.limitField,
    limitDefault: page.limitDefault,
    limitMax: page.limitMax,
    totalField: page.totalField,
    partialField: page.partialField,
    errorsField: page.errorsField,
  };
}
