/**
 * Catalogue control of the generated MCP server, through a real MCP Client: `--toolsets` / `--tools`
 * allow-lists (listed = callable = the filtered set), and progressive discovery (search, describe,
 * call give what direct mode gives; the discovery catalogue stays small at any contract size).
 */
import { spawnSync } from "node:child_process";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript helper of the benchmarks
import { syntheticContract } from "../../bench/synthetic.mjs";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { catalogTokens, countTokens } from "../../src/budget/catalog.js";
import { toolSpecs } from "../../src/emit/mcp/tools.js";
import { CatalogueError, createMcpServer, type McpDefinition, type ToolSpec } from "../../src/mcp-runtime/server.js";
import { parseContractText } from "../../src/contract/parse.js";
import { built, countingFetch, freshJournal, newClient, removeJournals, text, TOKEN } from "./support.js";

type ServerModule = { createServer(options?: Record<string, unknown>, serve?: Record<string, unknown>): { connect(t: unknown): Promise<void>; close(): Promise<void> } };

let incidents: RunningPlatform;
beforeAll(async () => {
  incidents = await startIncidentsServer({ token: TOKEN });
});
afterAll(async () => {
  await incidents.close();
  removeJournals();
});

/** The built billing/incidents server in memory, with catalogue options. */
async function connect(name: string, serve: Record<string, unknown>, baseUrl = incidents.url) {
  const mod = (await import(built(name, "mcp/server.js"))) as ServerModule;
  const counting = countingFetch();
  const server = mod.createServer({ token: TOKEN, journal: freshJournal(), baseUrl, fetch: counting.fetch }, serve);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = newClient();
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  return {
    client,
    tools,
    requests: counting.count,
    call: async (tool: string, args: Record<string, unknown>) => (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

const names = (tools: readonly Tool[]) => tools.map((t) => t.name);

describe("allow-lists", () => {
  it("--toolsets: the listed tools are exactly the toolset's; a filtered tool's call is a protocol error, nothing sent", async () => {
    const c = await connect("incidents", { toolsets: ["triage"] });
    try {
      expect(names(c.tools)).toEqual(["list_incidents", "count_incidents", "get_incident"]);
      await expect(c.call("assign_incident", { incident_id: "INC-017", owner: "payments-oncall", expected_revision: 1 })).rejects.toThrow(/Unknown tool/);
      expect(c.requests()).toBe(0);
      expect((await c.call("get_incident", { incident_id: "INC-017" })).structuredContent).toMatchObject({ id: "INC-017" });
    } finally {
      await c.close();
    }
  });

  it("--tools alone, and --tools added to --toolsets (union, catalogue order)", async () => {
    const only = await connect("incidents", { tools: ["get_incident"] });
    expect(names(only.tools)).toEqual(["get_incident"]);
    await expect(only.call("list_incidents", {})).rejects.toThrow(/Unknown tool/);
    await only.close();
    const both = await connect("billing.v2", { toolsets: ["invoices"], tools: ["get_customer"] }, "http://127.0.0.1:9");
    const billingTools = (await import(built("billing.v2", "mcp/tools.js"))) as { TOOLS: ToolSpec[] };
    const expected = billingTools.TOOLS.filter((t) => t.toolset === "invoices" || t.name === "get_customer").map((t) => t.name);
    expect(expected.length).toBeGreaterThan(1);
    expect(names(both.tools)).toEqual(expected);
    await both.close();
  });

  it("unknown names are a startup error naming the valid ones", async () => {
    const mod = (await import(built("incidents", "mcp/server.js"))) as ServerModule;
    expect(() => mod.createServer({}, { toolsets: ["triage", "nope"] })).toThrow(/Unknown toolset "nope" in --toolsets\. Valid toolsets: "triage", "ownership"\./);
    expect(() => mod.createServer({}, { tools: ["get_incidnet"] })).toThrow(/Unknown tool "get_incidnet" in --tools\. Valid tools: "list_incidents", "count_incidents", "get_incident", "assign_incident"\./);
  });

  it("the bin: unknown names, bad flags ⇒ one line on stderr, exit 2, no stack; --help exits 0", () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [built("incidents", "mcp/main.js"), ...args], { encoding: "utf8", env: { PATH: process.env.PATH ?? "" }, input: "" });
    for (const args of [["--toolsets", "bogus"], ["--tools", "nope,get_incident"], ["--port", "80"], ["--http", "--port", "99999"], ["--text", "xml"], ["--http", "--allow-origins", "https://a.example/path"]]) {
      const r = run(...args);
      expect(r.status, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe("");
    }
    expect(run("--toolsets", "bogus").stderr).toContain('Valid toolsets: "triage", "ownership"');
    const help = run("--help");
    expect(help.status).toBe(0);
    for (const flag of ["--http", "--host", "--port", "--toolsets", "--tools", "--discovery", "--text", "--allow-origins", "INCIDENTS_MCP_BEARER", "INCIDENTS_TOKEN"]) expect(help.stdout).toContain(flag);
  });
});

describe("progressive discovery", () => {
  it("lists only search_tools, describe_tool and call_tool, with honest annotations", async () => {
    const c = await connect("incidents", { discovery: true });
    try {
      expect(names(c.tools)).toEqual(["search_tools", "describe_tool", "call_tool"]);
      const [search, describe_, call] = c.tools;
      for (const t of [search!, describe_!]) expect(t.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      // assign_incident writes: calling a tool is not read-only.
      expect(call!.annotations?.readOnlyHint).toBe(false);
      // Directly, the contract's tools are not callable in discovery mode.
      await expect(c.call("get_incident", { incident_id: "INC-017" })).rejects.toThrow(/Unknown tool.*call_tool/);
    } finally {
      await c.close();
    }
    const reads = await connect("incidents", { discovery: true, toolsets: ["triage"] });
    expect(reads.tools[2]!.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    await reads.close();
    const billing = await connect("billing.v2", { discovery: true }, "http://127.0.0.1:9");
    const { TOOLS } = (await import(built("billing.v2", "mcp/tools.js"))) as { TOOLS: ToolSpec[] };
    // The most consequential tool reachable decides each hint (refund_invoice is destructive).
    expect(billing.tools[2]!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: TOOLS.every((t) => t.annotations.idempotentHint),
      openWorldHint: TOOLS.some((t) => t.annotations.openWorldHint),
    });
    await billing.close();
  });

  it("search → describe → call gives what direct mode gives", async () => {
    const d = await connect("incidents", { discovery: true });
    const direct = await connect("incidents", {});
    try {
      const found = await d.call("search_tools", { query: "count open incidents" });
      expect(found.isError).toBeFalsy();
      const page = text(found) as { tools: Array<{ name: string; toolset: string | null; summary: string }>; total: number; complete: boolean; next_offset: number | null };
      expect(page.tools[0]).toMatchObject({ name: "count_incidents", toolset: "triage" });
      expect(page).toMatchObject({ complete: true, next_offset: null, total: page.tools.length });
      // Each thing once: the text is the answer, with no structured or _meta copy.
      expect(found.structuredContent).toBeUndefined();
      expect(found._meta).toBeUndefined();

      const described = await d.call("describe_tool", { name: "list_incidents" });
      // What the model needs to call it (the output schema is for clients validating direct results).
      const { outputSchema: _output, ...entry } = direct.tools.find((t) => t.name === "list_incidents")!;
      expect((text(described) as { tool: Tool }).tool).toEqual(entry);
      expect(described.structuredContent).toBeUndefined();
      expect(described.content).toHaveLength(1);

      const question = { status: "open", severity: "P1", service: "checkout", environment: "production", fields: ["id", "owner", "title"] };
      const viaDiscovery = await d.call("call_tool", { name: "list_incidents", arguments: question });
      const viaDirect = await direct.call("list_incidents", question);
      expect(viaDiscovery).toEqual(viaDirect);
      expect((viaDiscovery.structuredContent as { incidents: Array<{ id: string }> }).incidents.map((i) => i.id)).toEqual(["INC-017", "INC-088"]);

      // The same validation, the same isError, nothing sent.
      const before = d.requests();
      const bad = await d.call("call_tool", { name: "get_incident", arguments: { incident_id: "not-an-id" } });
      expect(bad).toEqual(await direct.call("get_incident", { incident_id: "not-an-id" }));
      expect(bad.isError).toBe(true);
      expect(d.requests()).toBe(before);
      // Arguments omitted are {}.
      expect(await d.call("call_tool", { name: "count_incidents" })).toEqual(await direct.call("count_incidents", {}));
    } finally {
      await d.close();
      await direct.close();
    }
  });

  it("search pages state their completeness; unknown names and toolsets are isError results", async () => {
    const d = await connect("incidents", { discovery: true });
    try {
      const all = text(await d.call("search_tools", {})) as { tools: Array<{ name: string }>; total: number; complete: boolean };
      expect(all).toMatchObject({ total: 4, complete: true });
      expect(all).not.toHaveProperty("incomplete");
      const first = text(await d.call("search_tools", { limit: 3 }));
      expect(first).toMatchObject({ total: 4, complete: false, next_offset: 3 });
      expect(first.incomplete).toEqual(["more matches: call search_tools again with the same arguments and offset = 3"]);
      const rest = text(await d.call("search_tools", { limit: 3, offset: 3 })) as { tools: Array<{ name: string }>; complete: boolean; next_offset: number | null };
      expect(rest).toMatchObject({ complete: false, next_offset: null });
      expect([...(first.tools as Array<{ name: string }>), ...rest.tools].map((t) => t.name)).toEqual(all.tools.map((t) => t.name));
      expect((text(await d.call("search_tools", { toolset: "ownership" })).tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["assign_incident"]);

      const unknownSet = await d.call("search_tools", { toolset: "nope" });
      expect(unknownSet.isError).toBe(true);
      expect(text(unknownSet).error).toMatchObject({ code: "MCP_INVALID_ARGUMENTS", field: "toolset" });
      for (const [tool, args] of [["describe_tool", { name: "nope" }], ["call_tool", { name: "nope", arguments: {} }]] as const) {
        const r = await d.call(tool, args);
        expect(r.isError).toBe(true);
        expect(text(r).error).toMatchObject({ code: "MCP_INVALID_ARGUMENTS", field: "name", action: "fix_field" });
      }
    } finally {
      await d.close();
    }
  });

  it("allow-lists apply: a filtered tool is neither found, described nor called", async () => {
    const d = await connect("incidents", { discovery: true, toolsets: ["triage"] });
    try {
      const all = text(await d.call("search_tools", { query: "assign" })) as { tools: Array<{ name: string }> };
      expect(all.tools.map((t) => t.name)).not.toContain("assign_incident");
      expect((await d.call("describe_tool", { name: "assign_incident" })).isError).toBe(true);
      const call = await d.call("call_tool", { name: "assign_incident", arguments: { incident_id: "INC-017", owner: "payments-oncall", expected_revision: 1 } });
      expect(call.isError).toBe(true);
      expect(d.requests()).toBe(0);
    } finally {
      await d.close();
    }
  });
});

describe("discovery catalogue size", () => {
  /** The synthetic contract's server (source runtime, its tool descriptors), listed through a client. */
  async function listed(n: number, discovery: boolean) {
    const { model } = parseContractText(`synthetic-${n}.yaml`, syntheticContract(n));
    const tools: ToolSpec[] = toolSpecs(model!).map(({ spec }) => ({ ...spec, validateInput: Object.assign(() => true, { errors: null }) }) as ToolSpec);
    const def: McpDefinition = { name: "synthetic-mcp", version: "1.0.0", instructions: "", tools, createClient: () => ({ close() {} }) };
    const server = createMcpServer(def, { discovery });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = newClient();
    await client.connect(clientSide);
    const result = await client.listTools();
    await client.close();
    await server.close();
    return { tokens: countTokens(JSON.stringify(result)), model: model! };
  }

  it("is under 1,000 o200k tokens for a 1,000-operation contract, and does not grow with it", async () => {
    const small = await listed(10, true);
    const large = await listed(1000, true);
    const larger = await listed(1500, true);
    expect(large.tokens).toBeLessThan(1000);
    expect(larger.tokens).toBe(large.tokens);
    expect(small.tokens).toBe(large.tokens);
    // Direct mode serves the whole catalogue (what the budget counts), hundreds of times larger.
    expect(catalogTokens(large.model).total).toBeGreaterThan(100 * large.tokens);
  });

  it("toolset names enter the search description only while short: many toolsets do not grow it", () => {
    const spec = (i: number, toolset: string): ToolSpec =>
      ({ operation: `op_${i}`, name: `op_${i}`, title: null, summary: "S.", toolset, description: "D.", inputSchema: { type: "object" }, outputSchema: null, annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } }) as unknown as ToolSpec;
    const size = async (sets: number) => {
      const def: McpDefinition = { name: "t", version: "1", instructions: "", tools: Array.from({ length: 1000 }, (_, i) => spec(i, `toolset_number_${i % sets}`)), createClient: () => ({ close() {} }) };
      const server = createMcpServer(def, { discovery: true });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = newClient();
      await client.connect(clientSide);
      const r = await client.listTools();
      await client.close();
      return countTokens(JSON.stringify(r));
    };
    return (async () => {
      const many = await size(500);
      expect(many).toBe(await size(1000));
      expect(many).toBeLessThan(1000);
      expect(await size(3)).toBeLessThan(1000);
    })();
  });

  it("a catalogue over its limit is never sent: the server discovers instead and says how to narrow it", async () => {
    const spec = (i: number, toolset: string): ToolSpec =>
      ({ operation: `op_${i}`, name: `op_${i}`, title: null, summary: "S.", toolset, description: "A long description. ".repeat(20), inputSchema: { type: "object" }, outputSchema: null, annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } }) as unknown as ToolSpec;
    const tools = Array.from({ length: 200 }, (_, i) => spec(i, i < 5 ? "small" : "rest"));
    const listedBy = async (def: McpDefinition, serve: Record<string, unknown>) => {
      const notices: string[] = [];
      const server = createMcpServer(def, { ...serve, notice: (line: string) => notices.push(line) });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = newClient();
      await client.connect(clientSide);
      const listed = names((await client.listTools()).tools);
      const instructions = client.getInstructions() ?? "";
      await client.close();
      return { listed, notices, instructions };
    };
    const def: McpDefinition = { name: "t", version: "1", instructions: "", tools, createClient: () => ({ close() {} }) };
    // 200 tools of ~100 tokens: over a 5,000-token limit, within the default one.
    expect((await listedBy(def, {})).listed).toHaveLength(200);
    const over = await listedBy(def, { maxCatalogueTokens: 5000 });
    expect(over.listed).toEqual(["search_tools", "describe_tool", "call_tool"]);
    expect(over.instructions).toContain("Discovery mode");
    expect(over.notices).toHaveLength(1);
    expect(over.notices[0]).toMatch(/^the 200 tools cost about \d+ tokens, over --max-catalogue-tokens of 5000: serving discovery mode .*--toolsets or --tools/);
    // Narrowed under the limit: listed directly, nothing said.
    const narrowed = await listedBy(def, { maxCatalogueTokens: 5000, toolsets: ["small"] });
    expect(narrowed.listed).toEqual(["op_0", "op_1", "op_2", "op_3", "op_4"]);
    expect(narrowed.notices).toEqual([]);
    // The contract's budget is the limit when the flag is not given.
    const budgeted = await listedBy({ ...def, catalogueBudget: 5000 }, {});
    expect(budgeted.listed).toHaveLength(3);
    expect(budgeted.notices[0]).toContain("over the contract's budget.catalogTokens of 5000");
  });

  it("CatalogueError is what the runtime throws for unknown names", () => {
    const def: McpDefinition = { name: "t", version: "1", instructions: "", tools: [], createClient: () => ({ close() {} }) };
    expect(() => createMcpServer(def, { tools: ["x"] })).toThrow(CatalogueError);
  });
});
