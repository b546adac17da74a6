import { readFileSync } from "node:fs";
import type { OperationSpec, Validator } from "./client.js";
import type { AuthAlternatives } from "./credentials.js";
import type { PageShape } from "./pagination.js";
import { linkSchemaDefs, StoredSchemas } from "./schema-defs.js";
import type { WireBinding } from "./wire-request.js";
import { type SchemaData, validatorTable } from "./validation.js";

/**
 * The package's contract data: `sdk/contract.json`, beside this runtime's folder (`dist/sdk/` once
 * built: the build script copies it). It holds what the MCP server and the CLI describe (tools,
 * toolsets, commands) as plain JSON, read once at start, so that tsc never infers types over
 * megabytes of literals and the data exists once per package.
 */
const DATA_FILE = new URL("../contract.json", import.meta.url);

/** The package's `sdk/` folder: the operation table (`operations.json`) is small, so a client never parses contract.json. */
const SDK_DIR = new URL("../", import.meta.url);

/** The schemas the validators are compiled from (`sdk/schemas.json`), read when the first operation is. */
const SCHEMAS_FILE = new URL("../schemas.json", import.meta.url);

let data: Readonly<Record<string, unknown>> | undefined;

/** One section of the contract data; the generated module that reads it gives it its type. */
export function contractData(section: "tools" | "toolsets" | "commands"): unknown {
  data ??= linkToolSchemas(JSON.parse(readFileSync(DATA_FILE, "utf8")) as Record<string, unknown>);
  const value = Object.hasOwn(data, section) ? data[section] : undefined;
  if (value === undefined) throw new Error(`${DATA_FILE.pathname} has no "${section}" section: regenerate the package.`);
  return value;
}

/** The tools' schemas with their `$defs` entries put back from `schemaDefs` (each stored once). */
function linkToolSchemas(raw: Record<string, unknown>): Record<string, unknown> {
  const defs = Array.isArray(raw.schemaDefs) ? (raw.schemaDefs as unknown[]) : [];
  if (!Array.isArray(raw.tools)) return raw;
  const tools = (raw.tools as Array<Record<string, unknown>>).map((tool) => ({
    ...tool,
    inputSchema: linkSchemaDefs(tool.inputSchema, defs, DATA_FILE.pathname),
    outputSchema: linkSchemaDefs(tool.outputSchema, defs, DATA_FILE.pathname),
  }));
  return { ...raw, tools };
}

/** One precondition: the input field, the target property it `compares` with, and the error a stale one fails with. */
export interface PreconditionRecord {
  readonly kind: "revision" | "value";
  readonly field: string;
  readonly compares: string;
  readonly required: boolean;
  readonly error: string;
}

/**
 * One operation of the package's operation table (`sdk/operations.json`), as the generator writes it:
 * how it travels (method, path, bindings…), what it promises (idempotency, preview, preconditions,
 * paging, projection, task scope, reversibility) and which stored schemas (sdk/schemas.json) check
 * its input, output and preview. The SDK, the MCP host and the contract tests all read these records.
 */
/**
 * A filter as the operation table keeps it: property and match null when the contract gives only the
 * field's name; `ends` only for a range (which ends include their value), `bound` for a single-bound range.
 */
export interface FilterRecord {
  readonly field: string;
  readonly property: string | null;
  readonly match: "equals" | "contains" | "prefix" | "range" | null;
  readonly bound: "from" | "to" | null;
  readonly ends: { readonly fromInclusive: boolean; readonly toInclusive: boolean } | null;
}

