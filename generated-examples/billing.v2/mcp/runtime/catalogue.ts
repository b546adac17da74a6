/**
 * Which tools a generated MCP server offers and how: the `--toolsets` / `--tools` allow-lists, and
 * progressive discovery (three meta tools — search, describe, call — in place of the whole catalogue,
 * so what a client loads up front does not grow with the contract).
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { OperationRecord } from "../../sdk/runtime/data.js";
import type { JsonObject, ToolSpec } from "./server.js";

/** A declared toolset (generated from the contract's `toolsets`). */
export interface ToolsetSpec {
  readonly name: string;
  readonly description: string;
}

/** What the server is asked to offer. */
export interface CatalogueOptions {
  /** Allow-list of toolsets: their tools are served. */
  readonly toolsets?: readonly string[];
  /** Allow-list of tools by name (added to the tools of `toolsets`). */
  readonly tools?: readonly string[];
  /** Serve the three discovery tools instead of one tool per operation. */
  readonly discovery?: boolean;
  /**
   * Most tokens the listed tools may cost (estimated from their JSON); a larger catalogue is served
   * in discovery mode instead, and `notice` says so. Default: the contract's `budget.catalogTokens`,
   * else DEFAULT_CATALOGUE_TOKENS.
   */
  readonly maxCatalogueTokens?: number;
  /** Told, once at start, when the catalogue is served in discovery mode because it is over its limit. */
  readonly notice?: (line: string) => void;
}

/**
 * The catalogue a server lists directly at most, in tokens, when the contract sets no budget: past
 * it a model's context holds little else (and past a few megabytes clients drop the message).
 */
export const DEFAULT_CATALOGUE_TOKENS = 100_000;

/** JSON characters per o200k token in served catalogues (measured 3.9–4.3 on the examples, GitHub and Stripe). */
const CHARS_PER_TOKEN = 4;

/** A startup error of the catalogue options (unknown names): the bin prints `message` and exits 2. */
export class CatalogueError extends Error {
  constructor(
    readonly code: "MCP_UNKNOWN_TOOLSET" | "MCP_UNKNOWN_TOOL" | "MCP_NO_CODE_MODE",
    message: string,
  ) {
    super(message);
    this.name = "CatalogueError";
  }
}

/** What a client assumes of a hint the server does not send (the MCP specification's defaults). */
const HINT_DEFAULTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;

/**
 * The hints that say something: a hint equal to its default is left out, and so are the destructive
 * and idempotent hints of a read-only tool (the specification gives them meaning only for tools that
 * write). Clients read the same behaviour from fewer tokens.
 */
export function servedAnnotations(hints: ToolSpec["annotations"]): NonNullable<Tool["annotations"]> {
  const out: Record<string, boolean> = {};
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
    if (hints.readOnlyHint && (key === "destructiveHint" || key === "idempotentHint")) continue;
    if (hints[key] !== HINT_DEFAULTS[key]) out[key] = hints[key];
  }
  return out;
}

