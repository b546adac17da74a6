import { readdirSync, readFileSync } from "node:fs";
import type { ContractModel } from "../model/types.js";
import { packagePath } from "../package-root.js";
import { commandData, commandSpecs, emitCliMain, emitCommands } from "./cli/commands.js";
import { emitHandlersIndex, emitHandlerStub, emitHandlerTypes, emitHostContract, emitSkeletonServer, handlerFile } from "./mcp/skeleton.js";
import { emitMcpMain, emitMcpServer, emitTools, toolData, toolSpecs, toolsetSpecs } from "./mcp/tools.js";
import { emitPackageFiles, GITIGNORE_FILE } from "./package/package.js";
import { emitHttpServer, emitHttpServerMain } from "./server/server.js";
import { emitClient } from "./sdk/client.js";
import { clientClassName } from "../model/naming.js";
import { emitContractInfo, emitErrorTypes } from "./sdk/errors.js";
import { emitOperationData, emitOperations } from "./sdk/operations.js";
import { startTypeWorkersEarly } from "./sdk/type-declarations.js";
import { declaredExports, moduleExports } from "./sdk/exported-names.js";
import { emitTypes } from "./sdk/types.js";
import { jsonLines } from "./shared/json-lines.js";
import { DefPool } from "./shared/def-pool.js";
import { FIXTURE_FILE, emitContractTests, emitFixtureTemplate, emitTestAdapters, emitTestConfig, emitTestContract } from "./tests/suite.js";
import { emitSchemaData } from "./sdk/schemas.js";
import { emitSkill } from "./skill/skill.js";
import { escapeInvisible, generatedHeader } from "./shared/literals.js";

/** Generated files: relative path → content. Pure function of the model (and contractgen's own files). */
export type FileTree = ReadonlyMap<string, string>;

/** How the generated MCP server handles calls: through the SDK (adapter) or handlers the team writes (skeleton). */
export type McpMode = "adapter" | "skeleton";

/** Whether an HTTP server for the contract's own API is generated (skeleton: handlers you fill in, shared with the MCP skeleton). */
export type ServerMode = "none" | "skeleton";

export interface EmitOptions {
  /** Ignored as "adapter" when `server` is "skeleton": the HTTP server and the MCP server run the same handlers. */
  readonly mcp?: McpMode;
  readonly server?: ServerMode;
  /** Whether the Agent Skill (`skill/<name>/`) is generated; default true (`--no-skill`: false). */
  readonly skill?: boolean;
  /**
   * Told as each artefact starts ("emit sdk", "emit cli", "emit mcp", "emit tests", "emit skill", "emit package":
   * artefacts done / total) and once more when all are done. Emitters never print; the CLI shows it.
   */
  readonly onProgress?: (phase: string, done: number, total: number) => void;
}

/** Contract files from this size on usually have enough declarations to compile their types in workers. */
const LARGE_CONTRACT_BYTES = 256 * 1024;

/**
 * Called before a contract file of `bytes` is parsed: starts now what emitting a large one will need
 * (the type workers), so it loads on the core the parse leaves idle. Costs nothing on small files.
 */
export function prepareToEmit(bytes: number): void {
  if (bytes >= LARGE_CONTRACT_BYTES) startTypeWorkersEarly();
}

/**
 * Hand-written runtime sources copied into the output: `src/<from>/*.ts` → `<to>/*.ts`. Imports of
 * the SDK runtime (and of the MCP runtime, `mcpRuntime`) are re-pointed at their place in the
 * generated package.
 */
function copiedRuntime(from: string, to: string, sdkRuntime: string, mcpRuntime?: string): Array<[string, string]> {
  const dir = packagePath("src", from);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") || f.endsWith(".mjs")) // .mjs: plain scripts run by a bare node (tests-runtime/retry-child.mjs)
    .sort()
    .map((f) => {
      let text = readFileSync(`${dir}/${f}`, "utf8").replaceAll('from "../runtime/', `from "${sdkRuntime}`);
      if (mcpRuntime !== undefined) text = text.replaceAll('from "../mcp-runtime/', `from "${mcpRuntime}`);
      return [`${to}/${f}`, text];
    });
}

/** The files a platform team fills in (skeleton mode): created when absent, never replaced or compared. */
export function writeOnceFiles(model: ContractModel, options: EmitOptions = {}): Set<string> {
  return new Set([FIXTURE_FILE, GITIGNORE_FILE, ...(mcpModeOf(options) === "skeleton" ? model.operations.map(handlerFile) : [])]);
}

/** The MCP server's mode: a server skeleton implies the MCP skeleton (both run the handlers in mcp/handlers/). */
export function mcpModeOf(options: EmitOptions): McpMode {
  return options.server === "skeleton" ? "skeleton" : (options.mcp ?? "adapter");
}

function mcpFiles(model: ContractModel, mode: McpMode): Array<[string, string]> {
  const common: Array<[string, string]> = [
    ["mcp/main.ts", emitMcpMain(model, mode)],
    ["mcp/tools.ts", emitTools(model)],
    ...copiedRuntime("mcp-runtime", "mcp/runtime", "../../sdk/runtime/"),
    // Code mode's engine, checker and docs: beside the MCP runtime, which loads them only in code mode.
    ...copiedRuntime("code-runtime", "mcp/code-runtime", "../../sdk/runtime/"),
  ];
  if (mode === "adapter") return [...common, ["mcp/server.ts", emitMcpServer(model)]];
  return [
    ...common,
    ["mcp/server.ts", emitSkeletonServer(model)],
    ["mcp/contract.ts", emitHostContract(model)],
    ["mcp/handler-types.ts", emitHandlerTypes(model)],
    ["mcp/handlers.ts", emitHandlersIndex(model)],
    ...model.operations.map((op): [string, string] => [handlerFile(op), emitHandlerStub(model, op)]),
    ...copiedRuntime("host-runtime", "mcp/host", "../../sdk/runtime/", "../runtime/"),
  ];
}

