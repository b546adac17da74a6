import type { CommandSpec, FlagSpec, ScalarType } from "../../cli-runtime/program.js";
import { baseUrlEnvOf, kebabCase } from "../../model/naming.js";
import { authEnvVars, type ContractModel, type OperationModel } from "../../model/types.js";
import { isSchemaObject, type SchemaObject } from "../../contract/schema-walk.js";
import { clientClassName, clientMethodNames } from "../sdk/names.js";
import { effectsLine, errorsLine } from "../shared/describe.js";
import { generatedHeader, literal, literalBlock } from "../shared/literals.js";

/**
 * Flags every generated CLI defines itself — global ones (commander's help and version included;
 * commander reads them after a command too) and the behaviour flags of commands — whether or not a
 * given command uses them. An input field never takes one of these.
 */
export const RESERVED_FLAGS: ReadonlySet<string> = new Set([
  "help", "version", "base-url", "journal", "output", "max-attempts", "timeout",
  "input", "operation-key", "dry-run", "confirm", "fields", "all", "max-pages", "max-items",
]);

/** Commands every generated CLI defines itself: commander's implicit `help`, and `completion`. */
export const RESERVED_COMMANDS: ReadonlySet<string> = new Set(["help", "completion"]);

/**
 * A flag's camelCase, commander's default key for its value. The CLI runtime keys a field's value by
 * the flag itself (FieldOption), but flags that read alike in camelCase stay distinct so generated
 * flag names do not change.
 */
function attributeKey(flag: string): string {
  return flag.split("-").reduce((out, word) => out + word.charAt(0).toUpperCase() + word.slice(1));
}

/**
 * Unique names, deterministically: every wanted name that is neither reserved nor taken is kept (in
 * order); the others become `<prefix><name>`, then `<prefix><name>-2`, `-3`… until free.
 */
function uniqueNames(wanted: readonly string[], reserved: ReadonlySet<string>, prefix: (name: string) => string, keys: (name: string) => string[]): string[] {
  const taken = new Set<string>([...reserved].flatMap(keys));
  const free = (name: string) => !reserved.has(name) && keys(name).every((k) => !taken.has(k));
  const claim = (name: string) => {
    for (const k of keys(name)) taken.add(k);
    return name;
  };
  const out: Array<string | undefined> = wanted.map((name) => (free(name) ? claim(name) : undefined));
  return out.map((name, i) => {
    if (name !== undefined) return name;
    const base = prefix(wanted[i]!);
    let candidate = base;
    for (let n = 2; !free(candidate); n++) candidate = `${base}-${n}`;
    return claim(candidate);
  });
}

/**
 * The command of every operation, by operation id: its CLI name, unless the CLI reserves it (or an
 * earlier command has it), then `<name>-operation` (numbered if needed). Renamed commands say so in --help.
 */
export function commandNames(model: ContractModel): Map<string, string> {
  const names = uniqueNames(model.operations.map((op) => op.names.kebab), RESERVED_COMMANDS, (n) => `${n}-operation`, (n) => [n]);
  return new Map(model.operations.map((op, i) => [op.names.id, names[i]!]));
}

/** Follow `#/$defs/…` references inside a bundled schema. */
export function resolveLocal(node: unknown, root: unknown): SchemaObject | undefined {
  let current = node;
  for (let hops = 0; hops < 32 && isSchemaObject(current) && typeof current.$ref === "string"; hops++) {
    const name = current.$ref.startsWith("#/$defs/") ? current.$ref.slice("#/$defs/".length) : undefined;
    const defs = isSchemaObject(root) ? root.$defs : undefined;
    current = name !== undefined && isSchemaObject(defs) && Object.hasOwn(defs, name) ? defs[name] : undefined;
  }
  return isSchemaObject(current) ? current : undefined;
}

function scalarType(schema: SchemaObject): ScalarType | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t) => t !== "null" && t !== undefined);
  if (types.length === 0 && Array.isArray(schema.enum)) {
    const kinds = new Set(schema.enum.map((v) => typeof v));
    if (kinds.size === 1) {
      const kind = [...kinds][0];
      if (kind === "string" || kind === "boolean") return kind;
      if (kind === "number") return schema.enum.every((v) => Number.isInteger(v)) ? "integer" : "number";
    }
  }
  if (types.length !== 1) return undefined;
  const t = types[0];
  return t === "string" || t === "integer" || t === "number" || t === "boolean" ? t : undefined;
}

function describe(schema: SchemaObject): string {
  const parts = [typeof schema.description === "string" ? schema.description.replace(/\s+/g, " ").trim() : ""];
  if (typeof schema.format === "string") parts.push(`Format: ${schema.format}.`);
  if (typeof schema.pattern === "string") parts.push(`Pattern: ${schema.pattern}.`);
  if (typeof schema["x-unit"] === "string") parts.push(`Unit: ${schema["x-unit"]}.`);
  if ("default" in schema) parts.push(`Default: ${JSON.stringify(schema.default)}.`);
  return parts.filter(Boolean).join(" ");
}

