/**
 * MCP tools of next-link reads page one call at a time: the result's completeness carries the next
 * page's URL as its continuation, the tool takes it back in its continuation argument, and the SDK
 * client reads that page — on the platform's origin only. A second server stands for a foreign host:
 * it must never see a request, whether a page or the model names it.
 */
import { readFileSync } from "node:fs";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { continuationArgument, servedTools } from "../../src/emit/mcp/tools.js";
import { callTool, COMPLETENESS_META, type Completeness, type McpClient, type StyledPageSpec, type ToolSpec } from "../../src/mcp-runtime/server.js";
import { ContractClient, type OperationSpec, type Validator } from "../../src/runtime/client.js";
import { MemoryJournal } from "../../src/runtime/journal.js";
import { parseContract, parseContractText } from "../../src/contract/parse.js";
import { platformAndForeignHost } from "../support/recording-server.js";

const TOKEN = "sk_next_link_s3cr3t_T0k3n";
const NOTES = Array.from({ length: 5 }, (_, i) => ({ id: `n${i + 1}` }));
const ajv = new Ajv2020({ strict: false });
const compile = (schema: object): Validator => ajv.compile(schema);

/** Where the Link header of a page points for the next one (set per test); default: the platform itself. */
let nextTarget: ((base: string, page: number, size: number) => string) | null = null;
const { platform, foreign } = platformAndForeignHost((url, base) => {
  const page = Number(url.searchParams.get("page") ?? 1);
  const size = Number(url.searchParams.get("per_page") ?? 2);
  const more = page * size < NOTES.length;
  const next = more ? (nextTarget ?? ((b, p, s) => `${b}/header/notes?page=${p}&per_page=${s}`))(base, page + 1, size) : null;
  const link = [`<${base}/header/notes?page=1&per_page=${size}>; rel="first"`, ...(next ? [`<${next}>; rel="next"`] : [])].join(", ");
  return { body: NOTES.slice((page - 1) * size, page * size), headers: { link } };
}, () => {
  nextTarget = null;
});

const inputSchema = { type: "object", properties: { per_page: { type: "integer", minimum: 1 } }, additionalProperties: false };
const descriptor = (): OperationSpec => ({
  id: "list_by_link_header",
  method: "GET",
  path: "/header/notes",
  bindings: [{ field: "per_page", in: "query", name: "per_page" }],
  mutating: false,
  idempotent: "natural",
  keyField: null,
  preview: null,
  errors: [],
  pagination: { style: "next-link", nextLink: { kind: "header", header: "Link" }, itemsField: null, limitField: "per_page", limitDefault: 30, limitMax: 100, cursorField: null, nextCursorField: null, partialField: null, errorsField: null, totalField: null },
  validateInput: compile(inputSchema),
  validateOutput: compile({ type: "array", items: { type: "object", required: ["id"] } }),
  validatePreview: null,
}) as unknown as OperationSpec;

const page: StyledPageSpec = { style: "next-link", positionField: null, firstPage: 1, itemsField: null, limitField: "per_page", limitDefault: 30, nextLinkField: null, continuationArg: "next_page", partialField: null, errorsField: null };
const tool = (withDescriptor = true): ToolSpec =>
  ({
    operation: "list_by_link_header",
    name: "list_by_link_header",
    title: null,
    summary: "Notes.",
    toolset: null,
    description: "Notes.",
    inputSchema: { ...inputSchema, properties: { ...inputSchema.properties, next_page: { type: "string" } } },
    outputSchema: null,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    sdkMethod: "listByLinkHeader",
    previewMethod: null,
    dryRunField: null,
    confirmTokenField: null,
    keyField: null,
    defaultDryRun: null,
    page,
    task: null,
    validateInput: compile(inputSchema),
    ...(withDescriptor ? { descriptor: descriptor() } : {}),
  }) as ToolSpec;

const sdk = (): McpClient & { core: ContractClient } => ({
  core: new ContractClient(
    { name: "paging", version: "1.0.0", baseUrl: platform.base, baseUrlEnv: null, timeoutMs: 5000, auth: { type: "bearer", tokenEnv: "CONTRACTGEN_NEXT_LINK_TEST_TOKEN" }, taxonomy: {} },
    { token: TOKEN, journal: new MemoryJournal(), retry: { maxAttempts: 1 } },
  ),
  close() {},
});

const read = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text) as { result: Array<{ id: string }>; completeness: Completeness };
const ids = (r: CallToolResult) => read(r).result.map((n) => n.id);