export interface OperationRecord {
  readonly method: OperationSpec["method"];
  readonly path: string;
  readonly bindings: readonly WireBinding[];
  readonly successStatuses: readonly number[];
  readonly bodyField?: string;
  readonly contentType?: string;
  readonly bodyRequired?: boolean;
  readonly accept?: string;
  readonly auth?: AuthAlternatives;
  readonly mutating: boolean;
  readonly idempotent: "natural" | "key" | "none";
  readonly keyField: string | null;
  readonly keyRetentionMs?: number;
  /** Who shares a key's journal entry: the caller, the tenant or everyone (with the key). */
  readonly keyScope?: "caller" | "tenant" | "global";
  /** The error changed parameters under a used key fail with; null: the platform's generic conflict. */
  readonly keyMismatchError?: string | null;
  /**
   * Whether the platform refuses an execution without a key (absent: true, a package generated before
   * the field). false: a key-less call is a separate intent; the SDK, CLI and MCP server still send one.
   */
  readonly keyRequired?: boolean;
  readonly preview: {
    readonly dryRunField: string;
    readonly confirmTokenField: string;
    readonly defaultDryRun: boolean;
    readonly ttlMs: number;
    readonly singleUse: boolean;
    readonly invalidTokenError: string | null;
    readonly expiresAtField: string | null;
  } | null;
  readonly pagination: (PageShape & { readonly limitField: string | null; readonly limitMax: number | null; readonly limitDefault: number | null }) | null;
  readonly errors: readonly string[];
  readonly scopes: readonly string[];
  /** The read operation whose output is this operation's target; null when none. */
  readonly readWith: string | null;
  readonly destructive: boolean;
  /** The operation that undoes this one; null when none. */
  readonly undo: string | null;
  readonly preconditions: readonly PreconditionRecord[];
  /** The field every mutation of the target must advance; null when the record has none. */
  readonly revisionField: string | null;
  readonly projection: { readonly field: string; readonly selectable: readonly string[]; readonly identity: readonly string[] } | null;
  /** The input fields that narrow the result set, each with its meaning when the contract gives one. */
  readonly filters: readonly FilterRecord[];
  readonly task: { readonly recordsExaminedField: string; readonly completeField: string; readonly continuationField: string | null; readonly answerField: string | null } | null;
  readonly validateInput: string;
  readonly validateOutput: string;
  readonly validatePreview: string | null;
  /** Where a generated skeleton keeps the operation's handler (`mcp/handlers/<name>.ts`): named when its stub answers. */
  readonly handlerFile?: string;
}

/**
 * The operation table of the package whose `sdk/` folder is `sdkDir` (default: this runtime's
 * package), by operation id, read once per file. A Map: operation ids are contract names, never
 * plain-object keys.
 */
export function operationRecords(sdkDir: URL = SDK_DIR): ReadonlyMap<string, OperationRecord> {
  const file = new URL("operations.json", sdkDir);
  let records = recordsByFile.get(file.href);
  if (records === undefined) {
    records = new Map(Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, OperationRecord>));
    recordsByFile.set(file.href, records);
  }
  return records;
}

/** One operation's record; a missing one means the generated files disagree, which only regenerating fixes. */
export function operationRecord(records: ReadonlyMap<string, OperationRecord>, id: string, sdkDir: URL = SDK_DIR): OperationRecord {
  const record = records.get(id);
  if (record === undefined) throw new Error(`${new URL("operations.json", sdkDir).pathname} has no operation "${id}": regenerate the package.`);
  return record;
}

/** The stored schemas of the package whose `sdk/` folder is `sdkDir`, read once per file, on first use. */
export function storedSchemas(sdkDir: URL = SDK_DIR): StoredSchemas {
  const file = new URL("schemas.json", sdkDir);
  let schemas = schemasByFile.get(file.href);
  if (schemas === undefined) {
    schemas = StoredSchemas.read(file);
    schemasByFile.set(file.href, schemas);
  }
  return schemas;
}

const recordsByFile = new Map<string, ReadonlyMap<string, OperationRecord>>();
const schemasByFile = new Map<string, StoredSchemas>();

const VALIDATOR_SLOTS = ["validateInput", "validateOutput", "validatePreview"] as const;

/**
 * The descriptor of each operation by id: its record in the operation table, each validator name
 * replaced by its validator (compiled from `sdk/schemas.json` when it first runs).
 */
export function operationTable(): (id: string) => OperationSpec {
  const records = operationRecords();
  const validator = validatorTable(() => JSON.parse(readFileSync(SCHEMAS_FILE, "utf8")) as SchemaData, SCHEMAS_FILE.pathname);
  const resolve = (name: unknown): Validator | null => (name === null ? null : validator(String(name)));
  // One spec object per operation, however often it is asked for (the SDK's exports and the MCP tools share them).
  const specs = new Map<string, OperationSpec>();
  return (id) => {
    const known = specs.get(id);
    if (known !== undefined) return known;
    const record = operationRecord(records, id);
    const spec: Record<string, unknown> = { id, ...record };
    for (const slot of VALIDATOR_SLOTS) spec[slot] = resolve(record[slot]);
    specs.set(id, spec as unknown as OperationSpec);
    return spec as unknown as OperationSpec;
  };
}
