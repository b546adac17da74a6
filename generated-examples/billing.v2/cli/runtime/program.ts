/**
 * The behaviour of every generated CLI, built from generated command descriptions: typed flags,
 * JSON on stdout and nothing else, diagnostics on stderr, one exit code per error class, never a
 * prompt. The SDK underneath carries the contract's behaviour (journal, retries, completeness).
 */
import { readFileSync } from "node:fs";
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { ContractError } from "../../sdk/runtime/errors.js";
import type { Completeness } from "../../sdk/runtime/pagination.js";
import { completionScript, type Shell } from "./completion.js";
import { EXIT_CODES, exitCodeFor, exitCodeHelp } from "./exit-codes.js";
import { type OutputFormat, render } from "./output.js";

export type ScalarType = "string" | "integer" | "number" | "boolean";

/** One input field exposed as a flag (generated from the input schema). */
export interface FlagSpec {
  readonly field: string;
  /** Flag name without dashes. */
  readonly flag: string;
  readonly type: ScalarType | "array";
  readonly itemType?: ScalarType;
  readonly enum?: readonly (string | number | boolean)[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly required: boolean;
  readonly description: string;
}

/** One operation as a command (generated). */
export interface CommandSpec {
  readonly operation: string;
  readonly name: string;
  readonly group: string | null;
  readonly summary: string;
  /** Description, units, effects and errors, for --help. */
  readonly details: string;
  readonly sdkMethod: string;
  readonly previewMethod: string | null;
  readonly allMethod: string | null;
  readonly flags: readonly FlagSpec[];
  /** Input fields that only --input can set (objects and other structured values). */
  readonly inputOnly: readonly string[];
  /** Behaviour fields, mapped to the standard flags. */
  readonly keyField: string | null;
  readonly dryRunField: string | null;
  readonly confirmTokenField: string | null;
  readonly defaultDryRun: boolean | null;
  readonly fieldsField: string | null;
  readonly cursorField: string | null;
}

export interface CliDefinition {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly tokenEnv: string | null;
  readonly commands: readonly CommandSpec[];
  /** Builds the SDK client from the global options. */
  readonly createClient: (options: ClientSettings) => CliClient;
}

export interface ClientSettings {
  baseUrl?: string;
  journal?: string;
  timeoutMs?: number;
  retry?: { maxAttempts: number };
}

/** What the CLI needs of a generated SDK client: its methods (looked up by name) and close(). */
export interface CliClient {
  close(): void;
}

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly stdin: () => string;
}

export const processCliIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  stdin: () => readFileSync(0, "utf8"),
};

/** A usage problem found after commander parsed the flags (missing field, bad --input). */
class UsageError extends Error {}

function parseScalar(type: ScalarType, flag: FlagSpec, raw: string): string | number | boolean {
  if (type === "string") return raw;
  if (type === "boolean") {
    if (raw === "true") return true;
    if (raw === "false") return false;
    throw new InvalidArgumentError("expected true or false.");
  }
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value)) throw new InvalidArgumentError(`expected a number, got ${JSON.stringify(raw)}.`);
  if (type === "integer" && !Number.isInteger(value)) throw new InvalidArgumentError(`expected an integer, got ${raw}.`);
  if (flag.minimum !== undefined && value < flag.minimum) throw new InvalidArgumentError(`must be at least ${flag.minimum}.`);
  if (flag.maximum !== undefined && value > flag.maximum) throw new InvalidArgumentError(`must be at most ${flag.maximum}.`);
  if (flag.exclusiveMinimum !== undefined && value <= flag.exclusiveMinimum) throw new InvalidArgumentError(`must be more than ${flag.exclusiveMinimum}.`);
  if (flag.exclusiveMaximum !== undefined && value >= flag.exclusiveMaximum) throw new InvalidArgumentError(`must be less than ${flag.exclusiveMaximum}.`);
  return value;
}

