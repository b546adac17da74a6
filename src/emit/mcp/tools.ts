/**
 * The generated MCP server's tools: one descriptor per exposed operation. What `tools/list` serves
 * (name, title, description, schemas, annotations) is computed here once, and the catalogue budget
 * (src/budget/catalog.ts) counts exactly these entries, so the estimate is what a client loads.
 */
import { inputWithFilterWords } from "../../model/filter-words.js";
import { servedAnnotations, toolFacts } from "../../mcp-runtime/catalogue.js";
import type { ToolData, ToolSpec, ToolsetSpec } from "../../mcp-runtime/server.js";
import { operationRecordTable } from "../sdk/operations.js";
import { authEnvVars, type ContractModel, type ErrorModel, type JsonSchema, type OperationModel, type RecoveryAction } from "../../model/types.js";
import { baseUrlEnvOf, clientClassName, clientMethodNames, journalEnv, mcpBearerEnv, mcpName, resolveLocal } from "../../model/naming.js";
import { defineOwn, isSchemaObject, type SchemaObject } from "../../contract/schema-walk.js";
import { boundedDefinitions, DefinitionInliner, draft07Tolerant, mergedChoice, modelFacing, validationOnly, withoutRedundantTypes } from "./compact.js";
import { commentText, generatedHeader, literal, literalBlock, plainText } from "../shared/literals.js";
import { codeExample } from "../code/examples.js";

type JsonObject = { readonly [key: string]: unknown };

/** A `tools/list` entry, in the order the server serialises its keys. */
export interface ServedTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  /** The hints that differ from what a client assumes (servedAnnotations); absent when none does. */
  readonly annotations?: Partial<OperationModel["annotations"]>;
}

/** What each recovery action means for the caller's next step (short: every tool's description pays for it). */
const NEXT_STEP: Record<RecoveryAction, string> = {
  fix_field: "fix the named field",
  verify_identifier: "check the identifier",
  reread_and_replan: "re-read, then decide again",
  reconcile: "read the target before acting again",
  stop_and_surface: "stop and tell the user",
  // The model cannot renew the server's credential: for it, the next step is the same as stop_and_surface.
  reauthenticate: "stop and tell the user",
  retry_after: "wait, then retry",
  retry_same_key: "retry with the same arguments",
};

function oneLine(text: string): string {
  return plainText(text).replace(/\s+/g, " ").trim();
}

/** Does the schema describe JSON objects only (its root, or the local definition it refers to)? */
function objectRooted(schema: JsonSchema): boolean {
  const resolved = resolveLocal(schema, schema);
  return resolved !== undefined && resolved.type === "object";
}

/**
 * A contract schema as MCP serves it: unchanged, except that MCP requires `type: "object"` at the
 * root, which a schema that is a reference to an object type gets written beside its `$ref` (same
 * meaning). null when the values are not objects (MCP's structured results are objects).
 */
export function servedSchema(schema: JsonSchema): JsonObject | null {
  if (!isSchemaObject(schema) || !objectRooted(schema)) return null;
  const rooted = schema.type === "object" ? schema : { type: "object", ...schema };
  const properties = rooted.properties;
  if (!isSchemaObject(properties) || !Object.values(properties).some((p) => typeof p === "boolean")) return rooted;
  // MCP clients require each top-level property schema to be an object: `true` is written `{}` and
  // `false` `{"not": {}}` (same meaning). fromEntries defines own properties (a `__proto__` name stays data).
  const rewritten = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, v === true ? {} : v === false ? { not: {} } : v]));
  return { ...rooted, properties: rewritten };
}

/**
 * The output schema of a tool, before compaction. An operation with a preview answers either the preview
 * or the result, so its schema is the choice of the two contract schemas: sharing their definitions when
 * those agree, else each kept whole under its own `$id` (its local `#/$defs/…` references then resolve
 * inside it).
 */