describe("an MCP tool of a next-link read", () => {
  it("pages through every note, one call per page, with the continuation each result states", async () => {
    const client = sdk();
    const first = await callTool(() => client, tool(), { per_page: 2 });
    expect(ids(first)).toEqual(["n1", "n2"]);
    const c1 = read(first).completeness;
    expect(c1).toMatchObject({ complete: false, continuation: `${platform.base}/header/notes?page=2&per_page=2` });
    expect(c1.reasons.join(" ")).toMatch(/call list_by_link_header again with the same arguments and next_page/);
    expect((first._meta as Record<string, unknown>)[COMPLETENESS_META]).toEqual(c1);

    const second = await callTool(() => client, tool(), { per_page: 2, next_page: c1.continuation });
    expect(ids(second)).toEqual(["n3", "n4"]);
    const third = await callTool(() => client, tool(), { per_page: 2, next_page: read(second).completeness.continuation });
    expect(ids(third)).toEqual(["n5"]);
    const last = read(third).completeness;
    // The last page names no next one; a later page alone is still never the whole answer.
    expect(last.continuation).toBeNull();
    expect(last.reasons).toEqual([expect.stringMatching(/continues a traversal/)]);
    expect(platform.seen.map((s) => s.query.toString())).toEqual(["per_page=2", "page=2&per_page=2", "page=3&per_page=2"]);
    expect(platform.seen.every((s) => s.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("a first page that is the only one is complete", async () => {
    const result = await callTool(() => sdk(), tool(), { per_page: 10 });
    expect(ids(result)).toEqual(["n1", "n2", "n3", "n4", "n5"]);
    expect(read(result).completeness).toEqual({ complete: true, continuation: null, reasons: [] });
  });

  it("a next link to another origin is not offered as a continuation, and nothing is sent there", async () => {
    nextTarget = (_, p, s) => `${foreign.base}/header/notes?page=${p}&per_page=${s}`;
    const result = await callTool(() => sdk(), tool(), { per_page: 2 });
    const c = read(result).completeness;
    expect(c.complete).toBe(false);
    expect(c.continuation).toBeNull();
    expect(c.reasons.join(" ")).toMatch(/not followed: the next link points to another origin/);
    expect(foreign.seen).toEqual([]);
  });

  it("a continuation the model wrote itself is refused when it leaves the platform's origin: no request, no credential", async () => {
    const result = await callTool(() => sdk(), tool(), { per_page: 2, next_page: `${foreign.base}/steal` });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/invalid_input.*points outside/);
    expect(foreign.seen).toEqual([]);
    expect(platform.seen).toEqual([]);
  });

  it("a continuation that is not a string, or the operation's own input invalid, is an input error with nothing sent", async () => {
    for (const args of [{ next_page: 42 }, { next_page: "" }, { per_page: 0, next_page: `${platform.base}/header/notes?page=2` }]) {
      const result = await callTool(() => sdk(), tool(), args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect((result.content[0] as { text: string }).text).toMatch(/invalid_input/);
    }
    expect(platform.seen).toEqual([]);
  });

  it("a host without the SDK client reads first pages only, and says so rather than reading page one again", async () => {
    const host = { close() {}, listByLinkHeader: async () => NOTES.slice(0, 2) } as McpClient;
    const first = await callTool(() => host, tool(), { per_page: 2 });
    expect(read(first).completeness.reasons.join(" ")).toMatch(/only the SDK and the CLI/);
    const again = await callTool(() => host, tool(), { per_page: 2, next_page: `${platform.base}/header/notes?page=2` });
    expect(again.isError).toBe(true);
    expect((again.content[0] as { text: string }).text).toMatch(/first pages only/);
  });
});

describe("the served catalogue of next-link tools", () => {
  const model = parseContract("test/fixtures/valid/pagination-styles.yaml").model!;
  const served = new Map(servedTools(model).map(({ op, tool: t }) => [op.names.id, { op, tool: t }]));

  it("adds an optional next_page argument to next-link tools only, and tells the model how to use it", () => {
    for (const id of ["list_by_link_field", "list_by_link_header"]) {
      const { op, tool: t } = served.get(id)!;
      expect(continuationArgument(op)).toBe("next_page");
      const props = t.inputSchema.properties as Record<string, unknown>;
      expect(props.next_page).toMatchObject({ type: "string" });
      expect((t.inputSchema.required as string[] | undefined) ?? []).not.toContain("next_page");
      // Said on the argument; each page's result says when to use it (its completeness reasons).
      expect(props.next_page).toMatchObject({ description: expect.stringMatching(/previous result's continuation/) });
    }
    const byPage = served.get("list_by_page")!;
    expect(continuationArgument(byPage.op)).toBeNull();
    expect(byPage.tool.inputSchema.properties as Record<string, unknown>).not.toHaveProperty("next_page");
  });

  it("never takes a name the operation's input already uses", () => {
    const text = readFixture().replace("per_page: { type: integer, minimum: 1, maximum: 100 }", "per_page: { type: integer, minimum: 1, maximum: 100 }\n        next_page: { type: string }");
    const m = parseContractTextOrThrow(text);
    const op = m.operations.find((o) => o.names.id === "list_by_link_header")!;
    expect(continuationArgument(op)).toBe("next_page_2");
  });
});

const readFixture = () => readFileSync("test/fixtures/valid/pagination-styles.yaml", "utf8");
function parseContractTextOrThrow(text: string) {
  const r = parseContractText("pagination-styles.yaml", text);
  if (!r.model) throw new Error(r.diagnostics.map((d) => d.message).join("\n"));
  return r.model;
}