function optionFor(flag: FlagSpec): Option {
  const description = flag.description + (flag.required ? " (required)" : "");
  if (flag.type === "boolean") return new Option(`--${flag.flag} [value]`, description).argParser((raw) => parseScalar("boolean", flag, raw));
  if (flag.type === "array") {
    const item = flag.itemType ?? "string";
    const option = new Option(`--${flag.flag} <value>`, `${description} (repeatable)`);
    const parse = (raw: string, previous: unknown[] | undefined) => [...(previous ?? []), parseScalar(item, flag, raw)];
    if (flag.enum && item === "string") return option.choices(flag.enum.map(String)).argParser(parse);
    return option.argParser(parse);
  }
  const option = new Option(`--${flag.flag} <value>`, description);
  if (flag.enum && flag.type === "string") return option.choices(flag.enum.map(String));
  return option.argParser((raw) => {
    const value = parseScalar(flag.type as ScalarType, flag, raw);
    if (flag.enum && !flag.enum.includes(value)) throw new InvalidArgumentError(`allowed: ${flag.enum.join(", ")}.`);
    return value;
  });
}

/** Option keys as commander stores them (camelCase of the flag). */
function optionKey(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function readInputFile(path: string, io: CliIo): Record<string, unknown> {
  let text: string;
  try {
    text = path === "-" ? io.stdin() : readFileSync(path, "utf8");
  } catch (e) {
    throw new UsageError(`--input ${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${path}: not valid JSON.`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UsageError(`--input ${path}: must be a JSON object of input fields.`);
  return value as Record<string, unknown>;
}

interface RunState {
  exitCode: number;
}

function usageJson(message: string): string {
  return `${JSON.stringify({ error: { code: "CLI_USAGE", class: "invalid_input", action: "fix_field", message } }, null, 2)}\n`;
}

/** Build the commander program of a generated CLI. */
export function buildCli(def: CliDefinition, io: CliIo, state: RunState): Command {
  const program = new Command(def.name)
    .description(def.description)
    .version(def.version, "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text, write) => write(text) })
    .showSuggestionAfterError(true)
    .option("--base-url <url>", "platform base URL (overrides the contract and its environment variable)")
    .option("--journal <path>", "SQLite operation journal (default: the SDK's; keeps operation keys across runs)")
    .addOption(new Option("-o, --output <format>", "result format on stdout").choices(["json", "yaml", "table"]).default("json"))
    .option("--max-attempts <n>", "attempts for transient failures, the first included (default 3)", (raw) => parseCount("--max-attempts", raw))
    .option("--timeout <ms>", "per-request timeout in milliseconds", (raw) => parseCount("--timeout", raw))
    .addHelpText("after", `\n${exitCodeHelp()}\n${def.tokenEnv ? `\nCredential: read from the ${def.tokenEnv} environment variable; never prompted for, never printed.\n` : ""}`);

  const groups = new Set(def.commands.map((c) => c.group));
  for (const spec of def.commands) {
    const command = program.command(spec.name).summary(spec.summary).description(`${spec.summary}\n\n${spec.details}`);
    if (groups.size > 1 || spec.group) command.helpGroup(spec.group ? `${spec.group} commands:` : "Commands:");
    for (const flag of spec.flags) command.addOption(optionFor(flag));
    command.option("--input <file>", `JSON object of input fields (\`-\` reads stdin); flags override it${spec.inputOnly.length ? `. Only way to set: ${spec.inputOnly.join(", ")}` : ""}`);
    if (spec.keyField) command.option("--operation-key <key>", "operation key (idempotency); omitted: the journal reuses the key of an unfinished identical run, else a new one");
    if (spec.dryRunField) {
      command.option("--dry-run", `preview only: nothing executes${spec.defaultDryRun ? " (the default without --confirm)" : ""}`);
      command.option("--confirm <token>", "execute, with the confirm token a --dry-run of the same parameters returned");
    }
    if (spec.fieldsField) command.option("--fields <list>", "comma-separated fields to return (identity fields always come back)", (raw, prev: string[] | undefined) => [...(prev ?? []), ...raw.split(",").map((s) => s.trim()).filter(Boolean)]);
    if (spec.allMethod) {
      command.option("--all", "read every page, within --max-pages / --max-items; reports completeness");
      command.option("--max-pages <n>", "page bound for --all (default 10)", (raw) => parseCount("--max-pages", raw));
      command.option("--max-items <n>", "item bound for --all", (raw) => parseCount("--max-items", raw));
    }
    command.action(async (options: Record<string, unknown>) => {
      state.exitCode = await runCommand(def, spec, options, program.opts(), io);
    });
  }

  program
    .command("completion")
    .description("print a shell completion script")
    .addArgument(new Argument("<shell>", "bash or zsh").choices(["bash", "zsh"]))
    .action((shell: Shell) => {
      io.stdout(completionScript(program, shell));
    });
  return program;
}

function parseCount(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${flag} must be a positive integer.`);
  return n;
}

async function runCommand(def: CliDefinition, spec: CommandSpec, options: Record<string, unknown>, globals: Record<string, unknown>, io: CliIo): Promise<number> {
  const format = (globals.output as OutputFormat | undefined) ?? "json";
  let client: CliClient | undefined;
  try {
    const input: Record<string, unknown> = typeof options.input === "string" ? readInputFile(options.input, io) : {};
    for (const flag of spec.flags) {
      const value = options[optionKey(flag.flag)];
      if (value !== undefined) input[flag.field] = value;
    }
    if (spec.keyField && typeof options.operationKey === "string") input[spec.keyField] = options.operationKey;
    if (spec.fieldsField && Array.isArray(options.fields)) input[spec.fieldsField] = options.fields;
    if (spec.confirmTokenField && typeof options.confirm === "string") input[spec.confirmTokenField] = options.confirm;
    const missing = spec.flags.filter((f) => f.required && input[f.field] === undefined && f.field !== spec.keyField);
    if (missing.length > 0) throw new UsageError(`missing required ${missing.map((f) => `--${f.flag}`).join(", ")}.`);

    const settings: ClientSettings = {};
    if (typeof globals.baseUrl === "string") settings.baseUrl = globals.baseUrl;
    if (typeof globals.journal === "string") settings.journal = globals.journal;
    if (typeof globals.timeout === "number") settings.timeoutMs = globals.timeout;
    if (typeof globals.maxAttempts === "number") settings.retry = { maxAttempts: globals.maxAttempts };
    client = def.createClient(settings);
    const methods = client as unknown as Record<string, (...args: unknown[]) => unknown>;
    const method = (name: string) => methods[name]!.bind(client);

    if (spec.allMethod && options.all === true) {
      const paginator = method(spec.allMethod)(input, { maxPages: (options.maxPages as number | undefined) ?? 10, ...(options.maxItems ? { maxItems: options.maxItems } : {}) }) as { collect(): Promise<Completeness & { items: unknown[] }> };
      const result = await paginator.collect();
      io.stdout(render(result, format));
      if (!result.complete) io.stderr(`${def.name}: incomplete: ${result.reasons.join("; ")}\n`);
      return result.complete ? EXIT_CODES.success : EXIT_CODES.incomplete;
    }
    const preview = spec.previewMethod !== null && (options.dryRun === true || (spec.defaultDryRun === true && options.confirm === undefined));
    if (preview && options.confirm !== undefined) throw new UsageError("--dry-run and --confirm cannot be combined.");
    const result = await (preview ? method(spec.previewMethod!)(input) : method(spec.sdkMethod)(input));
    io.stdout(render(result, format));
    if (preview && spec.confirmTokenField) io.stderr(`${def.name}: preview only; nothing was executed. Re-run with --confirm <${spec.confirmTokenField}> to execute.\n`);
    return EXIT_CODES.success;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stdout(usageJson(e.message));
      io.stderr(`${def.name} ${spec.name}: ${e.message}\n`);
      return EXIT_CODES.usage;
    }
    const code = exitCodeFor(e);
    const json = e instanceof ContractError ? e.toJSON() : { code: "CLI_INTERNAL", class: "internal", message: String((e as Error)?.message ?? e) };
    io.stdout(render({ error: json }, format));
    const hint = e instanceof ContractError ? ` (${e.errorClass}; next: ${e.action})` : "";
    io.stderr(`${def.name} ${spec.name}: ${(json as { code?: string }).code}: ${(json as { message?: string }).message}${hint}\n`);
    return code;
  } finally {
    client?.close();
  }
}

/** Run a generated CLI; resolves to its exit code. */
export async function runCli(def: CliDefinition, argv: readonly string[], io: CliIo = processCliIo): Promise<number> {
  const state: RunState = { exitCode: EXIT_CODES.success };
  const program = buildCli(def, io, state);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return state.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return EXIT_CODES.success;
      // Help for a bare `cli` or an unknown command goes to stderr; stdout still gets JSON.
      io.stdout(usageJson(e.message.replace(/^error: /, "")));
      return EXIT_CODES.usage;
    }
    io.stdout(`${JSON.stringify({ error: { code: "CLI_INTERNAL", class: "internal", message: String((e as Error)?.message ?? e) } }, null, 2)}\n`);
    io.stderr(`${def.name}: internal error: ${(e as Error)?.message ?? e}\n`);
    return EXIT_CODES.internal;
  }
}