export function servedOutputSchema(model: ContractModel, op: OperationModel): JsonObject | null {
  const output = servedSchema(op.output.schema);
  if (!op.preview) return output;
  const preview = op.preview.output ? servedSchema(op.preview.output.schema) : null;
  if (!output || !preview) return null;
  const shared = mergedChoice(output, preview);
  if (shared) return shared;
  const id = (part: string) => `urn:contractgen:${encodeURIComponent(model.name)}:${encodeURIComponent(model.version)}:${encodeURIComponent(op.names.id)}:${part}`;
  return { type: "object", anyOf: [{ $id: id("result"), ...output }, { $id: id("preview"), ...preview }] };
}

/** Input properties' units and defaults, in words (`amount` in cents; `limit` defaults to 40). */
function unitsAndDefaults(op: OperationModel): string {
  const root = op.input.schema;
  const input = resolveLocal(root, root);
  const properties = isSchemaObject(input?.properties) ? input!.properties : {};
  const notes: string[] = [];
  for (const [field, raw] of Object.entries(properties)) {
    const schema = resolveLocal(raw, root);
    if (!schema) continue;
    if (typeof schema["x-unit"] === "string") notes.push(`${field} in ${schema["x-unit"]}`);
    if ("default" in schema) notes.push(`${field} defaults to ${JSON.stringify(schema.default)}`);
  }
  return notes.length > 0 ? `${notes.join("; ")}.` : "";
}

function behaviour(model: ContractModel, op: OperationModel): string[] {
  const lines: string[] = [];
  if (op.preview) {
    const p = op.preview;
    lines.push(
      `Two steps: ${p.dryRunField}=true${p.defaultDryRun ? " (default)" : ""} previews, changing nothing, and returns ${p.confirmTokenField} (valid ${p.ttl}); then the same arguments with ${p.dryRunField}=false and that ${p.confirmTokenField} execute.`,
    );
  }
  if (op.idempotency && op.effects.idempotent === "key") {
    lines.push(`${op.idempotency.keyField}: after a lost answer, repeat the call with the same ${op.idempotency.keyField} to get the first outcome, not a second effect.`);
    // Optional on the wire (idempotency.keyRequired false): the host executes a key-less call anew each time.
    if (op.idempotency.keyRequired === false) lines.push(`${op.idempotency.keyField} is optional: a call without it executes anew each time, with nothing to replay it by.`);
  }
  const target = op.target?.kind === "read" ? op.target.operation : null;
  const reader = target === null ? null : (model.operations.find((o) => o.names.id === target)?.names.tool ?? target);
  for (const pre of op.preconditions) {
    const readWith = reader ? ` (read it with ${reader})` : "";
    lines.push(`${pre.field} must equal the current ${pre.compares}${readWith}, else ${pre.error}, nothing changed.`);
  }
  if (op.pagination) {
    const g = op.pagination;
    if (g.style === "cursor") lines.push(`One page per call: unless ${g.nextCursorField} is null, call again with ${g.cursorField}=${g.nextCursorField}; the result states whether the answer is complete.`);
    else if (g.style === "next-link") {
      const arg = continuationArgument(op);
      lines.push(
        arg !== null
          ? `One page per call: while the result's completeness has a continuation, call again with the same arguments and ${arg} = that continuation; the result states whether the answer is complete.`
          : "One page per call (the first): further pages are reached by a next link this tool does not follow; the result states whether the answer is complete.",
      );
    }
    else lines.push(`One page per call: a page with fewer items than asked for is the last; otherwise call again with ${g.style === "page" ? `${g.pageField} + 1` : `${g.offsetField} + the items received`}; the result states whether the answer is complete.`);
  }
  if (op.task) {
    const t = op.task;
    lines.push(`Incomplete while ${t.completeField} is false${t.continuationField ? `: call again with ${t.continuationField}` : ""}.`);
  }
  if (op.effects.kind === "mutating" && !op.effects.reversible) lines.push("Irreversible.");
  if (op.deprecated) lines.push(`Deprecated since ${op.deprecated.since}${op.deprecated.replacement ? `; use ${op.deprecated.replacement}` : ""}.`);
  return lines;
}