/** The flags of an operation: one per scalar or scalar-array input field, behaviour fields excepted. */
export function operationFlags(op: OperationModel): { flags: FlagSpec[]; inputOnly: string[] } {
  const root = op.input.schema;
  const input = resolveLocal(root, root);
  const required = new Set(Array.isArray(input?.required) ? (input!.required as string[]) : []);
  const properties = isSchemaObject(input?.properties) ? input!.properties : {};
  const behaviour = new Set([op.idempotency?.keyField, op.preview?.dryRunField, op.preview?.confirmTokenField, op.projection?.field].filter((f): f is string => f !== undefined));
  const flags: FlagSpec[] = [];
  const inputOnly: string[] = [];
  const fields = Object.keys(properties).filter((field) => !behaviour.has(field));
  // Unique flags (and commander keys) by construction: a reserved or taken name gets `set-`, then a number.
  const names = uniqueNames(fields.map((field) => kebabCase(field) || "field"), RESERVED_FLAGS, (n) => `set-${n}`, (n) => [`--${n}`, attributeKey(n)]);
  const flagOf = new Map(fields.map((field, i) => [field, names[i]!]));
  // Multipart file fields: the flag reads `@path` or `-` (stdin) and sends the bytes.
  const files = new Set(op.http.bindings.filter((b) => b.file === true).map((b) => b.field));
  for (const field of fields) {
    const raw = properties[field];
    const schema = resolveLocal(raw, root);
    if (!schema) {
      inputOnly.push(field);
      continue;
    }
    const flag = flagOf.get(field)!;
    const numeric = (k: string) => (typeof schema[k] === "number" ? { [k]: schema[k] as number } : {});
    const scalar = scalarType(schema);
    if (scalar) {
      flags.push({
        field,
        flag,
        type: scalar,
        ...(Array.isArray(schema.enum) ? { enum: schema.enum.filter((v) => v !== null) as Array<string | number | boolean> } : {}),
        ...numeric("minimum"),
        ...numeric("maximum"),
        ...numeric("exclusiveMinimum"),
        ...numeric("exclusiveMaximum"),
        required: required.has(field),
        description: files.has(field) && scalar === "string" ? `${describe(schema)} \`@path\` reads a file, \`-\` reads stdin; other values are base64 text.`.trim() : describe(schema),
        ...(files.has(field) && scalar === "string" ? { file: true as const } : {}),
      });
      continue;
    }
    const items = schema.type === "array" ? resolveLocal(schema.items, root) : undefined;
    const itemType = items ? scalarType(items) : undefined;
    if (items && itemType) {
      flags.push({
        field,
        flag,
        type: "array",
        itemType,
        ...(Array.isArray(items.enum) ? { enum: items.enum.filter((v) => v !== null) as Array<string | number | boolean> } : {}),
        ...numeric("minimum"),
        ...numeric("maximum"),
        required: required.has(field),
        description: describe(schema),
      });
      continue;
    }
    inputOnly.push(field);
  }
  return { flags, inputOnly };
}

/**
 * `cli/commands.ts`: every operation as a command description the CLI runtime turns into commander.
 * The descriptions are data read from `sdk/contract.json` at start (tsc checks no literal of them).
 */
export function emitCommands(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import { contractData } from "../sdk/runtime/data.js";
import type { CommandSpec } from "./runtime/program.js";

/** One command per operation of the contract (the data: \`commands\` in sdk/contract.json; the runtime builds the commander program). */
export const COMMANDS: readonly CommandSpec[] = contractData("commands") as readonly CommandSpec[];
`;
}

/** The command description of every operation (what `cli/commands.ts` holds). */
export function commandSpecs(model: ContractModel): CommandSpec[] {
  const methods = clientMethodNames(model);
  const commands = commandNames(model);
  return model.operations.map((op) => {
    const { flags, inputOnly } = operationFlags(op);
    const m = methods.get(op.names.id)!;
    const name = commands.get(op.names.id)!;
    const flagOf = (field: string) => flags.find((f) => f.field === field)?.flag ?? kebabCase(field);
    const details = [
      name !== op.names.kebab ? `Command for operation ${op.names.id} (\`${op.names.kebab}\` is a command of the CLI itself).` : "",
      op.description.replace(/\s+/g, " ").trim(),
      op.preconditions.length > 0 ? `Preconditions: ${op.preconditions.map((p) => `--${flagOf(p.field)} must match the current ${p.compares} (else ${p.error}, no change).`).join(" ")}` : "",
      effectsLine(op),
      errorsLine(model, op) ?? "",
      op.deprecated ? `Deprecated since ${op.deprecated.since}${op.deprecated.replacement ? `; use ${op.deprecated.replacement}` : ""}.` : "",
    ]
      .filter(Boolean)
      .join("\n\n");
    return {
      operation: op.names.id,
      name,
      group: op.toolset,
      summary: op.summary,
      details,
      sdkMethod: m.call,
      previewMethod: m.preview,
      allMethod: m.all,
      flags,
      inputOnly,
      keyField: op.idempotency && op.effects.idempotent === "key" ? op.idempotency.keyField : null,
      dryRunField: op.preview?.dryRunField ?? null,
      confirmTokenField: op.preview?.confirmTokenField ?? null,
      defaultDryRun: op.preview ? op.preview.defaultDryRun : null,
      fieldsField: op.projection?.field ?? null,
      cursorField: op.pagination?.cursorField ?? null,
    };
  });
}

/** `cli/main.ts`: the executable. */
export function emitCliMain(model: ContractModel): string {
  const auth = model.transport.auth;
  return `#!/usr/bin/env node
${generatedHeader(model.name, model.version)}import { ${clientClassName(model)} } from "../sdk/index.js";
import { COMMANDS } from "./commands.js";
import { runCli } from "./runtime/program.js";

process.exitCode = await runCli(
  {
    name: ${literal(cliName(model))},
    version: ${literal(model.version)},
    description: ${literal(`${model.title}: one command per operation of contract ${model.name} ${model.version}. Results are JSON on stdout; diagnostics go to stderr.`)},
    credentialEnv: ${literal(authEnvVars(auth))},
    baseUrlEnv: ${literal(baseUrlEnvOf(model.name, model.transport.baseUrlEnv))},
    commands: COMMANDS,
    createClient: (settings) => new ${clientClassName(model)}(settings),
  },
  process.argv.slice(2),
);
`;
}

/** The generated CLI's command name: `billing`. */
export function cliName(model: ContractModel): string {
  return model.name;
}
