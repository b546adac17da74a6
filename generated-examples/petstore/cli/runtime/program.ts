/**
 * The behaviour of every generated CLI, built from generated command descriptions: typed flags,
 * the result on stdout and nothing else (exit 0), an error only on stderr (its JSON on the first
 * line, exit code per error class), never a prompt. The SDK underneath carries the contract's behaviour (journal, retries, completeness).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { OperationRecord } from "../../sdk/runtime/data.js";
import { ContractError } from "../../sdk/runtime/errors.js";
import type { Completeness } from "../../sdk/runtime/pagination.js";
import { writeTo } from "../../sdk/runtime/stdio.js";
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
  /** A field of several scalar types: the text is read as the first of these it is (boolean, integer, number, string). */
  readonly alternatives?: readonly ScalarType[];
  readonly enum?: readonly (string | number | boolean)[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly required: boolean;
  readonly description: string;
  /** Bytes sent as a file part (base64 text in the SDK): the flag takes `@path` or `-` (stdin) and base64-encodes the bytes. */
  readonly file?: true;
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

/** What a command's operation promises, which the operation table (sdk/operations.json) holds: not stored with the command. */
export type CommandFacts = "keyField" | "dryRunField" | "confirmTokenField" | "defaultDryRun" | "fieldsField" | "cursorField";

/** A command as the catalogue data (sdk/contract.json) stores it. */
export type CommandData = Omit<CommandSpec, CommandFacts>;

/** A command whole: its stored data with its operation's facts from the operation table. */
export function commandFromData(data: CommandData, record: OperationRecord): CommandSpec {
  return { ...data, ...commandFacts(record) };
}

/** What a command's operation promises, from its record (the generator's command list reads it through here too). */
export function commandFacts(record: OperationRecord): Pick<CommandSpec, CommandFacts> {
  return {
    keyField: record.idempotent === "key" ? record.keyField : null,
    dryRunField: record.preview?.dryRunField ?? null,
    confirmTokenField: record.preview?.confirmTokenField ?? null,
    defaultDryRun: record.preview ? record.preview.defaultDryRun : null,
    fieldsField: record.projection?.field ?? null,
    cursorField: record.pagination?.cursorField ?? null,
  };
}

export interface CliDefinition {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** The credential's environment variable (CLIs generated before `credentialEnv`). */
  readonly tokenEnv?: string | null;
  /** Every environment variable credentials are read from (the SDK reads them; listed in --help). */
  readonly credentialEnv?: readonly string[];
  /** The environment variable the base URL is read from when --base-url is not given. */
  readonly baseUrlEnv?: string | null;
  readonly commands: readonly CommandSpec[];
  /** Builds the SDK client from the global options. */
  readonly createClient: (options: ClientSettings) => CliClient;
}

export interface ClientSettings {
  baseUrl?: string;
  /** How an unreachable platform's error tells the user to set the base URL (the CLI's flag and variable). */
  baseUrlSetting?: string;
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
  /** Standard input, read up to `maxBytes` bytes (more than `maxBytes` means "too large"). */
  readonly stdin: (maxBytes: number) => string | Buffer;
}

/** `--input` is read up to this size (10 MiB), from a file or stdin; anything larger is a usage error. */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

/** A file flag's `@path` or `-` is read up to this size (64 MiB); anything larger is a usage error. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** Bounds of the numeric global and traversal flags (inclusive). */
export const FLAG_BOUNDS = {
  timeout: { min: 1, max: 86_400_000 }, // 1 ms .. 24 h, as the SDK accepts
  maxAttempts: { min: 1, max: 100 },
  maxPages: { min: 1, max: 100_000 },
  maxItems: { min: 1, max: 10_000_000 },
} as const;

const CHUNK_BYTES = 64 * 1024;

/**
 * Read a descriptor in bounded chunks, stopping after `limit` bytes (a device such as /dev/zero or an
 * endless pipe never ends). Non-blocking stdin answers EAGAIN until data arrives: wait a little.
 */
function readBounded(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit - total));
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") {
        Atomics.wait(pause, 0, 0, 10);
        continue;
      }
      if ((e as NodeJS.ErrnoException).code === "EOF") break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/** The process's streams; output to a reader that has gone (`| head`) is dropped, never a stack trace. */
