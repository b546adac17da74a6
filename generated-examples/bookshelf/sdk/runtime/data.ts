import { readFileSync } from "node:fs";
import type { OperationSpec, Validator } from "./client.js";
import { linkSchemaDefs } from "./schema-defs.js";
import { type SchemaData, validatorTable } from "./validation.js";

/**
 * The package's contract data: `sdk/contract.json`, beside this runtime's folder (`dist/sdk/` once
 * built: the build script copies it). It holds what the MCP server and the CLI describe (tools,
 * toolsets, commands) as plain JSON, read once at start, so that tsc never infers types over
 * megabytes of literals and the data exists once per package.
 */
const DATA_FILE = new URL("../contract.json", import.meta.url);

/** The operation descriptors (`sdk/operations.json`): small, so a client never parses contract.json. */
const OPERATIONS_FILE = new URL("../operations.json", import.meta.url);

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

const VALIDATOR_SLOTS = ["validateInput", "validateOutput", "validatePreview"] as const;

/**
 * The descriptor of each operation by id: `sdk/operations.json` read once, each validator name
 * replaced by its validator (compiled from `sdk/schemas.json` when it first runs). A missing
 * operation or schema means the generated files disagree, which only regenerating fixes.
 */
export function operationTable(): (id: string) => OperationSpec {
  // A Map: operation ids are contract names, never plain-object keys.
  const table = new Map(Object.entries(JSON.parse(readFileSync(OPERATIONS_FILE, "utf8")) as Record<string, Record<string, unknown>>));
  const validator = validatorTable(() => JSON.parse(readFileSync(SCHEMAS_FILE, "utf8")) as SchemaData, SCHEMAS_FILE.pathname);
  const resolve = (name: unknown): Validator | null => (name === null ? null : validator(String(name)));
  // One spec object per operation, however often it is asked for (the SDK's exports and the MCP tools share them).
  const specs = new Map<string, OperationSpec>();
  return (id) => {
    const known = specs.get(id);
    if (known !== undefined) return known;
    const record = table.get(id);
    if (record === undefined) throw new Error(`${OPERATIONS_FILE.pathname} has no operation "${id}": regenerate the package.`);
    const spec: Record<string, unknown> = { id, ...record };
    for (const slot of VALIDATOR_SLOTS) spec[slot] = resolve(record[slot]);
    specs.set(id, spec as unknown as OperationSpec);
    return spec as unknown as OperationSpec;
  };
}
