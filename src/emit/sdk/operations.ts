import type { ContractModel, OperationModel, PaginationModel } from "../../model/types.js";
import { safeIdentifier } from "../../model/naming.js";
import { escapeInvisible, generatedHeader, literal } from "../shared/literals.js";
import { validatorName } from "./schemas.js";
import { wireBinding, wireFacts } from "../shared/wire.js";

/** Binding name of an operation's descriptor in `operations.ts` (reserved words get a suffix). */
export function descriptorName(op: OperationModel): string {
  return safeIdentifier(op.names.id);
}

/**
 * `sdk/operations.json`: the runtime descriptor of every operation as plain data, keyed by operation
 * id, with its validators named (compiled from `schemas.json` when first used). JSON rather than typed
 * object literals: tsc checked ~6 ms per literal against OperationSpec (most of the package's check
 * time at GitHub size), and a separate file so a client never parses the larger `contract.json`.
 */
export function emitOperationData(model: ContractModel): string {
  const data: Record<string, unknown> = Object.create(null);
  for (const op of model.operations) {
    const v = (slot: "Input" | "Output" | "Preview") => validatorName(op.names.camel, slot);
    const page = op.pagination;
    data[op.names.id] = {
      method: op.http.method,
      path: op.http.path,
      bindings: op.http.bindings.map(wireBinding),
      successStatuses: op.http.successStatuses,
      ...(op.http.body !== null ? { bodyField: op.http.body } : {}),
      ...wireFacts(op.http),
      mutating: op.effects.kind === "mutating",
      idempotent: op.effects.idempotent,
      keyField: op.idempotency ? op.idempotency.keyField : null,
      ...(op.idempotency ? { keyRetentionMs: op.idempotency.retentionMs } : {}),
      preview: op.preview
        ? { dryRunField: op.preview.dryRunField, confirmTokenField: op.preview.confirmTokenField, defaultDryRun: op.preview.defaultDryRun }
        : null,
      pagination: page ? pageShape(page) : null,
      errors: op.errors.map((e) => e.code),
      ...(op.auth !== null ? { auth: op.auth } : {}),
      validateInput: v("Input"),
      validateOutput: v("Output"),
      validatePreview: op.preview?.output ? v("Preview") : null,
    };
  }
  return `${escapeInvisible(JSON.stringify(data, null, 2))}\n`;
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
function pageShape(page: PaginationModel): Record<string, unknown> {
  if (page.style === "cursor") {
    return {
      cursorField: page.cursorField,
      nextCursorField: page.nextCursorField,
      itemsField: page.itemsField,
      limitField: page.limitField,
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