/** What each error code means for the next step, codes with the same next step together. */
function errorGuide(model: ContractModel, op: OperationModel): string {
  const byCode = new Map<string, ErrorModel>(model.errors.map((e) => [e.code, e]));
  const groups = new Map<string, string[]>();
  for (const ref of op.errors) {
    const e = byCode.get(ref.code);
    const step = e ? NEXT_STEP[e.action] : "see the error's message";
    groups.set(step, [...(groups.get(step) ?? []), ref.code]);
  }
  return groups.size > 0 ? `Errors: ${[...groups].map(([step, codes]) => `${codes.join(", ")} → ${step}`).join("; ")}.` : "";
}

/**
 * The description a model reads to choose a tool: what it does (the contract's description, else its
 * summary, as a plain generator serves it) and the effects annotations cannot say. Nothing else costs
 * every request its tokens: what a field needs (its unit, the value a precondition compares, a
 * preview's token) is said in that field's description (modelFacingInput); how to recover is in each
 * failure's result (class, action, next step), and how to continue in each page's or preview's result.
 */
export function toolDescription(model: ContractModel, op: OperationModel): string {
  const what = oneLine(op.description) || oneLine(op.summary);
  const effects: string[] = [];
  if (op.effects.kind === "mutating" && !op.effects.reversible) effects.push("Irreversible.");
  if (op.deprecated) effects.push(`Deprecated since ${oneLine(op.deprecated.since)}${op.deprecated.replacement ? `; use ${oneLine(op.deprecated.replacement)}` : ""}.`);
  return [what, ...effects].filter(Boolean).join(" ");
}

/**
 * The whole guide to one operation, for whoever implements it (the skeleton's handler comments): the
 * summary, the description, units and defaults, the steps and preconditions, and what each error means
 * for the caller's next step.
 */
export function operationGuide(model: ContractModel, op: OperationModel): string {
  return [oneLine(op.summary), oneLine(op.description), unitsAndDefaults(op), ...behaviour(model, op).map(oneLine), errorGuide(model, op)].filter(Boolean).join("\n\n");
}

/** The tool that reads the record an operation's preconditions compare with (null when none is declared). */
function targetReader(model: ContractModel, op: OperationModel): string | null {
  const target = op.target?.kind === "read" ? op.target.operation : null;
  return target === null ? null : (model.operations.find((o) => o.names.id === target)?.names.tool ?? target);
}

/**
 * The served input schema with what the behaviour fields need said where the model fills them in:
 * a precondition field names the value it must equal and the tool that reads it, and the preview's
 * fields say the two steps, each only where the contract's own description does not already.
 */
function withFieldGuidance(model: ContractModel, op: OperationModel, schema: JsonObject): JsonObject {
  const properties = schema.properties;
  if (!isSchemaObject(properties)) return schema;
  const notes = new Map<string, string>();
  const reader = targetReader(model, op);
  for (const pre of op.preconditions) {
    notes.set(pre.field, `Must equal the current ${pre.compares}${reader ? ` (read it with ${reader})` : ""}, else ${pre.error} and nothing changes.`);
  }
  if (op.preview) {
    const p = op.preview;
    notes.set(p.dryRunField, `true: preview only, changing nothing; the result carries ${p.confirmTokenField} (valid ${p.ttl}).`);
    notes.set(p.confirmTokenField, `From a preview of the same arguments; required with ${p.dryRunField}=false to execute.`);
  }
  // A key the platform does not require (idempotency.keyRequired false): say what it is for.
  if (op.idempotency && op.effects.idempotent === "key" && op.idempotency.keyRequired === false) {
    notes.set(op.idempotency.keyField, "Repeat a call whose answer was lost with the same value: the first outcome, no second effect.");
  }
  let revised: SchemaObject | null = null;
  for (const [field, note] of notes) {
    const property = Object.hasOwn(properties, field) ? properties[field] : undefined;
    if (!isSchemaObject(property)) continue;
    const said = typeof property.description === "string" ? property.description : "";
    // The contract's words stand when they already name what the note would (the reader tool, the token).
    const known = op.preconditions.some((pre) => pre.field === field) ? (reader === null || said.includes(reader)) && said !== "" : said !== "";
    if (known) continue;
    revised ??= { ...properties };
    defineOwn(revised, field, { ...property, description: said === "" ? note : `${said} ${note}` });
  }
  return revised === null ? schema : { ...schema, properties: revised };
}

