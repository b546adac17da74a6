import { inputWithFilterWords } from "../../model/filter-words.js";
import { type CommandData, commandFacts, type CommandSpec, type FlagSpec } from "../../cli-runtime/program.js";
import { operationRecordTable } from "../sdk/operations.js";
import { baseUrlEnvOf, clientClassName, kebabCase, clientMethodNames, cliFlagNames, cliName, commandNames, resolveLocal, scalarAlternatives, scalarType } from "../../model/naming.js";
import { authEnvVars, type ContractModel, type OperationModel } from "../../model/types.js";
import type { SchemaObject } from "../../contract/schema-walk.js";
import { effectsLine, errorsLine } from "../shared/describe.js";
import { generatedHeader, literal } from "../shared/literals.js";

function describe(schema: SchemaObject): string {
  const parts = [typeof schema.description === "string" ? schema.description.replace(/\s+/g, " ").trim() : ""];
  if (typeof schema.format === "string") parts.push(`Format: ${schema.format}.`);
  if (typeof schema.pattern === "string") parts.push(`Pattern: ${schema.pattern}.`);
  if (typeof schema["x-unit"] === "string") parts.push(`Unit: ${schema["x-unit"]}.`);
  if ("default" in schema) parts.push(`Default: ${JSON.stringify(schema.default)}.`);
  return parts.filter(Boolean).join(" ");
}

/** The flags of an operation (named by cliFlagNames), described for the CLI runtime. */
export function operationFlags(op: OperationModel): { flags: FlagSpec[]; inputOnly: string[] } {
  const root = inputWithFilterWords(op);
  const input = resolveLocal(root, root);
  const required = new Set(Array.isArray(input?.required) ? (input!.required as string[]) : []);
  const named = cliFlagNames(op);
  // Multipart file fields: the flag reads `@path` or `-` (stdin) and sends the bytes.
  const files = new Set(op.http.bindings.filter((b) => b.file === true).map((b) => b.field));
  const flags = named.flags.map(({ field, flag, schema }): FlagSpec => {
    const numeric = (k: string) => (typeof schema[k] === "number" ? { [k]: schema[k] as number } : {});
    const scalar = scalarType(schema);
    if (scalar) {
      return {
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
      };
    }
    const alternatives = scalarAlternatives(schema, root);
    if (alternatives) return { field, flag, type: alternatives[0]!, alternatives, required: required.has(field), description: describe(schema) };
    const items = resolveLocal(schema.items, root)!;
    return {
      field,
      flag,
      type: "array",
      itemType: scalarType(items)!,
      ...(Array.isArray(items.enum) ? { enum: items.enum.filter((v) => v !== null) as Array<string | number | boolean> } : {}),
      ...numeric("minimum"),
      ...numeric("maximum"),
      required: required.has(field),
      description: describe(schema),
    };
  });
  return { flags, inputOnly: named.inputOnly };
}

/**
 * `cli/commands.ts`: every operation as a command description the CLI runtime turns into commander.
 * The descriptions are data read from `sdk/contract.json` at start (tsc checks no literal of them);
 * each gets its operation's facts (key, preview, projection, cursor) from the operation table.
 */
export function emitCommands(model: ContractModel): string {
  return `${generatedHeader(model.name, model.version)}import { contractData, operationRecord, operationRecords } from "../sdk/runtime/data.js";
import { type CommandData, commandFromData, type CommandSpec } from "./runtime/program.js";

const records = operationRecords();

/**
 * One command per operation of the contract (the data: \`commands\` in sdk/contract.json, with each
 * operation's record in sdk/operations.json; the runtime builds the commander program).
 */
export const COMMANDS: readonly CommandSpec[] = (contractData("commands") as readonly CommandData[]).map((command) =>
  commandFromData(command, operationRecord(records, command.operation)),
);
`;
}

/** A command as sdk/contract.json stores it: its operation's facts are the operation table's (cli-runtime commandFromData). */
export function commandData(spec: CommandSpec): CommandData {
  const { keyField: _key, dryRunField: _dry, confirmTokenField: _confirm, defaultDryRun: _default, fieldsField: _fields, cursorField: _cursor, ...shown } = spec;
  return shown;
}

