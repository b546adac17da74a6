/**
 * Skeleton mode of the generated MCP server (`generate --mcp skeleton`): instead of calling the
 * platform through the SDK, the server runs handlers the platform team writes, inside the contract
 * host (src/host-runtime/, copied as mcp/host/), which enforces the contract's behaviour around them.
 *
 * Files: one handler stub per operation (`mcp/handlers/<operation>.ts`, written once and then the
 * team's: regeneration never replaces it and --check never compares it), and regenerated around
 * them the handler types (`mcp/handler-types.ts`, typed from sdk/types.ts), the index wiring them
 * (`mcp/handlers.ts`), the host's view of the contract (`mcp/contract.ts`, read from the SDK) and the server.
 */
import type { ContractModel, OperationModel } from "../../model/types.js";
import { handlerFile, mcpDatabaseEnv, mcpName, safeIdentifier } from "../../model/naming.js";
import { commentText, generatedHeader, lineCommentText, literal } from "../shared/literals.js";
import { codeSource, operationGuide, serverInstructions } from "./tools.js";

/** The handler file of an operation (`mcp/handlers/<kebab-name>.ts`): named in src/model/naming.ts, since the operation table carries it too. */
export { handlerFile };

/** The write-once files of skeleton mode (what the team fills in). */
export function handlerFiles(model: ContractModel): string[] {
  return model.operations.map(handlerFile);
}

function handlerType(op: OperationModel): string {
  return `${op.names.pascal}Handler`;
}

/** `mcp/contract.ts`: the host contract, read from the SDK (its contract facts, operation table and stored schemas). */
export function emitHostContract(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import { CONTRACT as SDK_CONTRACT } from "../sdk/contract.js";
import { type HostContract, loadHostContract } from "./host/contract.js";

/**
 * What the contract host enforces around the handlers: the contract's operations, schemas and errors,
 * as the SDK holds them (sdk/contract.ts, sdk/operations.json, sdk/schemas.json).
 */
export const CONTRACT: HostContract = loadHostContract(SDK_CONTRACT, new URL("../sdk/", import.meta.url));
`;
}

/** The handler type of one operation, from the SDK's types: a function, or stages when the host needs them. */
function handlerDeclaration(model: ContractModel, op: OperationModel): string {
  const types = op.names.types;
  const input = `T.${types.input}`;
  // Any handler may await: a mutation's transaction (with the journal entry) stays open until it answers.
  const output = `T.${types.output} | Promise<T.${types.output}>`;
  const doc = `/** ${lineCommentText(op.names.id)}: ${lineCommentText(op.summary)} */`;
  const name = handlerType(op);
  if (!op.preview && op.preconditions.length === 0) return `${doc}\nexport type ${name} = (input: ${input}, ctx: HandlerContext) => ${output};`;
  const members: string[] = [];
  if (op.preview) {
    const preview = types.preview ? `Omit<T.${types.preview}, ${literal(op.preview.confirmTokenField)}>` : "object";
    members.push(`  /** The dry run: the expected effect, changing nothing (the host adds ${commentText(op.preview.confirmTokenField)} and stores the token). */`);
    members.push(`  preview(input: ${input}, ctx: HandlerContext, confirmation: Confirmation): ${preview} | Promise<${preview}>;`);
  }
  if (op.preconditions.length > 0) {
    const compared = op.preconditions.map((p) => `${p.field} ↔ ${p.compares}`).join(", ");
    members.push(`  /** The record the preconditions are checked against (${commentText(compared)}), by the host, before preview and execute. */`);
    members.push(`  target(input: ${input}, ctx: HandlerContext): Target | Promise<Target>;`);
    members.push(`  /** True when the input would change nothing on the target: preconditions are then skipped, so a retry succeeds. */`);
    members.push(`  unchanged?(input: ${input}, target: Target): boolean;`);
    members.push(`  execute(input: ${input}, ctx: HandlerContext, target: Target): ${output};`);
  } else {
    members.push(`  execute(input: ${input}, ctx: HandlerContext): ${output};`);
  }
  const generic = op.preconditions.length > 0 ? "<Target extends object = object>" : "";
  return `${doc}\nexport interface ${name}${generic} {\n${members.join("\n")}\n}`;
}

/** `mcp/handler-types.ts`: what each handler receives and returns (regenerated with the contract). */
export function emitHandlerTypes(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import type * as T from "../sdk/types.js";
import type { Confirmation, HandlerContext } from "./host/contract-host.js";

export type { Confirmation, HandlerContext };

${model.operations.map((op) => handlerDeclaration(model, op)).join("\n\n")}
`;
}

/** What the host does around every handler of this operation, so the handler does not do it again. */
function hostDuties(op: OperationModel): string[] {
  const duties = ["input validated against the contract before this runs", "output checked against the contract (and projected) after"];
  if (op.idempotency && op.effects.idempotent === "key") duties.push(`${op.idempotency.keyField}: a retry with the same key returns the recorded outcome without calling this again; other parameters under the key are refused`);
  if (op.preview) duties.push(`${op.preview.confirmTokenField}: issued after preview(), bound to the parameters, checked and spent before execute()`);
  for (const p of op.preconditions) duties.push(`${p.field} compared with target().${p.compares}; a mismatch is ${p.error} and execute() is not called`);
  if (op.pagination) duties.push(`${op.pagination.limitField} bounded to ${op.pagination.limitMax}; the page is returned as this handler builds it (cursor, items, total)`);
  if (op.effects.kind === "mutating") duties.push("runs in one transaction with the host's records (journal entry, spent token), reached as ctx.db (SQLite) or ctx.sql (PostgreSQL): a throw rolls everything back; may be async");
  return duties;
}