/**
 * The input schema without `additionalProperties: false` at its root: a model sends the arguments a
 * schema lists, and one it invents is refused by the server's validator (the contract's schema, with
 * the field named, nothing sent), so the keyword buys the model nothing for its tokens on every tool.
 */
function openRoot(schema: JsonObject): JsonObject {
  if (schema.additionalProperties !== false || !isSchemaObject(schema.properties)) return schema;
  const { additionalProperties: _closed, ...rest } = schema;
  return rest;
}

/**
 * A served schema's root keys in the order an MCP client re-serialises them (its schema for tools
 * lists `type`, `properties` and `required` first): what the budget counts is byte for byte what a
 * client holds.
 */
function clientOrder(schema: JsonObject): JsonObject {
  const out: SchemaObject = {};
  for (const key of ["type", "properties", "required"]) if (Object.hasOwn(schema, key)) defineOwn(out, key, schema[key]);
  for (const [key, value] of Object.entries(schema)) if (!Object.hasOwn(out, key)) defineOwn(out, key, value);
  return out;
}

/** Largest output schema served, in characters of JSON (about 4,000 tokens): see boundedDefinitions. */
export const MAX_OUTPUT_SCHEMA_CHARS = 16_000;

/** servedTools per model: the package files, the contract data and the budget all read them; computing them once matters at a thousand operations. */
const servedByModel = new WeakMap<ContractModel, ReadonlyArray<{ op: OperationModel; tool: ServedTool }>>();

/** The `tools/list` entries of the generated server, one per exposed operation (computed once per model). */
export function servedTools(model: ContractModel): ReadonlyArray<{ op: OperationModel; tool: ServedTool }> {
  let served = servedByModel.get(model);
  if (served === undefined) {
    served = computeServedTools(model);
    servedByModel.set(model, served);
  }
  return served;
}

function computeServedTools(model: ContractModel): Array<{ op: OperationModel; tool: ServedTool }> {
  const inliner = new DefinitionInliner();
  const stripped = new WeakMap<object, unknown>();
  return model.operations
    .filter((op) => op.mcp.exposed)
    .map((op) => {
      // Served compactly: definitions in place where shorter; the output schema without the sentences
      // the description or the input schema already say (clients validate results exactly as before).
      const input = clientOrder(openRoot(modelFacing(inliner.inline(withFieldGuidance(model, op, withContinuationArgument(servedSchema(inputWithFilterWords(op)) ?? { type: "object" }, continuationArgument(op)))))));
      const description = toolDescription(model, op);
      const rawOutput = servedOutputSchema(model, op);
      // For validation only (annotations are for the model, which reads the input side); bounded, so a
      // web of shared types cannot balloon one tool; in a form the official clients' draft-07 validator
      // reads as 2020-12 does (compact.ts).
      const bounded = rawOutput ? boundedDefinitions(validationOnly(rawOutput, stripped), MAX_OUTPUT_SCHEMA_CHARS) : null;
      const output = bounded ? clientOrder(withoutRedundantTypes(draft07Tolerant(inliner.inline(bounded)))) : null;
      const annotations = servedAnnotations(op.annotations);
      return {
        op,
        tool: {
          name: op.names.tool,
          ...(op.mcp.title ? { title: op.mcp.title } : {}),
          description,
          inputSchema: input,
          ...(output ? { outputSchema: output } : {}),
          ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
        },
      };
    });
}

