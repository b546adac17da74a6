import { IndentationText, type MethodDeclarationStructure, type OptionalKind, Project } from "ts-morph";
import type { ContractModel, OperationModel, PaginationModel } from "../../model/types.js";
import { docLines, generatedHeader, literal } from "../shared/literals.js";
import { effectsLine, errorsLine } from "../shared/describe.js";
import { clientClassName, clientMethodNames } from "./names.js";
import { descriptorName } from "./operations.js";

export { clientClassName, clientMethodNames, type ClientMethodNames } from "./names.js";

/**
 * A TypeScript type for an operation's input with some fields made optional and others removed; with
 * `confirm` ([dry-run field, confirm token field]), the input of a confirmed execution.
 */
function inputType(op: OperationModel, omit: string[], optional: string[], confirm: [string, string] | null = null): string {
  const union = (fields: string[]) => fields.map(literal).join(" | ");
  let type = `T.${op.names.types.input}`;
  if (confirm) type = `WithConfirmation<${type}, ${literal(confirm[0])}, ${literal(confirm[1])}>`;
  if (omit.length > 0) type = `Omit<${type}, ${union(omit)}>`;
  return optional.length > 0 ? `WithOptional<${type}, ${union(optional)}>` : type;
}

function docsFor(model: ContractModel, op: OperationModel, extra: Array<string | null>): OptionalKind<MethodDeclarationStructure>["docs"] {
  const tags = op.deprecated
    ? [{ tagName: "deprecated", text: docLines(`since ${op.deprecated.since}${op.deprecated.sunset ? `, removed after ${op.deprecated.sunset}` : ""}${op.deprecated.replacement ? `; use ${op.deprecated.replacement}` : ""}.`) }]
    : [];
  return [{ description: docLines(op.summary, op.description, ...extra, effectsLine(op), errorsLine(model, op)), tags }];
}