/** One operation's handler stub: written once, then the platform team's file. */
export function emitHandlerStub(model: ContractModel, op: OperationModel): string {
  const todo = (what: string) => `    // TODO: ${what}\n    throw new NotImplementedError(ctx.operation.names.id);`;
  const body = (() => {
    if (!op.preview && op.preconditions.length === 0) {
      return `(input, ctx) => {\n  // TODO: ${op.effects.kind === "read" ? "read" : "perform"} ${lineCommentText(op.names.id)} and return its output.\n  throw new NotImplementedError(ctx.operation.names.id);\n}`;
    }
    const stages: string[] = [];
    if (op.preview) stages.push(`  preview(input, ctx, confirmation) {\n${todo("return the expected effect without changing anything.")}\n  },`);
    if (op.preconditions.length > 0) {
      const errors = op.errors.map((e) => e.code).filter((c) => model.errors.some((e) => e.code === c && e.class === "not_found"));
      stages.push(`  target(input, ctx) {\n${todo(`read the record the preconditions compare with${errors.length > 0 ? `; throw ${lineCommentText(errors.join(" or "))} (PlatformError) when it is missing` : ""}.`)}\n  },`);
      stages.push(`  execute(input, ctx, target) {\n${todo("perform the change and return its output.")}\n  },`);
    } else {
      stages.push(`  execute(input, ctx) {\n${todo("perform the change and return its output.")}\n  },`);
    }
    return `{\n${stages.join("\n")}\n}`;
  })();
  const doc = [
    commentText(op.names.id),
    "",
    ...commentText(operationGuide(model, op)).split("\n"),
    "",
    "The host does this around the handler (do not do it again here):",
    ...hostDuties(op).map((d) => `- ${commentText(d)}`),
    "",
    "Fail with `new PlatformError(code, message, { field, details })` using a code the operation lists.",
  ];
  return `// The ${lineCommentText(op.names.id)} handler of the ${lineCommentText(model.name)} MCP server: yours to fill in.
// contractgen wrote this file once and never replaces it; ../handler-types.ts is regenerated with the contract.
import { NotImplementedError, PlatformError } from "../host/errors.js";
import type { ${handlerType(op)} } from "../handler-types.js";

/**
${doc.map((l) => (l === "" ? " *" : ` * ${l}`)).join("\n")}
 */
export const handler: ${handlerType(op)} = ${body};
`;
}

/** `mcp/handlers.ts`: every operation's handler by operation id (a Map: ids never become object keys). */
export function emitHandlersIndex(model: ContractModel): string {
  const imports = model.operations.map((op) => `import { handler as ${safeIdentifier(op.names.id)} } from ${literal(`./${handlerFile(op).slice("mcp/".length).replace(/\.ts$/, ".js")}`)};`);
  // One call per handler, not one Map literal: each handler has a type of its own, and a literal of
  // a thousand of them is a union tsc refuses (TS2590, "too complex to represent"). The map's name is
  // upper case: no handler's (camel case) name can take it.
  const entries = model.operations.map((op) => `REGISTERED.set(${literal(op.names.id)}, ${safeIdentifier(op.names.id)});`);
  return `${generatedHeader(model.name, model.version)}import type { OperationHandler } from "./host/contract-host.js";
${imports.join("\n")}

const REGISTERED = new Map<string, OperationHandler>();
${entries.join("\n")}

/** The handlers the host runs, by operation id: the files in handlers/ are yours, this list is regenerated. */
export const HANDLERS: ReadonlyMap<string, OperationHandler> = REGISTERED;
`;
}

/** `mcp/server.ts` in skeleton mode: the tools served by the contract host running the handlers. */
export function emitSkeletonServer(model: ContractModel): string {
  const env = mcpDatabaseEnv(model.name);
  return `${generatedHeader(model.name, model.version)}import { fileURLToPath } from "node:url";
import { hostClient, type HostedOptions } from "./host/mcp.js";
import { CONTRACT } from "./contract.js";
import { HANDLERS } from "./handlers.js";
import { createMcpServer, type McpDefinition, type ServeOptions } from "./runtime/server.js";
import { TOOLS, TOOLSETS } from "./tools.js";

/**
 * The server definition (skeleton mode): every tool call runs the handler in handlers/ through the
 * contract host, which keeps its journal and confirm tokens in the SQLite file named by
 * ${env} (in memory when unset) unless options give a database.
 */
export function mcpDefinition(options: HostedOptions = {}): McpDefinition {
  return {
    name: ${literal(mcpName(model))},
    version: ${literal(model.version)},
    instructions: ${literal(serverInstructions(model))},
    tools: TOOLS,
    toolsets: TOOLSETS,
    catalogueBudget: ${model.budget.catalogTokens === null ? "null" : String(model.budget.catalogTokens)},
    createClient: () => hostClient(CONTRACT, HANDLERS, TOOLS, { database: process.env[${literal(env)}] || ":memory:", ...options }),
    code: ${codeSource(model)},
  };
}

/** A low-level MCP server for the contract, not yet connected to a transport. */
export function createServer(options: HostedOptions = {}, serve: ServeOptions = {}) {
  return createMcpServer(mcpDefinition(options), serve);
}
`;
}
