/**
 * Every tool is usable by the official MCP TypeScript client with its default settings: a
 * `new Client({ name, version })` with no options validates each structured result against the
 * tool's outputSchema with its own draft-07 Ajv (not the 2020-12 validator the other MCP tests
 * give it), and throws McpError -32602 when it refuses one. Each example's generated server is
 * connected in memory to such a client, pointed at its reference platform, and every listed tool is
 * called with arguments that succeed there (derived from the tool's inputSchema and the platform's
 * seeded data): no call may throw, fail, or lack structuredContent.
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { BILLING_SEED_CUSTOMERS, BILLING_SEED_INVOICES, startBillingServer } from "../../examples/billing/server.js";
import { BOOKSHELF_SEED_BOOKS, startBookshelfServer } from "../../examples/bookshelf/server.js";
import { INCIDENT_TEAMS, OPEN_P1_CHECKOUT_PRODUCTION, startIncidentsServer } from "../../examples/incidents/server.js";
import { releaseSeed, startReleasesServer } from "../../examples/releases/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { built, freshJournal, removeJournals } from "./support.js";

const TOKEN = "official-client-token-7e21";

type Json = Record<string, any>;
type ServerModule = { createServer(options?: Record<string, unknown>): { connect(t: unknown): Promise<void>; close(): Promise<void> } };

/** A client exactly as a user writes it: no options, so the SDK's default (draft-07 Ajv) validator. */
export async function defaultClient(server: { connect(t: unknown): Promise<void> }): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "official-client-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** One tool call and what went wrong with it, if anything. */
interface Call {
  readonly tool: string;
  readonly args: Json;
  readonly result?: CallToolResult;
  readonly problem?: string;
}

/** Call a tool through the client; a thrown McpError, an isError result or missing structuredContent is a problem. */
export async function callChecked(client: Client, tool: Tool, args: Json): Promise<Call> {
  let result: CallToolResult;
  try {
    result = (await client.callTool({ name: tool.name, arguments: args })) as CallToolResult;
  } catch (e) {
    const err = e as { code?: number; message?: string };
    return { tool: tool.name, args, problem: `threw ${err.code ?? ""} ${err.message ?? String(e)}` };
  }
  if (result.isError) return { tool: tool.name, args, result, problem: `isError: ${(result.content[0] as { text?: string })?.text ?? ""}` };
  if (tool.outputSchema && result.structuredContent === undefined) return { tool: tool.name, args, result, problem: "no structuredContent though the tool has an outputSchema" };
  return { tool: tool.name, args, result };
}

// ---------------------------------------------------------------------------------------------
// Arguments from the inputSchema and a few seeded values

interface Example {
  readonly name: string;
  readonly start: () => Promise<RunningPlatform>;
  /** Values of arguments a schema cannot invent: identifiers of seeded records, names the platform knows. */
  readonly seeds: Readonly<Record<string, unknown>>;
}

const quiet = { token: TOKEN, log: () => undefined };
const EXAMPLES: readonly Example[] = [
  // billing.v1 has no platform of its own: its operations are those of v2 (a refund amount of 1 means the same to both).
  { name: "billing.v1", start: () => startBillingServer(quiet), seeds: { customer_id: BILLING_SEED_CUSTOMERS[0]!.id, invoice_id: BILLING_SEED_INVOICES[0]!.id } },
  { name: "billing.v2", start: () => startBillingServer(quiet), seeds: { customer_id: BILLING_SEED_CUSTOMERS[0]!.id, invoice_id: BILLING_SEED_INVOICES[0]!.id } },
  { name: "incidents", start: () => startIncidentsServer(quiet), seeds: { incident_id: OPEN_P1_CHECKOUT_PRODUCTION[0], owner: INCIDENT_TEAMS[2] } },
  { name: "releases", start: () => startReleasesServer(quiet), seeds: { release_id: releaseSeed("default")[0]!.id } },
  { name: "bookshelf", start: () => startBookshelfServer(quiet), seeds: { book_id: BOOKSHELF_SEED_BOOKS[0]!.id } },
];

let unique = 0;

/** A value of `schema` for argument `name`: a seeded value, else one the schema alone determines; throws when it cannot. */
function sample(tool: string, name: string, schema: Json, seeds: Readonly<Record<string, unknown>>): unknown {
  if (Object.hasOwn(seeds, name)) return seeds[name];
  if (Object.hasOwn(schema, "const")) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (/(^|_)key$/.test(name) || schema.format === "uuid") return randomUUID(); // an operation key: fresh per call
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  const n = ++unique;
  switch (type) {
    case "string": {
      if (schema.pattern !== undefined) throw new Error(`${tool}.${name}: a string of pattern ${schema.pattern} needs a seeded value`);
      if (schema.format === "email") return `official.client.${n}@example.com`;
      if (schema.format === "date-time") return "2020-01-01T00:00:00Z";
      if (schema.format !== undefined) throw new Error(`${tool}.${name}: no sample for format ${schema.format}`);
      const text = `Official client ${n}`;
      const min = schema.minLength ?? 0;
      return (text.length < min ? text.padEnd(min, "x") : text).slice(0, schema.maxLength ?? text.length);
    }
    case "integer":
    case "number": {
      // 1 where allowed: it is an integer, and a positive amount in any unit.
      const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : 1);
      const value = Math.max(1, Math.ceil(low));
      if (schema.maximum !== undefined && value > schema.maximum) throw new Error(`${tool}.${name}: no sample in [${low}, ${schema.maximum}]`);
      return value;
    }
    case "boolean":
      return false;
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(tool, `${name}[]`, schema.items ?? {}, seeds));
    default:
      throw new Error(`${tool}.${name}: no sample for ${JSON.stringify(schema)}`);
  }
}