/** `sdk/client.ts`: the typed client, one thin method per operation (and per preview and traversal). */
export function emitClient(model: ContractModel): string {
  const project = new Project({ useInMemoryFileSystem: true, manipulationSettings: { indentationText: IndentationText.TwoSpaces } });
  const file = project.createSourceFile("client.ts", "", { overwrite: true });
  const className = clientClassName(model);
  const methods: Array<OptionalKind<MethodDeclarationStructure>> = [];
  const names = clientMethodNames(model);

  for (const op of model.operations) {
    const m = names.get(op.names.id)!;
    const types = op.names.types;
    const key = op.idempotency && op.effects.idempotent === "key" ? [op.idempotency.keyField] : [];
    const dryRun = op.preview ? [op.preview.dryRunField] : [];
    const descriptor = `ops.${descriptorName(op)}`;
    methods.push({
      name: m.call,
      parameters: [
        { name: "input", type: op.preview ? inputType(op, [], key, [op.preview.dryRunField, op.preview.confirmTokenField]) : inputType(op, [], key) },
        { name: "options", type: "CallOptions", initializer: "{}" },
      ],
      returnType: `Promise<T.${types.output}>`,
      docs: docsFor(model, op, [
        op.preview
          ? `Executes (the dry run is switched off): pass the \`${op.preview.confirmTokenField}\` that \`${m.preview}\` returned for these exact parameters (required); it is valid for ${op.preview.ttl}.`
          : null,
        op.preconditions.length > 0
          ? `Preconditions: ${op.preconditions.map((p) => `\`${p.field}\` must match the current ${p.compares} (else ${p.error}, no change)`).join("; ")}.`
          : null,
      ]),
      statements: `return this.core.call(${descriptor}, input, options);`,
    });
    if (op.preview && m.preview) {
      methods.push({
        name: m.preview,
        parameters: [
          // A preview takes no operation key: it executes nothing (the key is required to execute only).
          { name: "input", type: inputType(op, [...dryRun, op.preview.confirmTokenField, ...key], []) },
          { name: "options", type: "CallOptions", initializer: "{}" },
        ],
        returnType: op.preview.output ? `Promise<T.${types.preview}>` : "Promise<unknown>",
        docs: [
          {
            description: docLines(
              `Preview of \`${m.call}\`: executes nothing and takes no operation key; returns the expected effect and a confirm token valid for ${op.preview.ttl}.`,
              op.preconditions.length > 0 ? `Preconditions are checked as for the execution: a stale ${op.preconditions.map((p) => `\`${p.field}\``).join(" or ")} fails the preview the same way, and no token is issued.` : null,
            ),
          },
        ],
        statements: `return this.core.preview(${descriptor}, input, options);`,
      });
    }
    if (op.pagination && m.all) {
      methods.push({
        name: m.all,
        parameters: [
          { name: "input", type: inputType(op, [], []) },
          { name: "bounds", type: "TraversalBounds" },
        ],
        returnType:
          op.pagination.itemsField === null
            ? `Paginator<T.${types.output}[number]>`
            : `Paginator<NonNullable<T.${types.output}[${literal(op.pagination.itemsField)}]>[number]>`,
        docs: [{ description: docLines(traversalDoc(m.call, op.pagination)) }],
        statements: `return this.core.paginate(${descriptor}, input, bounds);`,
      });
    }
  }

  file.addClass({
    name: className,
    isExported: true,
    docs: [{ description: docLines(`Client of the ${model.title} platform (contract ${model.name} ${model.version}).`, model.description) }],
    properties: [{ name: "core", isReadonly: true, type: "ContractClient", docs: [{ description: "The runtime behind every method: transport, retries, journal." }] }],
    ctors: [
      {
        parameters: [{ name: "options", type: "ClientOptions", initializer: "{}" }],
        statements: "this.core = new ContractClient(CONTRACT, options);",
      },
    ],
    methods: [
      ...methods,
      { name: "close", returnType: "void", docs: [{ description: "Release the journal file, if this client opened one." }], statements: "this.core.close();" },
    ],
  });

  const body = file.getFullText().trim();
  const runtimeTypes = ["Paginator", "TraversalBounds", "WithConfirmation", "WithOptional"].filter((t) => new RegExp(`\\b${t}\\b`).test(body));
  const imports = [
    `import { type CallOptions, type ClientOptions, ContractClient${runtimeTypes.map((t) => `, type ${t}`).join("")} } from "./runtime/index.js";`,
    `import { CONTRACT } from "./contract.js";`,
    `import * as ops from "./operations.js";`,
    `import type * as T from "./types.js";`,
  ].join("\n");
  return `${generatedHeader(model.name, model.version)}${imports}\n\n${body}\n`;
}

/** What the traversal method does, in the words of its paging style. */
function traversalDoc(call: string, p: PaginationModel): string {
  const bound = p.limitMax === null ? "" : ` (at most ${p.limitMax} items per page)`;
  const rest = "Iterate it, or `collect()` it for the items plus whether the traversal is complete";
  switch (p.style) {
    case "cursor":
      return `Every page of \`${call}\` within explicit bounds${bound}, starting from \`${p.cursorField}\` when given (e.g. a previous traversal's \`continuation\`). ${rest} (final cursor null, no partial pages or page errors, items matching the declared total).`;
    case "next-link":
      return `Every page of \`${call}\` within explicit bounds${bound}, following each page's next link (${p.nextLink?.kind === "header" ? "the Link header, rel=\"next\"" : `\`${p.nextLink?.kind === "field" ? p.nextLink.field : ""}\``}) on the platform's origin only; \`bounds.resumeFrom\` takes a previous traversal's \`continuation\`. ${rest} (no next link left, no partial pages or page errors, items matching the declared total).`;
    case "page":
    case "offset":
      return `Every page of \`${call}\` within explicit bounds${bound}, advancing \`${p.style === "page" ? p.pageField : p.offsetField}\` ${p.style === "page" ? `from page ${p.firstPage}` : "by the items received"} (or from it when given, or from \`bounds.resumeFrom\`). ${rest} (ended by a short or empty page or the declared total, no partial pages or page errors, items matching the declared total).`;
  }
}
