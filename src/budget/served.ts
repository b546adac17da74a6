/**
 * The catalogue a generated MCP server actually serves: the server is built in-process from the model
 * (the same runtime and tool descriptors the generated package uses), a real MCP `Client` connects to
 * it over an in-memory transport and reads `tools/list`, following its pagination.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { serverInstructions, toolSpecs } from "../emit/mcp/tools.js";
import { clientClassName, mcpName } from "../model/naming.js";
import { createMcpServer, type McpDefinition, type ServeOptions } from "../mcp-runtime/server.js";
import type { ContractModel } from "../model/types.js";
import { countTokens, countTokensCl100k } from "./catalog.js";

/** Bound on tools/list pages followed (a server that keeps answering with a cursor is not trusted forever). */
const MAX_LIST_PAGES = 1000;

const NO_RESULT_VALIDATION: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

/** The server definition of a contract with no platform behind it: listing needs no SDK client and no validator. */
export function catalogueDefinition(model: ContractModel): McpDefinition {
  return {
    name: mcpName(model),
    version: model.version,
    instructions: serverInstructions(model),
    tools: toolSpecs(model).map(({ spec }) => ({ ...spec, validateInput: Object.assign(() => false, { errors: null }) })),
    createClient: () => {
      throw new Error("the catalogue server calls no tool");
    },
    // Listing code mode's two tools reads no SDK: the folder is never opened.
    code: { sdkDir: "", clientClass: clientClassName(model), title: model.title.replace(/\s+/g, " ").trim() },
  };
}

/** `tools/list` as a client receives it from the generated server (started with `serve`'s flags). */
export async function servedCatalogue(model: ContractModel, serve: ServeOptions = {}): Promise<Tool[]> {
  // The catalogue as listed, whatever its size (a server over its limit would discover instead).
  const server = createMcpServer(catalogueDefinition(model), { maxCatalogueTokens: Number.MAX_SAFE_INTEGER, ...serve });
  // Listing is all this client does: it need not compile the output schemas to check tool results.
  const client = new Client({ name: "contractgen-budget", version: "1.0.0" }, { jsonSchemaValidator: NO_RESULT_VALIDATION });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  } finally {
    await client.close();
    await server.close();
  }
}

export interface ServedCost {
  readonly tokenizers: readonly ["o200k_base", "cl100k_base"];
  /** Tokens of the whole `tools/list` result (`{"tools":[…]}`), per tokenizer. */
  readonly total: { readonly o200k_base: number; readonly cl100k_base: number };
  readonly perTool: ReadonlyArray<{ readonly name: string; readonly o200k_base: number; readonly cl100k_base: number }>;
  readonly toolCount: number;
}

/** Token counts of what the server serves, in both tokenizers. */
export async function servedCost(model: ContractModel, serve: ServeOptions = {}): Promise<ServedCost> {
  const tools = await servedCatalogue(model, serve);
  const whole = JSON.stringify({ tools });
  return {
    tokenizers: ["o200k_base", "cl100k_base"],
    total: { o200k_base: countTokens(whole), cl100k_base: countTokensCl100k(whole) },
    perTool: tools.map((t) => {
      const json = JSON.stringify(t);
      return { name: t.name, o200k_base: countTokens(json), cl100k_base: countTokensCl100k(json) };
    }),
    toolCount: tools.length,
  };
}

/** Tokens of the catalogue in the server's other modes (`tools/list` with --mode discovery, --mode code), whatever the contract's size. */
export async function modeCosts(model: ContractModel): Promise<{ readonly discovery: ServedCost["total"]; readonly code: ServedCost["total"] }> {
  const [discovery, code] = await Promise.all([servedCost(model, { discovery: true }), servedCost(model, { code: true })]);
  return { discovery: discovery.total, code: code.total };
}
