/**
 * What the MCP tests share: a real MCP Client that validates structured results as draft 2020-12 (the
 * contract's dialect), connected in memory or over stdio to a built generated server; journals; a
 * fetch that counts what reaches the platform.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsM from "ajv-formats";
import { forEachSubschema } from "../../src/contract/schema-walk.js";

export const TOKEN = "mcp-test-token-5f1c";

/** A file of a generated package as built by test/e2e/global-setup. */
export const built = (name: string, file: string) => resolve("test-results/sdk", name, file);

/** A client that validates structured results with a draft 2020-12 validator (the contract's dialect). */
export function newClient(): Client {
  const ajv = new Ajv2020({ strict: false });
  (addFormatsM as unknown as { default: (a: Ajv2020) => void }).default(ajv);
  return new Client({ name: "contractgen-test", version: "1.0.0" }, { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv as never) });
}

/** The JSON of a result's text block. */
export const text = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text) as Record<string, any>;

/** Temporary journals, removed by `removeJournals()`. */
const dirs: string[] = [];
export function freshJournal(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-journal-"));
  dirs.push(dir);
  return join(dir, "journal.sqlite");
}
export function removeJournals(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A fetch that counts the requests reaching the platform. */
export function countingFetch(): { fetch: typeof fetch; count: () => number } {
  let n = 0;
  return {
    fetch: (input, init) => {
      n++;
      return fetch(input, init);
    },
    count: () => n,
  };
}

export interface Connected {
  readonly client: Client;
  call(tool: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

type ServerModule = { createServer(options?: Record<string, unknown>): { connect(t: unknown): Promise<void>; close(): Promise<void> } };

/** The generated server of `name` in this process, connected in memory; `listTools()` done (so results are validated). */
export async function connectInMemory(name: string, options: Record<string, unknown>): Promise<Connected> {
  const mod = (await import(built(name, "mcp/server.js"))) as ServerModule;
  const server = mod.createServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = newClient();
  await client.connect(clientSide);
  await client.listTools();
  return {
    client,
    call: async (tool, args) => (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The built bin (mcp/main.js) of `name` as a child process over stdio, configured by `env` and its flags `args`. */
export async function connectStdio(name: string, env: Record<string, string>, args: readonly string[] = []): Promise<Connected & { readonly pid: number; stderr(): string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [built(name, "mcp/main.js"), ...args],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const client = newClient();
  await client.connect(transport);
  await client.listTools();
  return {
    client,
    pid: transport.pid!,
    stderr: () => stderr,
    call: async (tool, args) => (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The annotation keywords (and extensions) anywhere in a schema (property names are not keywords). */
export function annotationKeywords(schema: unknown): string[] {
  const found: string[] = [];
  forEachSubschema(schema, (node) => found.push(...Object.keys(node).filter((k) => ["description", "title", "default", "examples"].includes(k) || k.startsWith("x-"))));
  return found;
}
