/**
 * The generated MCP servers (generated-examples/, built by test/e2e/global-setup) through a real MCP
 * Client against the reference platforms: the catalogue is the contract's, results state their
 * completeness, preview/confirm and preconditions behave as in the SDK, failures keep their class.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingServer } from "../../examples/billing/server.js";
import { startIncidentsServer } from "../../examples/incidents/server.js";
import type { RunningPlatform } from "../../examples/shared/host.js";
import { catalogTokens, countTokens } from "../../src/budget/catalog.js";
import { servedSchema, servedTools } from "../../src/emit/mcp/tools.js";
import type { ContractModel } from "../../src/model/types.js";
import { parseContract } from "../../src/contract/parse.js";
import { annotationKeywords, built, connectStdio, countingFetch, freshJournal, newClient, removeJournals, text, TOKEN } from "./support.js";

const SPECS = ["billing.v1", "billing.v2", "incidents", "releases"] as const;


type McpServerLike = { connect(t: unknown): Promise<void>; close(): Promise<void> };
type ServerModule = { createServer(options?: Record<string, unknown>): McpServerLike; mcpDefinition(options?: Record<string, unknown>): unknown };
type RuntimeModule = { createMcpServer(def: unknown, serve?: { text?: "json" | "compact" }): McpServerLike };

/** Connect a client to the generated server of `name` in memory; `requests` counts what reaches the platform. */
async function connect(name: string, options: Record<string, unknown>, serve?: { text?: "json" | "compact" }) {
  const mod = (await import(built(name, "mcp/server.js"))) as ServerModule;
  const runtime = (await import(built(name, "mcp/runtime/server.js"))) as RuntimeModule;
  const counting = countingFetch();
  const clientOptions = { token: TOKEN, journal: freshJournal(), retry: { initialDelayMs: 5 }, fetch: counting.fetch, ...options };
  const server = serve ? runtime.createMcpServer(mod.mcpDefinition(clientOptions), serve) : mod.createServer(clientOptions);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = newClient();
  await client.connect(clientSide);
  await client.listTools(); // the client validates later results against the listed output schemas
  return {
    client,
    requests: counting.count,
    call: async (tool: string, args: Record<string, unknown>) => (await client.callTool({ name: tool, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}


const platforms: RunningPlatform[] = [];
let billing: RunningPlatform;
let incidents: RunningPlatform;
beforeAll(async () => {
  billing = await startBillingServer({ token: TOKEN });
  incidents = await startIncidentsServer({ token: TOKEN });
  platforms.push(billing, incidents);
});
afterAll(async () => {
  for (const p of platforms) await p.close();
  removeJournals();
});

describe("tools/list", () => {
  const models = new Map<string, ContractModel>(SPECS.map((s) => [s, parseContract(`specs/${s}.yaml`).model!]));

  it.each(SPECS)("%s: one tool per exposed operation, the contract's schemas, annotations equal to the effects", async (name) => {
    const model = models.get(name)!;
    const c = await connect(name, { baseUrl: "http://127.0.0.1:9" });
    try {
      const { tools } = await c.client.listTools();
      const exposed = model.operations.filter((op) => op.mcp.exposed);
      expect(tools.map((t) => t.name)).toEqual(exposed.map((op) => op.names.tool));
      for (const op of exposed) {
        const tool = tools.find((t) => t.name === op.names.tool)!;
        // The contract's arguments, in their model-facing form (test/mcp/catalogue.test.ts: the same
        // instances accepted); the output schema in its validation form.
        const input = servedSchema(op.input.schema)!;
        expect(Object.keys((tool.inputSchema.properties ?? {}) as object)).toEqual(Object.keys(input.properties as object));
        expect(tool.inputSchema.required).toEqual(input.required);
        expect(annotationKeywords(tool.outputSchema)).toEqual([]);
        if (op.preview) expect((tool.outputSchema as { anyOf: unknown[] }).anyOf).toHaveLength(2);
        // The hints as a client reads them (an absent hint is the specification's default; a read-only
        // tool's destructive and idempotent hints have no meaning).
        const hints = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true, ...tool.annotations };
        expect(hints.readOnlyHint).toBe(op.effects.kind === "read");
        expect(hints.openWorldHint).toBe(op.effects.openWorld);
        if (op.effects.kind === "mutating") {
          expect(hints.destructiveHint).toBe(op.effects.destructive);
          expect(hints.idempotentHint).toBe(op.effects.idempotent !== "none");
        }
        expect(tool.description!.startsWith((op.description || op.summary).replace(/\s+/g, " ").trim())).toBe(true);
        expect(tool.description).not.toContain(TOKEN);
      }
    } finally {
      await c.close();
    }
  });

  it.each(SPECS)("%s: the model-side catalogue estimate is what the server lists", async (name) => {
    const model = models.get(name)!;
    const c = await connect(name, { baseUrl: "http://127.0.0.1:9" });
    try {
      const { tools } = await c.client.listTools();
      expect(tools).toEqual(servedTools(model).map((t) => t.tool));
      expect(countTokens(JSON.stringify({ tools: servedTools(model).map((t) => t.tool) }))).toBe(catalogTokens(model).total);
    } finally {
      await c.close();
    }
  });
});

describe("reads (incidents)", () => {
  it("the incident question: filters + projection ⇒ INC-017 and INC-088, complete", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url });
    try {
      const r = await c.call("list_incidents", { status: "open", severity: "P1", service: "checkout", environment: "production", fields: ["id", "owner", "title"] });
      expect(r.isError).toBeFalsy();
      const page = r.structuredContent as { incidents: Array<Record<string, unknown>>; next_cursor: string | null };
      expect(page.incidents.map((i) => i.id)).toEqual(["INC-017", "INC-088"]);
      for (const item of page.incidents) expect(Object.keys(item).sort()).toEqual(["id", "owner", "title"]);
      expect(r._meta?.["contractgen/completeness"]).toEqual({ complete: true, continuation: null, reasons: [] });
      const t = text(r);
      expect(t.completeness).toEqual({ complete: true, continuation: null, reasons: [] });
      expect(t.result).toEqual(r.structuredContent);
      expect((r.content[0] as { text: string }).text).not.toContain("\n"); // compact
    } finally {
      await c.close();
    }
  });

  it("a first-page-only read is complete:false, with the continuation and the reason", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url });
    try {
      const r = await c.call("list_incidents", { fields: ["id"] });
      const page = r.structuredContent as { incidents: unknown[]; next_cursor: string | null };
      expect(page.incidents).toHaveLength(40);
      const completeness = text(r).completeness;
      expect(completeness.complete).toBe(false);
      expect(completeness.continuation).toBe(page.next_cursor);
      expect(completeness.continuation).toEqual(expect.any(String));
      expect(completeness.reasons.join(" ")).toContain("cursor");
      // The continuation reads on; the last page ends the traversal.
      const next = await c.call("list_incidents", { fields: ["id"], cursor: completeness.continuation });
      expect((next.structuredContent as { incidents: unknown[] }).incidents).toHaveLength(40);
      // A later page is not the answer on its own either, even the last one.
      const last = await c.call("list_incidents", { fields: ["id"], cursor: text(next).completeness.continuation });
      expect((last.structuredContent as { next_cursor: string | null }).next_cursor).toBeNull();
      expect(text(last).completeness).toMatchObject({ complete: false, continuation: null });
      expect(text(last).completeness.reasons.join(" ")).toContain("earlier");
    } finally {
      await c.close();
    }
  });

  it("a task answer states its completeness (count_incidents)", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url });
    try {
      const r = await c.call("count_incidents", { status: "open", severity: "P1", service: "checkout", environment: "production" });
      expect(r.structuredContent).toMatchObject({ count: 2, complete: true });
      expect(text(r).completeness).toEqual({ complete: true, continuation: null, reasons: [] });
    } finally {
      await c.close();
    }
  });

  it("invalid arguments ⇒ isError naming the field; no request reaches the platform", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url });
    try {
      const r = await c.call("get_incident", { incident_id: "not-an-id" });
      expect(r.isError).toBe(true);
      expect(text(r).error).toMatchObject({ code: "CLIENT_INVALID_INPUT", class: "invalid_input", action: "fix_field", field: "incident_id", outcome: "rejected" });
      const missing = await c.call("assign_incident", { incident_id: "INC-017", owner: "payments-oncall" });
      expect(text(missing).error).toMatchObject({ field: "expected_revision" });
      expect(c.requests()).toBe(0);
    } finally {
      await c.close();
    }
  });

  it("logging: setLevel is answered; a failed call is logged with its tool, code and class, at the level asked for", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url });
    try {
      const logged: Array<{ level: string; logger?: string; data: unknown }> = [];
      const { LoggingMessageNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
      c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(n.params as never));
      await c.client.setLoggingLevel("warning");
      await c.call("get_incident", { incident_id: "not-an-id" });
      const waitFor = async (n: number) => {
        for (let i = 0; i < 100 && logged.length < n; i++) await new Promise((r) => setTimeout(r, 10));
      };
      await waitFor(1);
      expect(logged).toEqual([{ level: "warning", logger: "incidents-mcp", data: { tool: "get_incident", code: "CLIENT_INVALID_INPUT", class: "invalid_input", outcome: "rejected" } }]);
      // Asked for errors only, the next warning is not sent; a successful call is never logged.
      await c.client.setLoggingLevel("error");
      await c.call("get_incident", { incident_id: "not-an-id" });
      await c.call("get_incident", { incident_id: "INC-017" });
      await new Promise((r) => setTimeout(r, 50));
      expect(logged).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  it("malformed requests are invalid params (-32602), never an internal error", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url });
    try {
      const { CallToolResultSchema, EmptyResultSchema, ListToolsResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
      const refused = async (request: { method: string; params?: Record<string, unknown> }, schema: unknown) => {
        try {
          await c.client.request(request as never, schema as never);
        } catch (e) {
          return (e as { code?: number }).code;
        }
        return "answered";
      };
      expect(await refused({ method: "logging/setLevel", params: { level: "loud" } }, EmptyResultSchema)).toBe(-32602);
      expect(await refused({ method: "tools/call", params: { name: "get_incident", arguments: '{"incident_id":"INC-017"}' } }, CallToolResultSchema)).toBe(-32602);
      expect(await refused({ method: "tools/call", params: { arguments: {} } }, CallToolResultSchema)).toBe(-32602);
      expect(await refused({ method: "tools/list", params: { cursor: "made-up" } }, ListToolsResultSchema)).toBe(-32602);
      expect(await refused({ method: "tools/list", params: {} }, ListToolsResultSchema)).toBe("answered");
      await expect(c.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/^MCP error -32602: Unknown tool: "no_such_tool"$/);
    } finally {
      await c.close();
    }
  });

  it("stale revision ⇒ isError conflict with class and action; nothing changed", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url });
    try {
      const before = (await c.call("get_incident", { incident_id: "INC-017" })).structuredContent as { owner: string; revision: number };
      const r = await c.call("assign_incident", { incident_id: "INC-017", owner: "checkout-oncall", expected_revision: before.revision + 7 });
      expect(r.isError).toBe(true);
      expect(text(r).error).toMatchObject({ code: "REVISION_CONFLICT", class: "conflict", action: "reread_and_replan", operation: "assign_incident", outcome: "rejected" });
      expect(Object.keys(text(r).error).sort()).toEqual(["action", "class", "code", "details", "field", "message", "nextAction", "operation", "operationKey", "outcome"]);
      const after = (await c.call("get_incident", { incident_id: "INC-017" })).structuredContent;
      expect(after).toEqual(before);
    } finally {
      await c.close();
    }
  });
});

