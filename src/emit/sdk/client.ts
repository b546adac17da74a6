import type { ContractModel, OperationModel, PaginationModel } from "../../model/types.js";
import { docLines, generatedHeader, literal } from "../shared/literals.js";
import { effectsLine, errorsLine } from "../shared/describe.js";
import { clientClassName, clientMethodInputs, clientMethodNames, type MethodInputShape } from "../../model/naming.js";
import { descriptorName } from "./operations.js";


/**
 * A TypeScript type for a method's input (naming.ts clientMethodInputs): the operation's input with
 * some fields made optional and others removed; with `confirm` ([dry-run field, confirm token field]),
 * the input of a confirmed execution.
 */
function inputType(op: OperationModel, { omit, optional, confirm }: MethodInputShape): string {
  const union = (fields: readonly string[]) => fields.map(literal).join(" | ");
  let type = `T.${op.names.types.input}`;
  if (confirm) type = `WithConfirmation<${type}, ${literal(confirm[0])}, ${literal(confirm[1])}>`;
  if (omit.length > 0) type = `Omit<${type}, ${union(omit)}>`;
  return optional.length > 0 ? `WithOptional<${type}, ${union(optional)}>` : type;
}

/** A JSDoc comment: its description and an optional `@deprecated` tag (texts from docLines: escaped, wrapped). */
interface Doc {
  readonly description: string;
  readonly deprecated?: string;
}

/** A class member as printed: JSDoc, then the signature and, for methods, a one-statement body. */
interface Member {
  readonly doc: Doc;
  readonly signature: string;
  readonly statement?: string;
}

function docsFor(model: ContractModel, op: OperationModel, extra: Array<string | null>): Doc {
  const deprecated = op.deprecated
    ? docLines(`since ${op.deprecated.since}${op.deprecated.sunset ? `, removed after ${op.deprecated.sunset}` : ""}${op.deprecated.replacement ? `; use ${op.deprecated.replacement}` : ""}.`)
    : undefined;
  return { description: docLines(op.summary, op.description, ...extra, effectsLine(op), errorsLine(model, op)), ...(deprecated !== undefined ? { deprecated } : {}) };
}

/**
 * A JSDoc block at `indent`: one line when the text is one line, else one ` * ` line per line of text
 * (blank lines bare), the tag last.
 */
function printDoc(doc: Doc, indent: string): string {
  const lines = doc.description === "" ? [] : doc.description.split("\n");
  if (doc.deprecated !== undefined) lines.push(...`@deprecated ${doc.deprecated}`.split("\n"));
  if (lines.length === 1) return `${indent}/** ${lines[0]} */`;
  return [`${indent}/**`, ...lines.map((l) => (l === "" ? `${indent} *` : `${indent} * ${l}`)), `${indent} */`].join("\n");
}

function printMember(m: Member): string {
  const undocumented = m.doc.description === "" && m.doc.deprecated === undefined;
  const head = `${undocumented ? "" : `${printDoc(m.doc, "  ")}\n`}  ${m.signature}`;
  return m.statement === undefined ? `${head};` : `${head} {\n    ${m.statement}\n  }`;
}

/** A parameter list: `name: type` or `name: type = initializer`. */
function params(list: Array<{ name: string; type: string; initializer?: string }>): string {
  return list.map((p) => `${p.name}: ${p.type}${p.initializer !== undefined ? ` = ${p.initializer}` : ""}`).join(", ");
}

/**
 * `sdk/client.ts`: the typed client, one thin method per operation (and per preview and traversal).
 * Printed directly (a class of one-statement methods needs no AST), in the layout of a formatter:
 * two-space indent, a JSDoc block per member, a blank line between members.
 */
export function emitClient(model: ContractModel): string {
  const className = clientClassName(model);
  const methods: Member[] = [];
  const names = clientMethodNames(model);

  for (const op of model.operations) {
    const m = names.get(op.names.id)!;
    const types = op.names.types;
    const inputs = clientMethodInputs(op);
    const descriptor = `ops.${descriptorName(op)}`;
    const input = inputType(op, inputs.call);
    methods.push({
      signature: `${m.call}(${params([{ name: "input", type: input }, { name: "options", type: "CallOptions", initializer: "{}" }])}): Promise<T.${types.output}>`,
      doc: docsFor(model, op, [
        op.preview
          ? `Executes (the dry run is switched off): pass the \`${op.preview.confirmTokenField}\` that \`${m.preview}\` returned for these exact parameters (required); it is valid for ${op.preview.ttl}.`
          : null,
        op.preconditions.length > 0
          ? `Preconditions: ${op.preconditions.map((p) => `\`${p.field}\` must match the current ${p.compares} (else ${p.error}, no change)`).join("; ")}.`
          : null,
      ]),
      statement: `return this.core.call<T.${types.output}>(${descriptor}, input, options);`,
    });
    if (op.preview && m.preview && inputs.preview) {
      // A preview takes no operation key: it executes nothing (the key is required to execute only).
      const previewInput = inputType(op, inputs.preview);
      methods.push({
        signature: `${m.preview}(${params([{ name: "input", type: previewInput }, { name: "options", type: "CallOptions", initializer: "{}" }])}): ${op.preview.output ? `Promise<T.${types.preview}>` : "Promise<unknown>"}`,
        doc: {
          description: docLines(
            `Preview of \`${m.call}\`: executes nothing and takes no operation key; returns the expected effect and a confirm token valid for ${op.preview.ttl}.`,
            op.preconditions.length > 0 ? `Preconditions are checked as for the execution: a stale ${op.preconditions.map((p) => `\`${p.field}\``).join(" or ")} fails the preview the same way, and no token is issued.` : null,
          ),
        },
        statement: `return this.core.preview<${op.preview.output ? `T.${types.preview}` : "unknown"}>(${descriptor}, input, options);`,
      });
    }
    if (op.pagination && m.all && inputs.all) {
      const item = op.pagination.itemsField === null ? `T.${types.output}[number]` : `NonNullable<T.${types.output}[${literal(op.pagination.itemsField)}]>[number]`;
      methods.push({
        signature: `${m.all}(${params([{ name: "input", type: inputType(op, inputs.all) }, { name: "bounds", type: "TraversalBounds" }])}): Paginator<${item}>`,
        doc: { description: docLines(traversalDoc(m.call, op.pagination)) },
        statement: `return this.core.paginate<${item}>(${descriptor}, input, bounds);`,
      });
    }
  }

  const members: Member[] = [
    { doc: { description: "The runtime behind every method: transport, retries, journal." }, signature: "readonly core: ContractClient" },
    { doc: { description: "" }, signature: `constructor(${params([{ name: "options", type: "ClientOptions", initializer: "{}" }])})`, statement: "this.core = new ContractClient(CONTRACT, options);" },
    ...methods,
    { doc: { description: "Release the journal file, if this client opened one." }, signature: "close(): void", statement: "this.core.close();" },
  ];
  const classDoc = printDoc({ description: docLines(`Client of the ${model.title} platform (contract ${model.name} ${model.version}).`, model.description) }, "");
  const body = `${classDoc}\nexport class ${className} {\n${members.map(printMember).join("\n\n")}\n}`;
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
