/**
 * The contract host behind a generated MCP server (skeleton mode): the server calls the host the way
 * it calls the SDK client in adapter mode — one method per operation, named as on the client — and
 * the host runs the platform team's handler with the contract's behaviour around it (validation,
 * idempotency journal, preview/confirm tokens, preconditions, projection, error envelope). Host
 * failures come back as the SDK's ContractError, so the server shapes them exactly like the SDK's.
 */
import type { McpClient, ToolSpec } from "../mcp-runtime/server.js";
import { ContractError, errorForClass, type ErrorClass, type RecoveryAction } from "../runtime/errors.js";
import { traverse, type TraversalBounds } from "../runtime/pagination.js";
import { ContractHost, type Credential, type Handlers, makeCaller, newRequestId } from "./contract-host.js";
import type { HostContract, HostOperation } from "./contract.js";
import { FALLBACK_ERRORS } from "./errors.js";
import type { Database } from "./sqlite.js";
import { openHostStore } from "./store.js";

export interface HostedOptions {
  /**
   * Where the host keeps its idempotency journal, confirm tokens and cursor secret: a SQLite file
   * path, an open database, ":memory:" (the default; nothing survives a restart), or a postgres://
   * URL that replicas share. Handlers reach it as `ctx.db` (SQLite) or `ctx.sql` (PostgreSQL).
   */
  readonly database?: string | Database;
  /** Who the MCP client acts as: its id scopes idempotency keys and confirm tokens. Default: "mcp", every scope. */
  readonly caller?: Credential;
  /** The platform clock (tests move it to expire tokens and keys). */
  readonly now?: () => Date;
  /** Where unexpected handler failures are reported (stderr by default; never stdout, which carries MCP). */
  readonly log?: (line: string) => void;
}

/** The recovery action of a host fallback code (the contract's own codes carry theirs). */
const ACTION_OF_CLASS: Readonly<Record<ErrorClass, RecoveryAction>> = {
  invalid_input: "fix_field",
  not_found: "verify_identifier",
  conflict: "reread_and_replan",
  permission: "stop_and_surface",
  unauthenticated: "reauthenticate",
  rate_limited: "retry_after",
  transient: "retry_same_key",
  internal: "stop_and_surface",
};

/** The host's error envelope as the SDK's typed error. */
function contractError(contract: HostContract, op: HostOperation, status: number, body: string): ContractError {
  let envelope: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (parsed.error !== null && typeof parsed.error === "object") envelope = parsed.error as Record<string, unknown>;
  } catch {
    // Not an envelope: reported below as an internal failure.
  }
  const code = typeof envelope.code === "string" ? envelope.code : "INTERNAL";
  const declared = contract.errors.find((e) => e.code === code);
  const errorClass = declared?.class ?? (Object.hasOwn(FALLBACK_ERRORS, code) ? FALLBACK_ERRORS[code]!.class : "internal");
  return errorForClass({
    code,
    errorClass,
    action: declared?.action ?? ACTION_OF_CLASS[errorClass],
    message: typeof envelope.message === "string" ? envelope.message : `${op.names.id} failed with ${code}.`,
    field: typeof envelope.field === "string" ? envelope.field : null,
    operation: op.names.id,
    operationId: typeof envelope.operationId === "string" ? envelope.operationId : null,
    // The host answers every failure before or inside a rolled-back transaction.
    outcome: envelope.outcome === "rejected" ? "rejected" : "unknown",
    status,
    details: envelope.details ?? null,
  });
}

/**
 * An in-process client of a ContractHost with the generated SDK client's method names (from the
 * tool descriptors), for `McpDefinition.createClient`.
 */
export function hostClient(contract: HostContract, handlers: Handlers, tools: readonly ToolSpec[], options: HostedOptions = {}): McpClient {
  const store = openHostStore(options.database ?? ":memory:");
  // No wire between this client and the host: the host answers in its envelope, which carries the most
  // (operation id, outcome, details), whatever format the platform's HTTP errors take.
  const { errorFormat: _wireFormat, ...transport } = contract.transport;
  const host = new ContractHost({
    model: { ...contract, transport },
    handlers,
    store: store.store,
    credentials: new Map(),
    ...(options.now ? { now: options.now } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const caller = makeCaller(options.caller ?? { caller: "mcp", scopes: ["*"] });
  const operations = new Map(contract.operations.map((op) => [op.names.id, op]));

  const invoke = async (op: HostOperation, input: Readonly<Record<string, unknown>>): Promise<unknown> => {
    const response = await host.invoke({ operation: op, input, caller, requestId: newRequestId() });
    if (response.status >= 200 && response.status < 300) return JSON.parse(response.body) as unknown;
    throw contractError(contract, op, response.status, response.body);
  };

  // Method names come from the contract: an object without a prototype, so no name meets an inherited member.
  const client = Object.create(null) as Record<string, unknown>;
  for (const tool of tools) {
    const op = operations.get(tool.operation);
    if (!op) throw new Error(`The tool ${tool.name} names ${tool.operation}, which is not an operation of ${contract.name}.`);
    const preview = op.preview;
    // The execution method leaves nothing to a default dry run (as the SDK client's does).
    client[tool.sdkMethod] = (input: Readonly<Record<string, unknown>>) =>
      invoke(op, preview && input[preview.dryRunField] === undefined ? { ...input, [preview.dryRunField]: false } : input);
    if (tool.previewMethod !== null && preview) {
      client[tool.previewMethod] = (input: Readonly<Record<string, unknown>>) => invoke(op, { ...input, [preview.dryRunField]: true });
    }
    // The bounded traversal, as the SDK client's: pages read through the host, completeness reported.
    const paging = tool.descriptor?.pagination;
    if (tool.allMethod && paging) {
      client[tool.allMethod] = (input: Readonly<Record<string, unknown>>, bounds: TraversalBounds) =>
        traverse(paging, input, bounds, async (pageInput, url) => {
          // No wire in process: a next link names a URL only an HTTP client can read.
          if (url !== null) throw new Error(`${op.names.id}: the next page is a link, which only a client over HTTP follows`);
          return invoke(op, pageInput);
        });
    }
  }
  client.close = store.close;
  return client as unknown as McpClient;
}