/** The data of every tool descriptor (what `mcp/tools.ts` writes, less the validators, which are code). */
export function toolSpecs(model: ContractModel): Array<{ op: OperationModel; spec: Omit<ToolSpec, "validateInput"> }> {
  const methods = clientMethodNames(model);
  const records = operationRecordTable(model);
  return servedTools(model).map(({ op, tool }) => {
    const m = methods.get(op.names.id)!;
    const spec: Omit<ToolSpec, "validateInput"> = {
      operation: op.names.id,
      name: tool.name,
      title: tool.title ?? null,
      summary: oneLine(op.summary),
      toolset: op.toolset,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema ?? null,
      annotations: { ...op.annotations },
      sdkMethod: m.call,
      previewMethod: m.preview,
      allMethod: m.all,
      codeExample: codeExample(op, m),
      // The operation's promises, read from its record as the served tool reads them.
      ...toolFacts(records.get(op.names.id)!, continuationArgument(op)),
    };
    return { op, spec };
  });
}

/** The toolsets of the contract, as `sdk/contract.json` holds them. */
export function toolsetSpecs(model: ContractModel): ToolsetSpec[] {
  return model.toolsets.map((t) => ({ name: t.name, description: oneLine(t.description) }));
}

/**
 * `mcp/tools.ts`: the descriptor of every tool and the declared toolsets. The descriptors are data
 * read from `sdk/contract.json` at start (tsc checks no literal of them); each gets its operation's
 * facts from the operation table (preview, key, paging, task) and its input validator, which is code.
 */