describe("compact text mode", () => {
  const line = (r: CallToolResult) => (r.content[0] as { text: string }).text;

  it("a complete page: the text alone holds every record's data and says it is complete", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url }, { text: "compact" });
    try {
      const r = await c.call("list_incidents", { status: "open", severity: "P1", service: "checkout", environment: "production", fields: ["id", "owner"] });
      const incidents = (r.structuredContent as { incidents: Array<{ id: string; owner: string }> }).incidents;
      expect(incidents.map((i) => i.id)).toEqual(["INC-017", "INC-088"]);
      // Each record is a row of JSON values under one header naming the keys.
      expect(line(r)).toContain('"incidents" (2 records, each ["id","owner"]):');
      for (const i of incidents) expect(line(r)).toContain(JSON.stringify([i.id, i.owner]));
      expect(line(r).endsWith("Complete.")).toBe(true);
      // Said once in words; the page fields are in structuredContent; no third copy in _meta.
      expect(r._meta?.["contractgen/completeness"]).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  it("a full page costs fewer tokens than its JSON, and says incomplete, why, and the exact continuation, which reads on", async () => {
    const compactServer = await connect("incidents", { baseUrl: incidents.url }, { text: "compact" });
    const jsonServer = await connect("incidents", { baseUrl: incidents.url });
    try {
      const r = await compactServer.call("list_incidents", {});
      const asJson = await jsonServer.call("list_incidents", {});
      const records = (r.structuredContent as { incidents: Array<Record<string, unknown>> }).incidents;
      expect(records).toHaveLength(40);
      for (const record of records) expect(line(r)).toContain(JSON.stringify(record.id));
      expect(countTokens(line(r))).toBeLessThan(countTokens(line(asJson)));
      const next = (r.structuredContent as { next_cursor: string }).next_cursor;
      expect(line(r)).toMatch(/\nIncomplete: more pages: call list_incidents again with the same arguments and cursor = next_cursor/);
      expect(line(r)).toContain(`(continuation: ${JSON.stringify(next)})`);
      const later = await compactServer.call("list_incidents", { cursor: next });
      expect(line(later)).toMatch(/\nIncomplete: .*earlier/);
    } finally {
      await compactServer.close();
      await jsonServer.close();
    }
  });

  it("a task states its answer and completeness; a read its fields; a preview its confirm token and expiry", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url }, { text: "compact" });
    try {
      const r = await c.call("count_incidents", { status: "open", severity: "P1", service: "checkout", environment: "production" });
      expect(line(r)).toContain('"count": 2\n"records_examined": 120');
      expect(line(r).endsWith("Complete.")).toBe(true);
      const one = await c.call("get_incident", { incident_id: "INC-088" });
      expect(line(one)).toMatch(/^"id": "INC-088"\n/);
      expect(line(one)).toContain(`"owner": ${JSON.stringify((one.structuredContent as { owner: string }).owner)}`);
    } finally {
      await c.close();
    }
    const b = await connect("billing.v2", { baseUrl: billing.url }, { text: "compact" });
    try {
      const preview = await b.call("refund_invoice", { invoice_id: "inv_1003", amount: 100 });
      const { confirm_token: token, expires_at: expires } = preview.structuredContent as { confirm_token: string; expires_at: string };
      expect(line(preview)).toContain('"invoice_id": "inv_1003"');
      expect(line(preview)).toContain(`"confirm_token": ${JSON.stringify(token)}`);
      expect(line(preview)).toContain(`"expires_at": ${JSON.stringify(expires)}`);
    } finally {
      await b.close();
    }
  });

  it("failures stay JSON with their recovery information", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url }, { text: "compact" });
    try {
      const r = await c.call("get_incident", { incident_id: "INC-999" });
      expect(r.isError).toBe(true);
      expect(text(r).error).toMatchObject({ code: "INCIDENT_NOT_FOUND", action: "verify_identifier" });
    } finally {
      await c.close();
    }
  });
});