/** The tools/list entry of a descriptor: its served schemas and the hints that differ from the defaults. */
export function toolEntry(spec: ToolSpec): Tool {
  const annotations = servedAnnotations(spec.annotations);
  return {
    name: spec.name,
    ...(spec.title !== null ? { title: spec.title } : {}),
    description: spec.description,
    inputSchema: spec.inputSchema as Tool["inputSchema"],
    ...(spec.outputSchema ? { outputSchema: spec.outputSchema as NonNullable<Tool["outputSchema"]> } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

/** Names for a message: quoted (they may come from a command line), at most `max` of them. */
function nameList(names: readonly string[], max = 50): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, max).map((n) => JSON.stringify(n)).join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/**
 * The tools the allow-lists let through, in catalogue order. No allow-list: every tool. Both: the
 * union (a toolset enables its tools, `tools` enables single ones). Unknown names are an error.
 */
export function selectTools(tools: readonly ToolSpec[], declared: readonly ToolsetSpec[] | undefined, options: CatalogueOptions): ToolSpec[] {
  const toolsets = options.toolsets ?? [];
  const named = options.tools ?? [];
  if (options.toolsets === undefined && options.tools === undefined) return [...tools];
  // Declared toolsets, plus any a tool names (a definition built by hand may not declare them).
  const validSets = [...new Set([...(declared ?? []).map((t) => t.name), ...tools.flatMap((t) => (t.toolset === null ? [] : [t.toolset]))])];
  const unknownSets = toolsets.filter((s) => !validSets.includes(s));
  if (unknownSets.length > 0) {
    throw new CatalogueError("MCP_UNKNOWN_TOOLSET", `Unknown toolset${unknownSets.length > 1 ? "s" : ""} ${nameList(unknownSets, 10)} in --toolsets. Valid toolsets: ${nameList(validSets)}.`);
  }
  const byName = new Set(tools.map((t) => t.name));
  const unknownTools = named.filter((n) => !byName.has(n));
  if (unknownTools.length > 0) {
    throw new CatalogueError("MCP_UNKNOWN_TOOL", `Unknown tool${unknownTools.length > 1 ? "s" : ""} ${nameList(unknownTools, 10)} in --tools. Valid tools: ${nameList(tools.map((t) => t.name))}.`);
  }
  const sets = new Set(toolsets);
  const names = new Set(named);
  return tools.filter((t) => names.has(t.name) || (t.toolset !== null && sets.has(t.toolset)));
}

/** Runs a selected tool (validation, SDK call, result shaping): the server's direct-call path. */
export type RunTool = (spec: ToolSpec, args: JsonObject) => Promise<CallToolResult>;

/** What the server lists and how it answers a tools/call by name (undefined: not a tool it offers). */
export interface Catalogue {
  readonly listed: readonly Tool[];
  /** Whether the three discovery tools are served (asked for, or the catalogue was over its limit). */
  readonly discovery: boolean;
  lookup(name: string): ((args: JsonObject) => Promise<CallToolResult>) | undefined;
}

/** The catalogue of a server: the selected tools directly, or the three discovery tools over them. */
export function buildCatalogue(tools: readonly ToolSpec[], declared: readonly ToolsetSpec[] | undefined, options: CatalogueOptions, run: RunTool, budget: number | null = null): Catalogue {
  const selected = selectTools(tools, declared, options);
  if (options.discovery) return discoveryCatalogue(selected, run);
  const direct = directCatalogue(selected, run);
  // A catalogue no model can use (or no client can take) is never sent: the server discovers instead.
  const limit = options.maxCatalogueTokens ?? budget ?? DEFAULT_CATALOGUE_TOKENS;
  const estimate = Math.ceil(JSON.stringify({ tools: direct.listed }).length / CHARS_PER_TOKEN);
  if (estimate <= limit) return direct;
  const source = options.maxCatalogueTokens !== undefined ? "--max-catalogue-tokens" : budget !== null ? "the contract's budget.catalogTokens" : "the default limit";
  options.notice?.(
    `the ${selected.length} tools cost about ${estimate} tokens, over ${source} of ${limit}: serving discovery mode (search_tools, describe_tool, call_tool) instead. Narrow the catalogue with --toolsets or --tools, or raise --max-catalogue-tokens.`,
  );
  return discoveryCatalogue(selected, run);
}

function directCatalogue(selected: readonly ToolSpec[], run: RunTool): Catalogue {
  // Tool names come from the contract: a Map, never a plain-object key.
  const byName = new Map(selected.map((t) => [t.name, t]));
  const listed = selected.map(toolEntry);
  return {
    listed,
    discovery: false,
    lookup(name) {
      const spec = byName.get(name);
      return spec ? (args) => run(spec, args) : undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Progressive discovery

export const SEARCH_TOOL = "search_tools";
export const DESCRIBE_TOOL = "describe_tool";
export const CALL_TOOL = "call_tool";

/** Most results one search returns (a page; the result says whether there are more). */
const SEARCH_MAX = 50;
const SEARCH_DEFAULT = 20;
/** Toolset names are written into the search tool's description only while they stay this short. */
const TOOLSET_NAMES_MAX_CHARS = 240;

function compact(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** A failure of a meta tool's own arguments, shaped like every other tool failure. */
function metaError(operation: string, field: string, message: string, details: unknown = null): CallToolResult {
  const error = { code: "MCP_INVALID_ARGUMENTS", class: "invalid_input", action: "fix_field", message, field, details, operation, outcome: "rejected", operationKey: null, nextAction: "fix_field" };
  return { isError: true, content: [{ type: "text", text: compact({ error }) }] };
}

function own(input: JsonObject, field: string): unknown {
  return Object.prototype.hasOwnProperty.call(input, field) ? input[field] : undefined;
}

/** Lower-case words of a query or of a tool's text (`list_incidents` → list, incidents). */
function queryWords(text: string): string[] {
  return [...new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0))].slice(0, 20);
}

interface Indexed {
  readonly spec: ToolSpec;
  readonly name: string;
  readonly heading: string;
  readonly body: string;
}

/** Matching tools, best first: a word in the name counts most, then the title or summary, then the description. */
function search(index: readonly Indexed[], query: string, toolset: string | undefined): ToolSpec[] {
  const words = queryWords(query);
  const scored: Array<{ spec: ToolSpec; score: number; at: number }> = [];
  index.forEach((entry, at) => {
    if (toolset !== undefined && entry.spec.toolset !== toolset) return;
    let score = words.length === 0 ? 1 : 0;
    for (const w of words) score += entry.name.includes(w) ? 4 : entry.heading.includes(w) ? 2 : entry.body.includes(w) ? 1 : 0;
    if (score > 0) scored.push({ spec: entry.spec, score, at });
  });
  return scored.sort((a, b) => b.score - a.score || a.at - b.at).map((s) => s.spec);
}

/** The honest annotations of `call_tool`: what the most consequential tool it can reach may do. */
function callAnnotations(selected: readonly ToolSpec[]): Tool["annotations"] {
  return {
    readOnlyHint: selected.every((t) => t.annotations.readOnlyHint),
    destructiveHint: selected.some((t) => t.annotations.destructiveHint),
    idempotentHint: selected.every((t) => t.annotations.idempotentHint),
    openWorldHint: selected.some((t) => t.annotations.openWorldHint),
  };
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The three meta tools' tools/list entries (fixed text: their size does not depend on the contract). */
export function discoveryTools(selected: readonly ToolSpec[]): Tool[] {
  const toolsets = [...new Set(selected.flatMap((t) => (t.toolset === null ? [] : [t.toolset])))];
  const setNames = toolsets.join(", ");
  const toolsetHint =
    toolsets.length === 0 ? "" : setNames.length <= TOOLSET_NAMES_MAX_CHARS ? ` Toolsets: ${setNames}.` : " Each result names its tool's toolset.";
  return [
    {
      name: SEARCH_TOOL,
      title: "Search tools",
      description: `Find the tools this server offers: the names and one-line summaries of the tools whose name, title or description contain the query's words, best match first, at most ${SEARCH_MAX} per call. An empty query lists every tool. Then call ${DESCRIBE_TOOL} for a tool's arguments and ${CALL_TOOL} to run it.${toolsetHint}`,
      inputSchema: {
        type: "object",
        additionalProperties: false,
        properties: {
          query: { type: "string", maxLength: 500, description: "Words describing the task, e.g. \"refund invoice\"." },
          toolset: { type: "string", maxLength: 200, description: "Only tools of this toolset." },
          limit: { type: "integer", minimum: 1, maximum: SEARCH_MAX, default: SEARCH_DEFAULT },
          offset: { type: "integer", minimum: 0, default: 0, description: "Skip this many results (from next_offset)." },
        },
      },
      annotations: { ...READ_ONLY },
    },
    {
      name: DESCRIBE_TOOL,
      title: "Describe a tool",
      description: `A tool's definition, as a tools/list entry: its description, inputSchema and annotations. Read it before ${CALL_TOOL}.`,
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["name"],
        properties: { name: { type: "string", maxLength: 200, description: `A tool name from ${SEARCH_TOOL}.` } },
      },
      annotations: { ...READ_ONLY },
    },
    {
      name: CALL_TOOL,
      title: "Call a tool",
      description: `Run a tool by name with its arguments (as ${DESCRIBE_TOOL} gives them): the arguments are validated first and the result, or the isError failure, is exactly what calling the tool directly returns. It may change data: check the tool's annotations.`,
      inputSchema: {
        type: "object",
        additionalProperties: false,
        required: ["name"],
        properties: {
          name: { type: "string", maxLength: 200, description: "The tool to run." },
          arguments: { type: "object", description: "The tool's arguments; omitted means {}." },
        },
      },
      annotations: callAnnotations(selected),
    },
  ];
}

function discoveryCatalogue(selected: readonly ToolSpec[], run: RunTool): Catalogue {
  const byName = new Map(selected.map((t) => [t.name, t]));
  const index: Indexed[] = selected.map((spec) => ({
    spec,
    name: spec.name.toLowerCase(),
    heading: `${spec.title ?? ""} ${spec.summary} ${spec.toolset ?? ""}`.toLowerCase(),
    body: spec.description.toLowerCase(),
  }));
  const toolsets = new Set(selected.flatMap((t) => (t.toolset === null ? [] : [t.toolset])));
  const unknownTool = (operation: string, name: string) =>
    metaError(operation, "name", `No tool named ${JSON.stringify(name).slice(0, 200)} is offered here. ${SEARCH_TOOL} lists the tool names.`);

  const handlers = new Map<string, (args: JsonObject) => Promise<CallToolResult>>([
    [
      SEARCH_TOOL,
      async (args) => {
        const query = own(args, "query");
        const toolset = own(args, "toolset");
        const limit = own(args, "limit") ?? SEARCH_DEFAULT;
        const offset = own(args, "offset") ?? 0;
        if (query !== undefined && (typeof query !== "string" || query.length > 500)) return metaError(SEARCH_TOOL, "query", "query must be a string of at most 500 characters.");
        if (toolset !== undefined && (typeof toolset !== "string" || !toolsets.has(toolset))) {
          const valid = [...toolsets].slice(0, 50).map((s) => JSON.stringify(s)).join(", ") || "(none)";
          return metaError(SEARCH_TOOL, "toolset", `Unknown toolset. Toolsets: ${valid}.`);
        }
        if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > SEARCH_MAX) return metaError(SEARCH_TOOL, "limit", `limit must be an integer from 1 to ${SEARCH_MAX}.`);
        if (!Number.isInteger(offset) || (offset as number) < 0) return metaError(SEARCH_TOOL, "offset", "offset must be a non-negative integer.");
        const found = search(index, (query as string | undefined) ?? "", toolset as string | undefined);
        const start = offset as number;
        const page = found.slice(start, start + (limit as number));
        const next = start + page.length < found.length ? start + page.length : null;
        const result = {
          tools: page.map((t) => ({ name: t.name, toolset: t.toolset, summary: t.summary })),
          total: found.length,
          complete: next === null && start === 0,
          next_offset: next,
        };
        const reasons = [
          ...(next !== null ? [`more matches: call ${SEARCH_TOOL} again with the same arguments and offset = ${next}`] : []),
          ...(start > 0 ? ["this page continues a search: the answer is this page with the earlier ones"] : []),
        ];
        // Once, as text: the page's own fields and its completeness in words (no structured or _meta copy).
        return { content: [{ type: "text", text: compact(reasons.length > 0 ? { ...result, incomplete: reasons } : result) }] };
      },
    ],
    [
      DESCRIBE_TOOL,
      async (args) => {
        const name = own(args, "name");
        if (typeof name !== "string") return metaError(DESCRIBE_TOOL, "name", "name must be a tool name (a string).");
        const spec = byName.get(name);
        if (!spec) return unknownTool(DESCRIBE_TOOL, name);
        // What the model needs to call it, once, as text (the output schema is for a client validating
        // the tool's own results; through call_tool nothing validates them against it).
        const { outputSchema: _output, ...tool } = toolEntry(spec);
        return { content: [{ type: "text", text: compact({ tool }) }] };
      },
    ],
    [
      CALL_TOOL,
      async (args) => {
        const name = own(args, "name");
        const inner = own(args, "arguments") ?? {};
        if (typeof name !== "string") return metaError(CALL_TOOL, "name", "name must be a tool name (a string).");
        const spec = byName.get(name);
        if (!spec) return unknownTool(CALL_TOOL, name);
        if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return metaError(CALL_TOOL, "arguments", "arguments must be an object.");
        // The direct path itself: the same validation, the same result or failure.
        return run(spec, inner as JsonObject);
      },
    ],
  ]);
  return { listed: discoveryTools(selected), discovery: true, lookup: (name) => handlers.get(name) };
}

/** What a tool's operation promises, which the operation table (sdk/operations.json) holds: not stored with the tool. */
export type ToolFacts = "dryRunField" | "confirmTokenField" | "keyField" | "defaultDryRun" | "page" | "task";

/** What a tool's operation promises, from its record (the generator's catalogue reads it through here too). */
export function toolFacts(record: OperationRecord, continuationArg: string | null): Pick<ToolSpec, ToolFacts> {
  return {
    dryRunField: record.preview?.dryRunField ?? null,
    confirmTokenField: record.preview?.confirmTokenField ?? null,
    keyField: record.idempotent === "key" ? record.keyField : null,
    defaultDryRun: record.preview ? record.preview.defaultDryRun : null,
    page: toolPage(record, continuationArg),
    task: record.task ? { completeField: record.task.completeField, continuationField: record.task.continuationField } : null,
  };
}

/** What the server needs to state a page's completeness, from the operation's paging (cursor keeps its original shape). */
function toolPage(record: OperationRecord, continuationArg: string | null): ToolSpec["page"] {
  const p = record.pagination;
  if (p === null) return null;
  if (p.style === undefined || p.style === "cursor") return { cursorField: p.cursorField!, nextCursorField: p.nextCursorField!, partialField: p.partialField, errorsField: p.errorsField };
  return {
    style: p.style,
    positionField: p.style === "page" ? (p.pageField ?? null) : p.style === "offset" ? (p.offsetField ?? null) : null,
    firstPage: p.firstPage ?? 1,
    itemsField: p.itemsField,
    limitField: p.limitField,
    limitDefault: p.limitDefault,
    nextLinkField: p.nextLink?.kind === "field" ? p.nextLink.field : null,
    ...(p.style === "next-link" ? { continuationArg } : {}),
    partialField: p.partialField,
    errorsField: p.errorsField,
  };
}