/**
 * `sdk/index.ts`. The contract's types and the runtime are both re-exported whole; a contract type
 * named like a runtime export is named here as well, so the contract's is the one exported (the
 * runtime's stays importable from ./runtime/index.js) instead of the two making tsc refuse the file.
 */
function emitIndex(model: ContractModel, typesText: string, runtime: ReadonlyArray<[string, string]>): string {
  const named = `export { ${clientClassName(model)} } from "./client.js";
export { CONTRACT, TAXONOMY, type ErrorCode } from "./contract.js";
export { type AnyContractError, type ContractErrorOf, type ErrorDetailsByCode, isContractError } from "./errors.js";
`;
  // Names exported explicitly above already win over both star exports.
  const own = declaredExports(named);
  const runtimeNames = moduleExports(new Map(runtime.map(([path, text]) => [path.slice(path.lastIndexOf("/") + 1), text])), "index.ts");
  const shadowed = [...declaredExports(typesText)].filter((name) => runtimeNames.has(name) && !own.has(name)).sort();
  return `${generatedHeader(model.name, model.version)}${named}export type * from "./types.js";
${shadowed.length > 0 ? `// Contract types named like runtime exports: the contract's are exported here.\nexport type { ${shadowed.join(", ")} } from "./types.js";\n` : ""}export * from "./runtime/index.js";
`;
}

/**
 * `sdk/contract.json`: the catalogue data the MCP server and the CLI read at start (what each tool
 * and command shows, toolsets), once per package; what an operation promises (preview, key, paging,
 * task, projection) is the operation table's, and the runtimes join the two. JSON rather than
 * TypeScript literals, so that tsc infers no types over it; a tool, toolset or command a line, with
 * invisible characters escaped as in every generated file. Schemas name their `$defs` entries by index in `schemaDefs`
 * (shared/def-pool.ts); runtime/data.ts links them back.
 */
function emitContractData(model: ContractModel): string {
  // Tools repeat the shared types their schemas reach: each `$defs` entry is stored once, in `schemaDefs`.
  const pool = new DefPool();
  const tools = toolSpecs(model).map(({ spec }) => ({ ...toolData(spec), inputSchema: pool.pooled(spec.inputSchema), outputSchema: pool.pooled(spec.outputSchema) }));
  const data = { tools, toolsets: toolsetSpecs(model), commands: commandSpecs(model).map(commandData), schemaDefs: pool.entries() };
  return `${escapeInvisible(jsonLines(data, 2))}\n`;
}

/** Emit the whole generated package for one contract. */
export async function emitPackage(model: ContractModel, options: EmitOptions = {}): Promise<FileTree> {
  const mode = mcpModeOf(options);
  const server = options.server ?? "none";
  // Types take longest and, on a large contract, compile in worker threads: start them first and
  // collect them last, so the other artefacts are emitted meanwhile.
  // Preparing the declarations runs here, before the first artefact: a phase of its own in progress.
  options.onProgress?.("prepare types", 0, 1);
  const types = emitTypes(model);
  types.catch(() => undefined); // Awaited below; an emitter failing first must not leave it unhandled.
  // One group per artefact, run in this order, so progress (and the benchmark) can tell them apart.
  const artefacts: Array<[string, () => Promise<Array<[string, string]>> | Array<[string, string]>]> = [
    ["sdk", async () => {
      return [
        ["sdk/client.ts", emitClient(model)],
        ["sdk/contract.json", emitContractData(model)],
        ["sdk/contract.ts", emitContractInfo(model)],
        ["sdk/errors.ts", await emitErrorTypes(model)],
        ["sdk/operations.json", emitOperationData(model)],
        ["sdk/operations.ts", emitOperations(model)],
        ["sdk/schemas.json", emitSchemaData(model)],
        ...sdkRuntime,
      ];
    }],
    ["cli", () => [
      ["cli/main.ts", emitCliMain(model)],
      ["cli/commands.ts", emitCommands(model)],
      ...copiedRuntime("cli-runtime", "cli/runtime", "../../sdk/runtime/"),
    ]],
    ["mcp", () => mcpFiles(model, mode)],
    ["server", () => (server === "skeleton" ? [["server/main.ts", emitHttpServerMain(model)], ["server/server.ts", emitHttpServer(model)]] : [])],
    ["tests", () => [
      ...emitTestContract(model),
      ["tests/adapters.ts", emitTestAdapters(model, mode)],
      ["tests/contract.test.ts", emitContractTests(model)],
      ["tests/vitest.config.ts", emitTestConfig(model)],
      [FIXTURE_FILE, emitFixtureTemplate(model)],
      ...copiedRuntime("tests-runtime", "tests/runtime", "../../sdk/runtime/"),
    ]],
    ["skill", () => (options.skill === false ? [] : [...emitSkill(model)])],
    ["package", () => Object.entries(emitPackageFiles(model, mode, server, options.skill !== false))],
  ];
  const files: Array<[string, string]> = [];
  const sdkRuntime = copiedRuntime("runtime", "sdk/runtime", "../runtime/");
  for (const [i, [name, emit]] of artefacts.entries()) {
    options.onProgress?.(`emit ${name}`, i, artefacts.length);
    files.push(...(await emit()));
  }
  options.onProgress?.("emit types", artefacts.length, artefacts.length);
  const typesText = await types;
  files.push(["sdk/types.ts", typesText], ["sdk/index.ts", emitIndex(model, typesText, sdkRuntime)]);
  options.onProgress?.("emit", artefacts.length, artefacts.length);
  return new Map(files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