/** A word as a POSIX shell reads it back unchanged: bare when plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * The value a help example gives a flag, only from what the contract documents for its field (its
 * first `examples` value, `const`, `default` or first enum value), so that an example works against
 * a platform whose data the contract's examples describe; undefined: nothing documented (the example
 * shows a placeholder, never a made-up value: a bound such as `minimum: 1` is no identifier that exists).
 */
export function documentedFlagValue(schema: SchemaObject, flag: FlagSpec): string | undefined {
  const scalarType = flag.type === "array" ? undefined : flag.type;
  if (scalarType === undefined || scalarType === "boolean") return undefined;
  const fits = (v: unknown): v is string | number =>
    (scalarType === "string" && typeof v === "string" && !/[\u0000-\u001f\u007f]/.test(v)) ||
    ((scalarType === "number" || scalarType === "integer") && typeof v === "number" && Number.isFinite(v) && (scalarType === "number" || Number.isInteger(v)));
  const candidates: unknown[] = [...(Array.isArray(schema.examples) ? schema.examples : []), schema.const, schema.default, ...(flag.enum ?? [])];
  const value = candidates.find(fits);
  return value === undefined ? undefined : String(value);
}

/**
 * A command's help example: the command with every required flag (the operation key aside), each
 * given its documented value or, where the contract documents none, a `<placeholder>`.
 */
export function commandExample(program: string, command: string, op: OperationModel, flags: readonly FlagSpec[]): string {
  const schemas = new Map(cliFlagNames(op).flags.map((f) => [f.field, f.schema] as const));
  const words = [shellWord(program), shellWord(command)];
  const show = (flag: FlagSpec) => {
    const value = documentedFlagValue(schemas.get(flag.field) ?? {}, flag);
    words.push(shellWord(`--${flag.flag}`), value === undefined ? `<${flag.flag}>` : shellWord(value));
  };
  for (const flag of flags) if (flag.required && flag.field !== op.idempotency?.keyField) show(flag);
  // An input that needs more fields than it requires (minProperties: "change at least one of these")
  // gets the first optional flags too, so the example is a valid call, not one the SDK refuses.
  const root = op.input.schema;
  const input = resolveLocal(root, root);
  const required = Array.isArray(input?.required) ? input!.required.length : 0;
  let missing = typeof input?.minProperties === "number" ? input.minProperties - required : 0;
  for (const flag of flags) {
    if (missing <= 0) break;
    if (flag.required || flag.type === "boolean") continue;
    show(flag);
    missing--;
  }
  return words.join(" ");
}

/**
 * What re-running a confirmed call (same parameters, same confirm token) after it succeeded does, as
 * the SDK and the platform behave: a keyed operation's journal answers with the recorded result
 * (src/runtime/client.ts, callKeyed: the same token is the same intent within the key's retention);
 * without a key the call reaches the platform, which refuses a spent single-use token. null: no preview.
 */
export function confirmRerunText(op: OperationModel): string | null {
  const preview = op.preview;
  if (!preview) return null;
  const refusal = preview.invalidTokenError ? `refuses the spent token (${preview.invalidTokenError})` : "refuses the spent token";
  if (op.idempotency) {
    return `prints the result the journal recorded and sends nothing, for ${op.idempotency.retention} (the operation key's retention); with another journal it reaches the platform under a new key, which ${preview.singleUse ? refusal : "executes it again (the token is not single-use)"}.`;
  }
  if (preview.singleUse) return `no operation key, so no journal: it reaches the platform again, which ${refusal}, since the token is single-use; preview again for a new token.`;
  return `no operation key, so no journal: it reaches the platform again, which executes it again, since the token is not single-use (preview.singleUse: false) and stays valid for ${preview.ttl}.`;
}

/** The command description of every operation (what `cli/commands.ts` holds). */
export function commandSpecs(model: ContractModel): CommandSpec[] {
  const methods = clientMethodNames(model);
  const commands = commandNames(model);
  const records = operationRecordTable(model);
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
      op.preview ? `Re-running a confirmed call (same parameters, same --confirm token) after it succeeded: ${confirmRerunText(op)}` : "",
      errorsLine(model, op) ?? "",
      `Example: ${commandExample(cliName(model), name, op, flags)}`,
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
      // The operation's promises, read from its record as the built CLI reads them.
      ...commandFacts(records.get(op.names.id)!),
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
