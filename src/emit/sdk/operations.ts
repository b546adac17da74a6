import type { ContractModel, OperationModel, PaginationModel } from "../../model/types.js";
import { safeIdentifier } from "../../model/naming.js";
import { generatedHeader, literal } from "../shared/literals.js";
import { validatorName } from "./validators.js";

/** Binding name of an operation's descriptor in `operations.ts` (reserved words get a suffix). */
export function descriptorName(op: OperationModel): string {
  return safeIdentifier(op.names.id);
}

/** `sdk/operations.ts`: the runtime descriptor of every operation (pure data plus its validators). */
export function emitOperations(model: ContractModel): string {
  const validators = new Set<string>();
  const blocks = model.operations.map((op) => {
    const v = (slot: "Input" | "Output" | "Preview") => {
      const name = validatorName(op.names.camel, slot);
      validators.add(name);
      return name;
    };
    const page = op.pagination;
    const lines = [
      `export const ${descriptorName(op)}: OperationSpec = {`,
      `  id: ${literal(op.names.id)},`,
      `  method: ${literal(op.http.method)},`,
      `  path: ${literal(op.http.path)},`,
      `  bindings: [`,
      ...op.http.bindings.map((b) => `    { field: ${literal(b.field)}, in: ${literal(b.in)}, name: ${literal(b.name)} },`),
      `  ],`,
      `  successStatuses: [${op.http.successStatuses.join(", ")}],`,
      ...(op.http.body !== null ? [`  bodyField: ${literal(op.http.body)},`] : []),
      `  mutating: ${op.effects.kind === "mutating"},`,
      `  idempotent: ${literal(op.effects.idempotent)},`,
      `  keyField: ${op.idempotency ? literal(op.idempotency.keyField) : "null"},`,
      ...(op.idempotency ? [`  keyRetentionMs: ${op.idempotency.retentionMs},`] : []),
      `  preview: ${
        op.preview
          ? `{ dryRunField: ${literal(op.preview.dryRunField)}, confirmTokenField: ${literal(op.preview.confirmTokenField)}, defaultDryRun: ${op.preview.defaultDryRun} }`
          : "null"
      },`,
      `  pagination: ${
        page && page.style !== "cursor"
          ? pageStyleLiteral(page)
          : page
          ? `{\n    cursorField: ${literal(page.cursorField)},\n    nextCursorField: ${literal(page.nextCursorField)},\n    itemsField: ${literal(page.itemsField)},\n    limitField: ${literal(page.limitField)},\n    limitMax: ${page.limitMax},\n    totalField: ${literal(page.totalField)},\n    partialField: ${literal(page.partialField)},\n    errorsField: ${literal(page.errorsField)},\n  }`
          : "null"
      },`,
      `  errors: [${op.errors.map((e) => literal(e.code)).join(", ")}],`,
      `  validateInput: ${v("Input")},`,
      `  validateOutput: ${v("Output")},`,
      `  validatePreview: ${op.preview?.output ? v("Preview") : "null"},`,
      `};`,
    ];
    return lines.join("\n");
  });
  return [
    generatedHeader(model.name, model.version),
    `import type { OperationSpec } from "./runtime/client.js";`,
    `import {\n${[...validators].map((n) => `  ${n},`).join("\n")}\n} from "./validators.js";`,
    "",
    blocks.join("\n\n"),
    "",
  ].join("\n");
}

/** The runtime page shape of a non-cursor style (cursor keeps its original, shorter literal). */
function pageStyleLiteral(page: PaginationModel): string {
  const nextLink = page.nextLink === null ? "null" : page.nextLink.kind === "field" ? `{ kind: "field", field: ${literal(page.nextLink.field)} }` : `{ kind: "header", header: "Link" }`;
  const entries = [
    `style: ${literal(page.style)}`,
    `cursorField: null`,
    `nextCursorField: null`,
    `nextLink: ${nextLink}`,
    `pageField: ${literal(page.pageField)}`,
    `firstPage: ${page.firstPage}`,
    `offsetField: ${literal(page.offsetField)}`,
    `itemsField: ${literal(page.itemsField)}`,
    `limitField: ${literal(page.limitField)}`,
    `limitDefault: ${page.limitDefault === null ? "null" : page.limitDefault}`,
    `limitMax: ${page.limitMax === null ? "null" : page.limitMax}`,
    `totalField: ${literal(page.totalField)}`,
    `partialField: ${literal(page.partialField)}`,
    `errorsField: ${literal(page.errorsField)}`,
  ];
  return `{\n${entries.map((e) => `    ${e},`).join("\n")}\n  }`;
}
