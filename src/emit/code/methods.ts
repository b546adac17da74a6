/**
 * The client methods code mode bridges (issue 43) for a contract: those of the tools the MCP server
 * exposes (each operation's call, its preview, its bounded traversal), as the generated server
 * derives them from its tool data at run time (code-runtime/mode.ts), so the two cannot differ.
 */
import { type CodeMethod, codeMethodsOf } from "../../code-runtime/execute.js";
import type { ContractModel } from "../../model/types.js";
import { toolSpecs } from "../mcp/tools.js";

export function codeMethods(model: ContractModel): CodeMethod[] {
  return codeMethodsOf(toolSpecs(model).map(({ spec }) => spec));
}
