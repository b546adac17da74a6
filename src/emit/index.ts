import { readdirSync, readFileSync } from "node:fs";
import type { ContractModel } from "../model/types.js";
import { packagePath } from "../package-root.js";
import { emitPackageFiles } from "./package/package.js";
import { clientClassName, emitClient } from "./sdk/client.js";
import { emitContractInfo } from "./sdk/errors.js";
import { emitOperations } from "./sdk/operations.js";
import { emitTypes } from "./sdk/types.js";
import { emitValidators } from "./sdk/validators.js";
import { generatedHeader } from "./shared/literals.js";

/** Generated files: relative path → content. Pure function of the model (and contractgen's own files). */
export type FileTree = ReadonlyMap<string, string>;

/** The hand-written runtime, copied verbatim into every generated SDK. */
function runtimeFiles(): Array<[string, string]> {
  const dir = packagePath("src", "runtime");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => [`sdk/runtime/${f}`, readFileSync(`${dir}/${f}`, "utf8")]);
}

function emitIndex(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}export { ${clientClassName(model)} } from "./client.js";
export { CONTRACT, TAXONOMY, type ErrorCode } from "./contract.js";
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
    ["sdk/operations.ts", emitOperations(model)],
    ["sdk/types.ts", await emitTypes(model)],
    ["sdk/validators.js", validators.js],
    ["sdk/validators.d.ts", validators.dts],
    ...runtimeFiles(),
  ];
  return new Map(files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