export function emitTools(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import { contractData, operationRecord, operationRecords } from "../sdk/runtime/data.js";
import { operationSpec } from "../sdk/operations.js";
import { type ToolData, toolFromData, type ToolSpec, type ToolsetSpec } from "./runtime/server.js";

const records = operationRecords();

/**
 * One tool per exposed operation of the contract (the data: \`tools\` in sdk/contract.json), each
 * with its operation's record (sdk/operations.json) and descriptor in the SDK (its input validator;
 * next links are read through it).
 */
export const TOOLS: readonly ToolSpec[] = (contractData("tools") as readonly ToolData[]).map((tool) =>
  toolFromData(tool, operationRecord(records, tool.operation), operationSpec(tool.operation)),
);

/** The contract's toolsets (what \`--toolsets\` accepts; the data: \`toolsets\` in sdk/contract.json). */
export const TOOLSETS: readonly ToolsetSpec[] = contractData("toolsets") as readonly ToolsetSpec[];
`;
}

/** A tool as sdk/contract.json stores it: its operation's facts are the operation table's (mcp-runtime toolFromData). */
export function toolData(spec: Omit<ToolSpec, "validateInput">): ToolData {
  const { dryRunField: _dry, confirmTokenField: _confirm, keyField: _key, defaultDryRun: _default, page, task: _task, descriptor: _descriptor, ...shown } = spec;
  const continuationArg = page !== null && "continuationArg" in page ? (page.continuationArg ?? null) : null;
  return continuationArg !== null ? { ...shown, continuationArg } : shown;
}

/** The server's `instructions` (the same in every mode; part of what `initialize` serves). */
export function serverInstructions(model: ContractModel): string {
  return `${oneLine(model.title)}: one tool per operation of contract ${oneLine(model.name)} ${oneLine(model.version)}. Results carry structuredContent, and as text the same data (JSON, or a compact form when the server is started with --text compact); list and task results state whether they are complete. Failures are isError results whose JSON names the code, class, recovery action and field.`;
}

/** `mcp/server.ts`: the server definition (adapter mode: the generated SDK handles every call). */
export function emitMcpServer(model: ContractModel): string {
  const auth = model.transport.auth;
  const instructions = serverInstructions(model);
  return `${generatedHeader(model.name, model.version)}import { ${clientClassName(model)} } from "../sdk/index.js";
import type { ClientOptions } from "../sdk/runtime/index.js";
import { fileURLToPath } from "node:url";
import { createMcpServer, type McpDefinition, type ServeOptions } from "./runtime/server.js";
import { TOOLS, TOOLSETS } from "./tools.js";

/**
 * The server definition. The SDK client reads the base URL and the credential${auth.schemes.length === 0 ? "" : ` (${commentText(authEnvVars(auth).join(", "))})`} from the
 * environment unless options give them; the credential never appears in a tool description or result.
 */
export function mcpDefinition(options: ClientOptions = {}): McpDefinition {
  return {
    name: ${literal(mcpName(model))},
    version: ${literal(model.version)},
    instructions: ${literal(instructions)},
    tools: TOOLS,
    toolsets: TOOLSETS,
    catalogueBudget: ${model.budget.catalogTokens === null ? "null" : String(model.budget.catalogTokens)},
    createClient: () => new ${clientClassName(model)}(options),
    code: ${codeSource(model)},
  };
}

/** A low-level MCP server for the contract, not yet connected to a transport. */
export function createServer(options: ClientOptions = {}, serve: ServeOptions = {}) {
  return createMcpServer(mcpDefinition(options), serve);
}
`;
}

/** The server definition's code mode: where the SDK's declarations are (beside the server, built or not), its client class, the platform's title. */
export function codeSource(model: ContractModel): string {
  return `{ sdkDir: fileURLToPath(new URL("../sdk/", import.meta.url)), clientClass: ${literal(clientClassName(model))}, title: ${literal(oneLine(model.title))} }`;
}

/** `mcp/main.ts`: the executable (stdio or Streamable HTTP; flags parsed by the runtime's bin). */
export function emitMcpMain(model: ContractModel, mode: "adapter" | "skeleton" = "adapter"): string {
  const auth = model.transport.auth;
  if (mode === "skeleton") {
    // The skeleton serves its own handlers: there is no platform to point at.
    const info = { bearerEnv: mcpBearerEnv(model.name), tokenEnv: auth.form === "none" ? null : (authEnvVars(auth)[0] ?? null), baseUrlEnv: model.transport.baseUrlEnv ?? null };
    return `#!/usr/bin/env node
${generatedHeader(model.name, model.version)}import { runMcpMain } from "./runtime/bin.js";
import { mcpDefinition } from "./server.js";

await runMcpMain(mcpDefinition(), ${literalBlock(info, 0)});
`;
  }
  const info = { bearerEnv: mcpBearerEnv(model.name), credentialEnv: authEnvVars(auth), baseUrlEnv: baseUrlEnvOf(model.name, model.transport.baseUrlEnv), journalEnv: journalEnv(model.name) };
  return `#!/usr/bin/env node
${generatedHeader(model.name, model.version)}import { runMcpMain } from "./runtime/bin.js";
import { mcpDefinition } from "./server.js";

await runMcpMain(mcpDefinition, ${literalBlock(info, 0)});
`;
}

/** Keywords at an input schema's root that could refuse one more property (then no continuation argument joins it). */
const CLOSED_ROOT = ["$ref", "allOf", "anyOf", "oneOf", "not", "if", "propertyNames", "maxProperties", "patternProperties", "dependentSchemas"];

/**
 * The argument in which a next-link tool takes the continuation of the previous page's result (the
 * next page's URL, which the server checks is on the platform's origin): `next_page`, or a name the
 * operation's input does not use. Null when the operation is not read by next links, or its input
 * schema is not a plain object schema the argument can join.
 */
export function continuationArgument(op: OperationModel): string | null {
  if (op.pagination?.style !== "next-link") return null;
  const input = servedSchema(op.input.schema);
  if (input === null || !isSchemaObject(input.properties) || CLOSED_ROOT.some((k) => k in input)) return null;
  const taken = new Set(Object.keys(input.properties));
  for (let i = 1; ; i++) {
    const name = i === 1 ? "next_page" : `next_page_${i}`;
    if (!taken.has(name)) return name;
  }
}

/** The served input schema with the continuation argument among its properties (never required). */
function withContinuationArgument(schema: JsonObject, arg: string | null): JsonObject {
  if (arg === null) return schema;
  const properties: SchemaObject = { ...(schema.properties as SchemaObject) };
  defineOwn(properties, arg, { type: "string", description: "The previous result's continuation, to read the next page (omit for the first)." });
  return { ...schema, properties };
}