/** A tool that previews by default: a boolean input defaulting to true (dry_run). */
const previewFlag = (tool: Tool): string | undefined =>
  Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Json>).find(([, s]) => s.type === "boolean" && s.default === true)?.[0];

/**
 * The arguments of a call of `tool` that the platform accepts: the required arguments, plus optional
 * ones up to `minProperties`, plus an operation key where the tool takes one. An `expected_<field>`
 * precondition is read with the `get_` tool taking the same identifier (`read`).
 */
async function argumentsFor(tool: Tool, tools: readonly Tool[], seeds: Readonly<Record<string, unknown>>, read: (tool: Tool, args: Json) => Promise<Call>): Promise<Json> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, Json>;
  const required = new Set((tool.inputSchema.required ?? []) as string[]);
  const flag = previewFlag(tool);
  for (const name of Object.keys(props)) if (/(^|_)key$/.test(name)) required.add(name); // "give one"
  const args: Json = {};
  const expected: string[] = [];
  for (const name of required) {
    if (name.startsWith("expected_")) expected.push(name);
    else args[name] = sample(tool.name, name, props[name]!, seeds);
  }
  // Optional arguments (not behaviour flags or preconditions) until minProperties is met.
  const min = (tool.inputSchema as Json).minProperties ?? 0;
  for (const name of Object.keys(props)) {
    if (Object.keys(args).length + expected.length >= min) break;
    if (Object.hasOwn(args, name) || name === flag || name.startsWith("expected_") || name.startsWith("confirm")) continue;
    args[name] = sample(tool.name, name, props[name]!, seeds);
  }
  if (expected.length > 0) {
    const getter = tools.find((t) => t.name.startsWith("get_") && ((t.inputSchema.required ?? []) as string[]).every((r) => Object.hasOwn(args, r)));
    if (!getter) throw new Error(`${tool.name}: no get_ tool reads ${expected.join(", ")}`);
    const current = await read(getter, Object.fromEntries(((getter.inputSchema.required ?? []) as string[]).map((r) => [r, args[r]])));
    const record = current.result?.structuredContent as Json | undefined;
    for (const name of expected) {
      const field = name.slice("expected_".length);
      if (record === undefined || !Object.hasOwn(record, field)) throw new Error(`${tool.name}.${name}: ${getter.name} gave no ${field} (${current.problem ?? ""})`);
      args[name] = record[field];
    }
  }
  return args;
}

/**
 * Call every tool once with arguments the platform accepts. A tool that previews by default is
 * called as it is (the preview), then executed with the preview's confirmation (both result forms are
 * checked). Destructive tools run last, so nothing they delete is needed afterwards.
 */
export async function callEveryTool(client: Client, seeds: Readonly<Record<string, unknown>>): Promise<{ listed: string[]; calls: Call[] }> {
  const { tools } = await client.listTools();
  const calls: Call[] = [];
  const run = async (tool: Tool, args: Json) => {
    const call = await callChecked(client, tool, args);
    calls.push(call);
    return call;
  };
  const ordered = [...tools.filter((t) => !t.annotations?.destructiveHint), ...tools.filter((t) => t.annotations?.destructiveHint)];
  for (const tool of ordered) {
    let args: Json;
    try {
      args = await argumentsFor(tool, tools, seeds, run);
    } catch (e) {
      calls.push({ tool: tool.name, args: {}, problem: `no arguments: ${(e as Error).message}` });
      continue;
    }
    const flag = previewFlag(tool);
    const first = await run(tool, args);
    if (flag === undefined || first.problem !== undefined) continue;
    // The preview's confirmation: each optional string argument the preview result carries.
    const preview = first.result!.structuredContent as Json;
    const props = (tool.inputSchema.properties ?? {}) as Record<string, Json>;
    const confirm = Object.keys(props).filter((p) => props[p]!.type === "string" && preview && typeof preview[p] === "string" && !Object.hasOwn(args, p));
    if (confirm.length === 0) {
      calls.push({ tool: tool.name, args, problem: `the preview gave no confirmation to execute with: ${JSON.stringify(preview)}` });
      continue;
    }
    await run(tool, { ...args, [flag]: false, ...Object.fromEntries(confirm.map((p) => [p, preview[p]])) });
  }
  return { listed: tools.map((t) => t.name), calls };
}

/** The problems of `calls`, one line each, for an assertion that prints them all. */
export const problems = (calls: readonly Call[]) => calls.filter((c) => c.problem !== undefined).map((c) => `${c.tool}(${JSON.stringify(c.args)}): ${c.problem}`);

describe("every tool of every example, through the official client with its default settings", () => {
  afterAll(() => removeJournals());

  it.each(EXAMPLES)("$name: every listed tool is called and succeeds", async ({ name, start, seeds }) => {
    const platform = await start();
    const mod = (await import(built(name, "mcp/server.js"))) as ServerModule;
    const server = mod.createServer({ baseUrl: platform.url, token: TOKEN, journal: freshJournal() });
    const client = await defaultClient(server);
    try {
      const { listed, calls } = await callEveryTool(client, seeds);
      if (process.env.OFFICIAL_CLIENT_DEBUG) console.log(calls.map((c) => `${c.tool} ${JSON.stringify(c.args)} -> ${JSON.stringify(c.result?.structuredContent).slice(0, 160)}`).join("\n"));
      console.log(`${name}: ${listed.length} tools listed, ${new Set(calls.map((c) => c.tool)).size} called, ${calls.length} calls`);
      expect(problems(calls)).toEqual([]);
      expect([...new Set(calls.map((c) => c.tool))].sort()).toEqual([...listed].sort());
      expect(listed.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      await server.close();
      await platform.close();
    }
  });
});
