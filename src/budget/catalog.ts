/**
 * The MCP catalogue an agent loads (`tools/list`), derived from the model, and its token cost with
 * a real tokenizer (o200k_base, as current OpenAI models use).
 */
import { createRequire } from "node:module";
import type { ContractModel } from "../model/types.js";
import { type ServedTool, servedTools } from "../emit/mcp/tools.js";

export type CatalogTool = ServedTool;

/** One tool per exposed operation, exactly as the generated MCP server lists them (one shared source). */
export function catalogTools(model: ContractModel): CatalogTool[] {
  return servedTools(model).map((t) => t.tool);
}

type Encode = (text: string) => number[];
let encode: Encode | undefined;

/**
 * o200k_base token count. The tokenizer takes ~0.4 s to load, so it is loaded on first use (through
 * its CommonJS build, which `require` can load synchronously) rather than by every contractgen run.
 */
export function countTokens(text: string): number {
  encode ??= (createRequire(import.meta.url)("gpt-tokenizer") as { encode: Encode }).encode;
  return encode(text).length;
}

let encodeCl100k: Encode | undefined;

/** cl100k_base token count (GPT-4-era models), loaded on first use like o200k_base. */
export function countTokensCl100k(text: string): number {
  encodeCl100k ??= (createRequire(import.meta.url)("gpt-tokenizer/encoding/cl100k_base") as { encode: Encode }).encode;
  return encodeCl100k(text).length;
}

export interface CatalogCost {
  readonly total: number;
  readonly perTool: ReadonlyArray<{ readonly name: string; readonly tokens: number }>;
}

// Models are immutable, so a model's catalogue cost is computed once however many rules ask.
const costs = new WeakMap<ContractModel, CatalogCost>();

/** Tokens of the whole `tools/list` result and of each tool. */
export function catalogTokens(model: ContractModel): CatalogCost {
  let cost = costs.get(model);
  if (!cost) {
    const tools = catalogTools(model);
    cost = {
      total: countTokens(JSON.stringify({ tools })),
      perTool: tools.map((t) => ({ name: t.name, tokens: countTokens(JSON.stringify(t)) })),
    };
    costs.set(model, cost);
  }
  return cost;
}