export const processCliIo: CliIo = {
  stdout: (t) => writeTo(process.stdout, t),
  stderr: (t) => writeTo(process.stderr, t),
  stdin: (maxBytes) => readBounded(0, maxBytes),
};

/** A usage problem found after commander parsed the flags (missing field, bad --input). */
class UsageError extends Error {}

/** Decimal integers only: no hex, exponent, blanks or sign other than a leading minus. */
const INTEGER = /^-?\d+$/;
/** A decimal number as JSON writes it (leading zeros allowed): no hex, Infinity, blanks or trailing dot. */
const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function parseScalar(type: ScalarType, flag: FlagSpec, raw: string): string | number | boolean {
  if (type === "string") return raw;
  if (type === "boolean") {
    if (raw === "true") return true;
    if (raw === "false") return false;
    throw new InvalidArgumentError("expected true or false.");
  }
  const shown = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
  if (type === "integer" && !INTEGER.test(raw)) throw new InvalidArgumentError(`expected an integer (decimal digits), got ${shown}.`);
  if (!DECIMAL.test(raw)) throw new InvalidArgumentError(`expected a number, got ${shown}.`);
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new InvalidArgumentError(`expected a finite number, got ${shown}.`);
  if (type === "integer" && !Number.isSafeInteger(value)) throw new InvalidArgumentError(`${shown} is out of the exact integer range.`);
  if (flag.minimum !== undefined && value < flag.minimum) throw new InvalidArgumentError(`must be at least ${flag.minimum}.`);
  if (flag.maximum !== undefined && value > flag.maximum) throw new InvalidArgumentError(`must be at most ${flag.maximum}.`);
  if (flag.exclusiveMinimum !== undefined && value <= flag.exclusiveMinimum) throw new InvalidArgumentError(`must be more than ${flag.exclusiveMinimum}.`);
  if (flag.exclusiveMaximum !== undefined && value >= flag.exclusiveMaximum) throw new InvalidArgumentError(`must be less than ${flag.exclusiveMaximum}.`);
  return value;
}

/** A value of a field that takes several scalar types: the first type, in the flag's order, the text is. */
function parseAlternatives(types: readonly ScalarType[], flag: FlagSpec, raw: string): string | number | boolean {
  for (const type of types) {
    if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
    if (type === "integer" && INTEGER.test(raw)) return parseScalar("integer", flag, raw);
    if (type === "number" && DECIMAL.test(raw)) return parseScalar("number", flag, raw);
    if (type === "string") return raw;
  }
  throw new InvalidArgumentError(`expected ${types.map((t) => (t === "integer" ? "an integer" : t === "boolean" ? "true or false" : `a ${t}`)).join(" or ")}.`);
}

/**
 * An input field's option. commander keeps option values in plain objects keyed by the option's
 * attribute name, the camelCase of the flag: a field's flag such as `--constructor` or `--to-string`
 * would read Object.prototype's member as its value when omitted. Its key is the flag itself with
 * its dashes (`--constructor`), which no inherited member and no other option of the CLI has.
 */
class FieldOption extends Option {
  constructor(
    flags: string,
    description: string,
    private readonly key: string,
  ) {
    super(flags, description);
  }

  override attributeName(): string {
    return this.key;
  }
}

/** Where commander keeps the value of a field's flag. */
const fieldKey = (flag: FlagSpec) => `--${flag.flag}`;

function optionFor(flag: FlagSpec): Option {
  const option = typedOption(flag);
  // A field such as no_cache is a value flag `--no-cache <value>`, not commander's negation of --cache.
  option.negate = false;
  return option;
}

/** One array item: a scalar of the item type, and one of the enum's values when there is one. */
function parseItem(type: ScalarType, flag: FlagSpec, raw: string): string | number | boolean {
  const value = parseScalar(type, flag, raw);
  if (flag.enum && !flag.enum.includes(value)) throw new InvalidArgumentError(`allowed: ${flag.enum.join(", ")}.`);
  return value;
}

