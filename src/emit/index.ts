import { readdirSync, readFileSync } from "node:fs";
import type { ContractModel } from "../model/types.js";
import { packagePath } from "../package-root.js";
import { emitCliMain, emitCommands } from "./cli/commands.js";
import { emitMcpMain, emitMcpServer, emitTools } from "./mcp/tools.js";
import { emitPackageFiles } from "./package/package.js";
import { clientClassName, emitClient } from "./sdk/client.js";
import { emitContractInfo, emitErrorTypes } from "./sdk/errors.js";
import { emitOperations } from "./sdk/operations.js";
import { emitTypes } from "./sdk/types.js";
import { emitValidators } from "./sdk/validators.js";
import { generatedHeader } from "./shared/literals.js";

/** Generated files: relative path → content. Pure function of the model (and contractgen's own files). */
export type FileTree = ReadonlyMap<string, string>;

/**
 * Hand-written runtime sources copied into the output: `src/<from>/*.ts` → `<to>/*.ts`. Imports of
 * the SDK runtime are re-pointed at its place in the generated package.
 */
function copiedRuntime(from: string, to: string, sdkRuntime: string): Array<[string, string]> {
  const dir = packagePath("src", from);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => [`${to}/${f}`, readFileSync(`${dir}/${f}`, "utf8").replaceAll('from "../runtime/', `from "${sdkRuntime}`)]);
}

function emitIndex(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}export { ${clientClassName(model)} } from "./client.js";
export { CONTRACT, TAXONOMY, type ErrorCode } from "./contract.js";
export { type AnyContractError, type ContractErrorOf, type ErrorDetailsByCode, isContractError } from "./errors.js";
export type * from "./types.js";
export * from "./runtime/index.js";
`;
}

/** Emit the whole generated package for one contract. */
export async function emitPackage(model: ContractModel): Promise<FileTree> {
  const validators = emitValidators(model);
  const files: Array<[string, string]> = [
    ...Object.entries(emitPackageFiles(model)),
    ["sdk/index.ts", emitIndex(model)],
    ["sdk/client.ts", emitClient(model)],
    ["sdk/contract.ts", emitContractInfo(model)],
    ["sdk/errors.ts", await emitErrorTypes(model)],
    ["sdk/operations.ts", emitOperations(model)],
    ["sdk/types.ts", await emitTypes(model)],
    ["sdk/validators.js", validators.js],
    ["sdk/validators.d.ts", validators.dts],
    ...copiedRuntime("runtime", "sdk/runtime", "../runtime/"),
    ["cli/main.ts", emitCliMain(model)],
    ["cli/commands.ts", emitCommands(model)],
    ...copiedRuntime("cli-runtime", "cli/runtime", "../../sdk/runtime/"),
    ["mcp/main.ts", emitMcpMain(model)],
    ["mcp/server.ts", emitMcpServer(model)],
    ["mcp/tools.ts", emitTools(model)],
    ...copiedRuntime("mcp-runtime", "mcp/runtime", "../../sdk/runtime/"),
  ];
  return new Map(files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