describe("failures", () => {
  it("an unknown tool is a protocol error, not a tool result", async () => {
    const c = await connect("incidents", { baseUrl: incidents.url });
    try {
      await expect(c.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
    } finally {
      await c.close();
    }
  });

  it("an unexpected exception is an isError result with a generic message, no stack", async () => {
    const runtime = (await import(built("incidents", "mcp/runtime/server.js"))) as { createMcpServer(def: unknown): ServerModule extends { createServer(o?: unknown): infer S } ? S : never };
    const { TOOLS } = (await import(built("incidents", "mcp/tools.js"))) as { TOOLS: unknown[] };
    const failing = {
      close() {},
      getIncident() {
        const e = new Error("internal detail /secret/path.js");
        e.stack = "Error: internal detail\n    at secret (/secret/path.js:1:1)";
        throw e;
      },
    };
    const server = runtime.createMcpServer({ name: "t", version: "0", instructions: "", tools: TOOLS, createClient: () => failing });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = newClient();
    await client.connect(clientSide);
    try {
      const r = (await client.callTool({ name: "get_incident", arguments: { incident_id: "INC-017" } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r)).not.toMatch(/secret|path\.js|\bat /);
      expect(text(r).error).toMatchObject({ code: "MCP_INTERNAL", class: "internal", operation: "get_incident", outcome: "unknown" });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("writes (billing)", () => {
  it("refund preview then confirm ⇒ one refund", async () => {
    const c = await connect("billing.v2", { baseUrl: billing.url });
    try {
      const invoice = (await c.call("get_invoice", { invoice_id: "inv_1003" })).structuredContent as { id: string; refunded_cents: number };
      const refundsBefore = (billing.db.prepare("SELECT COUNT(*) AS n FROM refunds WHERE invoice_id = ?").get(invoice.id) as { n: number }).n;
      const args = { invoice_id: invoice.id, amount: 1500, expected_refunded_cents: invoice.refunded_cents };
      const preview = await c.call("refund_invoice", args);
      expect(preview.isError).toBeFalsy();
      const token = (preview.structuredContent as { confirm_token: string }).confirm_token;
      expect(token).toEqual(expect.any(String));
      expect((billing.db.prepare("SELECT COUNT(*) AS n FROM refunds WHERE invoice_id = ?").get(invoice.id) as { n: number }).n).toBe(refundsBefore);
      const refund = await c.call("refund_invoice", { ...args, dry_run: false, confirm_token: token });
      expect(refund.isError).toBeFalsy();
      expect(refund.structuredContent).toMatchObject({ invoice_id: invoice.id, amount: 1500 });
      expect((billing.db.prepare("SELECT COUNT(*) AS n FROM refunds WHERE invoice_id = ?").get(invoice.id) as { n: number }).n).toBe(refundsBefore + 1);
      const after = (await c.call("get_invoice", { invoice_id: invoice.id })).structuredContent as { refunded_cents: number };
      expect(after.refunded_cents).toBe(invoice.refunded_cents + 1500);
    } finally {
      await c.close();
    }
  });

  it("the credential never reaches a result, even in an error", async () => {
    const c = await connect("billing.v2", { baseUrl: billing.url, token: "wrong-secret-7e2a" });
    try {
      const r = await c.call("get_invoice", { invoice_id: "inv_1003" });
      expect(r.isError).toBe(true);
      expect(text(r).error).toMatchObject({ class: "unauthenticated" });
      expect(JSON.stringify(r)).not.toContain("wrong-secret-7e2a");
    } finally {
      await c.close();
    }
  });
});

describe("stdio", () => {
  it("the built mcp/main.js serves tools/list and tools/call over stdio, credential from the environment", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [built("incidents", "mcp/main.js")],
      env: { PATH: process.env.PATH ?? "", INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: incidents.url, INCIDENTS_JOURNAL: freshJournal() },
      stderr: "pipe",
    });
    const client = newClient();
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["list_incidents", "count_incidents", "get_incident", "assign_incident"]);
      const r = (await client.callTool({ name: "get_incident", arguments: { incident_id: "INC-017" } })) as CallToolResult;
      expect(r.structuredContent).toMatchObject({ id: "INC-017" });
      expect(JSON.stringify(r)).not.toContain(TOKEN);
    } finally {
      await client.close();
    }
  });

  it("a platform nothing listens for: the tool error says so and names the bin's --base-url and variable", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const served = await connectStdio("incidents", { INCIDENTS_TOKEN: TOKEN, INCIDENTS_BASE_URL: url, INCIDENTS_JOURNAL: freshJournal() });
    try {
      const r = await served.call("get_incident", { incident_id: "INC-017" });
      expect(r.isError).toBe(true);
      expect(text(r).error).toMatchObject({ code: "CLIENT_UNREACHABLE", class: "internal", action: "stop_and_surface" });
      expect(text(r).error.message).toBe(
        `get_incident: nothing is listening at ${url}: connection refused (ECONNREFUSED); nothing was sent. Start the server, or point the client at it with --base-url or INCIDENTS_BASE_URL.`,
      );
    } finally {
      await served.close();
    }
  });
});