function typedOption(flag: FlagSpec): Option {
  const description = flag.description + (flag.required ? " (required)" : "");
  const key = fieldKey(flag);
  if (flag.alternatives) {
    const alternatives = flag.alternatives;
    return new FieldOption(`--${flag.flag} <value>`, `${description} (${alternatives.join(" or ")})`, key).argParser((raw) => parseAlternatives(alternatives, flag, raw));
  }
  if (flag.type === "boolean") return new FieldOption(`--${flag.flag} [value]`, description, key).argParser((raw) => parseScalar("boolean", flag, raw));
  if (flag.type === "array") {
    const item = flag.itemType ?? "string";
    const option = new FieldOption(`--${flag.flag} <value>`, `${description} (repeatable)`, key);
    const parse = (raw: string, previous: unknown) => {
      const before = Array.isArray(previous) ? previous : [];
      // An enum value is itself, whatever it starts with.
      if (!raw.startsWith("[") || flag.enum?.includes(raw)) return [...before, parseItem(item, flag, raw)];
      // A JSON array: `[]` is the empty array, which repeating a flag cannot express. A string that
      // starts with [ but is no JSON array is a string item.
      let items: unknown;
      try {
        items = JSON.parse(raw);
      } catch {
        items = undefined;
      }
      if (!Array.isArray(items)) {
        if (item === "string") return [...before, parseItem(item, flag, raw)];
        throw new InvalidArgumentError("a value starting with [ must be a JSON array.");
      }
      return [...before, ...items.map((v) => parseItem(item, flag, typeof v === "string" ? v : JSON.stringify(v)))];
    };
    // choices() for help and completion; the parser (which replaces commander's check) checks each item.
    if (flag.enum && item === "string") return option.choices(flag.enum.map(String)).argParser(parse);
    return option.argParser(parse);
  }
  const option = new FieldOption(`--${flag.flag} <value>`, description, key);
  if (flag.enum && flag.type === "string") return option.choices(flag.enum.map(String));
  return option.argParser((raw) => {
    const value = parseScalar(flag.type as ScalarType, flag, raw);
    if (flag.enum && !flag.enum.includes(value)) throw new InvalidArgumentError(`allowed: ${flag.enum.join(", ")}.`);
    return value;
  });
}

/**
 * Read a file for --input: at most MAX_INPUT_BYTES + 1 bytes (one more tells "too large"); a regular
 * file's size is checked before reading, a device or pipe is read in bounded chunks. null: too large.
 */
function readFileBounded(path: string, limit = MAX_INPUT_BYTES): Buffer | null {
  const fd = openSync(path, "r");
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error("is a folder"), { code: "EISDIR" });
    if (stat.isFile() && stat.size > limit) return null;
    return readBounded(fd, limit + 1);
  } finally {
    closeSync(fd);
  }
}

function readInputFile(path: string, io: CliIo): Record<string, unknown> {
  let data: string | Buffer | null;
  try {
    data = path === "-" ? io.stdin(MAX_INPUT_BYTES + 1) : readFileBounded(path);
  } catch (e) {
    throw new UsageError(`--input ${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  if (data === null || Buffer.byteLength(data) > MAX_INPUT_BYTES) throw new UsageError(`--input ${path}: larger than ${MAX_INPUT_BYTES} bytes (10 MiB), the limit for input files.`);
  const text = typeof data === "string" ? data : data.toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${path}: not valid JSON.`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UsageError(`--input ${path}: must be a JSON object of input fields.`);
  return value as Record<string, unknown>;
}

/**
 * A file flag's value as base64 text: `@path` reads the file, `-` reads stdin; anything else is taken
 * as base64 text already. Bounded by MAX_FILE_BYTES.
 */
function fileFlagValue(flag: FlagSpec, raw: string, io: CliIo): string {
  if (raw !== "-" && !raw.startsWith("@")) return raw;
  const path = raw === "-" ? "-" : raw.slice(1);
  let data: string | Buffer | null;
  try {
    data = path === "-" ? io.stdin(MAX_FILE_BYTES + 1) : readFileBounded(path, MAX_FILE_BYTES);
  } catch (e) {
    throw new UsageError(`--${flag.flag} ${raw}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
  }
  if (data === null || Buffer.byteLength(data) > MAX_FILE_BYTES) throw new UsageError(`--${flag.flag} ${raw}: larger than ${MAX_FILE_BYTES} bytes (64 MiB), the limit for files.`);
  return (typeof data === "string" ? Buffer.from(data, "utf8") : data).toString("base64");
}

interface RunState {
  exitCode: number;
  /** commander's message for a usage error, written after the error's JSON line. */
  commanderMessage?: string;
}

/** The first line of stderr on a usage error: its JSON (stdout stays empty). */
function usageJson(message: string): string {
  return `${JSON.stringify({ error: { code: "CLI_USAGE", class: "invalid_input", action: "fix_field", message } })}\n`;
}

/** What --help says of stdout, stderr, credentials and the base URL. */
function environmentHelp(def: CliDefinition): string {
  const credentials = def.credentialEnv ?? (def.tokenEnv ? [def.tokenEnv] : []);
  const lines = [
    "Output: a success prints only its result on stdout and exits 0 (a result that has an `error` property is",
    "still a result). An error prints nothing on stdout: its JSON, {\"error\": {code, class, action, message, …}},",
    "is the first line of stderr, a sentence for people follows, and the exit code is not 0. An --all traversal",
    "stopped by a bound prints its (incomplete) result on stdout and exits 10.",
    "",
    "Arrays: repeat the flag (--tags a --tags b), or give a JSON array (--tags '[\"a\",\"b\"]'); --tags '[]' sends",
    "an empty array. A value that is a JSON array is read as one.",
  ];
  if (def.baseUrlEnv) lines.push("", `Base URL: --base-url, else the ${def.baseUrlEnv} environment variable, else the contract's.`);
  if (credentials.length > 0) lines.push("", `Credentials: read from the environment variable${credentials.length === 1 ? "" : "s"} ${credentials.join(", ")}; never prompted for, never printed.`);
  return lines.join("\n");
}

/** Build the commander program of a generated CLI. */
export function buildCli(def: CliDefinition, io: CliIo, state: RunState): Command {
  const program = new Command(def.name)
    .description(def.description)
    .version(def.version, "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text) => void (state.commanderMessage = (state.commanderMessage ?? "") + text) })
    .showSuggestionAfterError(true)
    .option("--base-url <url>", "platform base URL (overrides the contract and its environment variable)")
    .option("--journal <path>", "SQLite operation journal (default: the SDK's; keeps operation keys across runs)")
    .addOption(new Option("-o, --output <format>", "result format on stdout").choices(["json", "yaml", "table"]).default("json"))
    .option("--max-attempts <n>", `attempts for transient failures, the first included (default 3, at most ${FLAG_BOUNDS.maxAttempts.max})`, (raw) => parseCount(raw, FLAG_BOUNDS.maxAttempts))
    .option("--timeout <ms>", `per-request timeout in milliseconds (${FLAG_BOUNDS.timeout.min} to ${FLAG_BOUNDS.timeout.max}, i.e. 24 h)`, (raw) => parseCount(raw, FLAG_BOUNDS.timeout))
    .addHelpText("after", `\n${exitCodeHelp()}\n\n${environmentHelp(def)}\n`);

  const groups = new Set(def.commands.map((c) => c.group));
  for (const spec of def.commands) {
    const command = program.command(spec.name).summary(spec.summary).description(`${spec.summary}\n\n${spec.details}`);
    if (groups.size > 1 || spec.group) command.helpGroup(spec.group ? `${spec.group} commands:` : "Commands:");
    for (const flag of spec.flags) command.addOption(optionFor(flag));
    command.option("--input <file>", `JSON object of input fields (\`-\` reads stdin; at most 10 MiB); flags override it${spec.inputOnly.length ? `. Only way to set: ${spec.inputOnly.join(", ")}` : ""}`);
    if (spec.keyField) command.option("--operation-key <key>", "operation key (idempotency); omitted: the journal reuses the key of an unfinished identical run (waiting while another process sends it), of one recovered within the last minute, or of a completed one under the same --confirm token, else a new one");
    if (spec.dryRunField) {
      command.option("--dry-run", `preview only: nothing executes${spec.defaultDryRun ? " (the default without --confirm)" : ""}`);
      command.option("--confirm <token>", "execute, with the confirm token a --dry-run of the same parameters returned");
    }
    if (spec.fieldsField) command.option("--fields <list>", "comma-separated fields to return (identity fields always come back)", (raw, prev: string[] | undefined) => [...(prev ?? []), ...raw.split(",").map((s) => s.trim()).filter(Boolean)]);
    if (spec.allMethod) {
      command.option("--all", "read every page, within --max-pages / --max-items; reports completeness");
      command.option("--max-pages <n>", `page bound for --all (default 10, at most ${FLAG_BOUNDS.maxPages.max})`, (raw) => parseCount(raw, FLAG_BOUNDS.maxPages));
      command.option("--max-items <n>", `item bound for --all (at most ${FLAG_BOUNDS.maxItems.max})`, (raw) => parseCount(raw, FLAG_BOUNDS.maxItems));
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

/** A bounded count: decimal digits only, within the flag's bounds. */
function parseCount(raw: string, bounds: { readonly min: number; readonly max: number }): number {
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < bounds.min || n > bounds.max) throw new InvalidArgumentError(`expected an integer from ${bounds.min} to ${bounds.max}.`);
  return n;
}

async function runCommand(def: CliDefinition, spec: CommandSpec, options: Record<string, unknown>, globals: Record<string, unknown>, io: CliIo): Promise<number> {
  const format = (globals.output as OutputFormat | undefined) ?? "json";
  let client: CliClient | undefined;
  try {
    const input: Record<string, unknown> = typeof options.input === "string" ? readInputFile(options.input, io) : {};
    // Field names come from the contract: define own properties, so `__proto__` never swaps the prototype.
    const set = (field: string, value: unknown) => Object.defineProperty(input, field, { value, enumerable: true, writable: true, configurable: true });
    const stdinFlags = spec.flags.filter((flag) => flag.file === true && Object.hasOwn(options, fieldKey(flag)) && options[fieldKey(flag)] === "-");
    if (stdinFlags.length + (options.input === "-" ? 1 : 0) > 1) throw new UsageError("stdin (`-`) can be read once: by --input or by one file flag.");
    for (const flag of spec.flags) {
      // Own values only: what commander set from the command line.
      const key = fieldKey(flag);
      const value = Object.hasOwn(options, key) ? options[key] : undefined;
      if (value !== undefined) set(flag.field, flag.file === true && typeof value === "string" ? fileFlagValue(flag, value, io) : value);
    }
    if (spec.keyField && typeof options.operationKey === "string") set(spec.keyField, options.operationKey);
    if (spec.fieldsField && Array.isArray(options.fields)) set(spec.fieldsField, options.fields);
    if (spec.confirmTokenField && typeof options.confirm === "string") set(spec.confirmTokenField, options.confirm);
    const missing = spec.flags.filter((f) => f.required && !Object.prototype.hasOwnProperty.call(input, f.field) && f.field !== spec.keyField);
    if (missing.length > 0) throw new UsageError(`missing required ${missing.map((f) => `--${f.flag}`).join(", ")}.`);

    const settings: ClientSettings = { baseUrlSetting: def.baseUrlEnv ? `--base-url or ${def.baseUrlEnv}` : "--base-url" };
    if (typeof globals.baseUrl === "string") settings.baseUrl = globals.baseUrl;
    else if (def.baseUrlEnv && process.env[def.baseUrlEnv]) settings.baseUrl = process.env[def.baseUrlEnv]!;
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
    // An error never reaches stdout: its JSON is the first line of stderr.
    if (e instanceof UsageError) {
      io.stderr(usageJson(e.message));
      io.stderr(`${def.name} ${spec.name}: ${e.message}\n`);
      return EXIT_CODES.usage;
    }
    const code = exitCodeFor(e);
    const json = e instanceof ContractError ? e.toJSON() : { code: "CLI_INTERNAL", class: "internal", message: String((e as Error)?.message ?? e) };
    io.stderr(`${JSON.stringify({ error: json })}\n`);
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
  try {
    // Inside the try: a definition commander refuses is an internal error, never a stack trace.
    const program = buildCli(def, io, state);
    await program.parseAsync([...argv], { from: "user" });
    return state.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return EXIT_CODES.success;
      // The error's JSON is the first line of stderr; commander's message follows it.
      io.stderr(usageJson(e.message.replace(/^error: /, "")));
      if (state.commanderMessage) io.stderr(state.commanderMessage);
      return EXIT_CODES.usage;
    }
    io.stderr(`${JSON.stringify({ error: { code: "CLI_INTERNAL", class: "internal", message: String((e as Error)?.message ?? e) } })}\n`);
    io.stderr(`${def.name}: internal error: ${(e as Error)?.message ?? e}\n`);
    return EXIT_CODES.internal;
  }
}
