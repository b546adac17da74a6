/**
 * The command line of a generated MCP server (`<contract>-mcp`): stdio by default, Streamable HTTP
 * with `--http`, and the catalogue flags. Usage and configuration errors print one line on stderr
 * and exit 2 (never a stack); stdout stays the JSON-RPC channel on stdio.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { baseUrlProblem } from "../../sdk/runtime/client.js";
import { credentialTooShort } from "../../sdk/runtime/redact.js";
import { whenReaderGone, writeTo } from "../../sdk/runtime/stdio.js";
import { serveHttp } from "./http.js";
import { DEFAULT_DRAIN_SECONDS, gracefulStop, port, seconds } from "./shutdown.js";

export { DEFAULT_DRAIN_SECONDS } from "./shutdown.js";
import { CatalogueError, createMcpService, type McpDefinition, runStdio, type ServeOptions } from "./server.js";

/** Environment variables the bin reads or documents (generated from the contract). */
export interface McpBinInfo {
  /** Bearer token the HTTP endpoint requires when set (`<CONTRACT>_MCP_BEARER`). */
  readonly bearerEnv: string;
  /** The platform credential the SDK reads, or null when the platform needs none (bins generated before `credentialEnv`). */
  readonly tokenEnv?: string | null;
  /** Every environment variable the platform's credentials are read from. */
  readonly credentialEnv?: readonly string[];
  /** The base URL's environment variable: the contract's `baseUrlEnv`, else `<CONTRACT>_BASE_URL`. */
  readonly baseUrlEnv: string | null;
  /** The journal's environment variable (`<CONTRACT>_JOURNAL`; with `_URL`, a database URL), for the help text. */
  readonly journalEnv?: string | null;
}

/** The credential variables a bin reads, whichever generation wrote its info. */
function credentialVars(info: McpBinInfo): readonly string[] {
  return info.credentialEnv ?? (info.tokenEnv ? [info.tokenEnv] : []);
}

export interface McpBinIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What the command line asks for. */
export interface McpBinPlan {
  readonly serve: ServeOptions;
  readonly http: { readonly host: string; readonly port: number; readonly allowedOrigins: readonly string[] } | null;
  /** The platform's base URL (--base-url, else the base URL variable), or null: the contract's. */
  readonly baseUrl: string | null;
  /** How long a stopping server lets running calls finish (--drain-timeout), in ms. */
  readonly drainMs: number;
  /** Where the SDK records operation keys and outcomes (--journal: a SQLite file or a postgres:// URL), or null: its default. */
  readonly journal: string | null;
}

export const EXIT_USAGE = 2;

/** `a,b, c` → [a, b, c] (empty items dropped; an empty list is refused). */
function nameList(raw: string): string[] {
  const names = raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (names.length === 0) throw new InvalidArgumentError("expected a comma-separated list of names.");
  return names;
}

/** A whole number of at least 1, in decimal digits: any up to Number.MAX_SAFE_INTEGER, beyond which a number is no longer exact. */
export function positiveInteger(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new InvalidArgumentError("expected a whole number of at least 1 (decimal digits only).");
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${raw.length > 24 ? `${raw.slice(0, 24)}…` : raw} is too large: the largest whole number taken is ${Number.MAX_SAFE_INTEGER} (Number.MAX_SAFE_INTEGER).`);
  if (n < 1) throw new InvalidArgumentError("expected a whole number of at least 1.");
  return n;
}

function origins(raw: string): string[] {
  return nameList(raw).map((o) => {
    let url: URL | null = null;
    try {
      url = new URL(o);
    } catch {
      // reported below
    }
    if (!url || url.origin !== o) throw new InvalidArgumentError(`${JSON.stringify(o).slice(0, 200)} is not an origin (scheme://host[:port], no path).`);
    return o;
  });
}

/** Parse the command line; null when it only printed help or the version. Throws CommanderError on misuse. */
export function parseMcpArgs(def: Pick<McpDefinition, "name" | "version">, info: McpBinInfo, argv: readonly string[], io: McpBinIo): McpBinPlan | null {
  const env = [
    `  ${info.bearerEnv}  bearer token the --http endpoint requires (Authorization: Bearer …); unset: none. Never printed.`,
    ...credentialVars(info).map((name) => `  ${name}  a platform credential the tools use. Never printed.`),
    ...(info.baseUrlEnv ? [`  ${info.baseUrlEnv}  the platform's base URL (--base-url wins).`] : []),
  ];
  const program = new Command(def.name)
    .description(`MCP server for ${def.name.replace(/-mcp$/, "")} ${def.version}: one tool per operation (or discovery, or code mode), over stdio (default) or Streamable HTTP.`)
    .version(def.version, "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text, write) => write(text) })
    .helpOption("-h, --help", "show this help")
    .allowExcessArguments(false)
    .option("--base-url <url>", `the platform's base URL${info.baseUrlEnv ? ` (default: $${info.baseUrlEnv}, else the contract's)` : ""}`)
    .option("--http", "serve Streamable HTTP (stateless, JSON responses) at /mcp instead of stdio")
    .option("--host <address>", "address to bind with --http (default 127.0.0.1: this machine only)")
    .option("--port <port>", "port with --http (default 0: a free port; the URL is printed on stderr)", port)
    .option("--allow-origins <origins>", "browser origins allowed besides loopback ones, comma-separated (others get 403)", origins)
    .option("--toolsets <names>", "serve only the tools of these toolsets, comma-separated", nameList)
    .option("--tools <names>", "serve only these tools (besides those of --toolsets), comma-separated", nameList)
    .addOption(
      new Option("--mode <mode>", "tools: one tool per operation (default); discovery: search_tools, describe_tool, call_tool; code: search_docs and execute (TypeScript programs against the SDK, run in a sandbox)").choices(["tools", "discovery", "code"]),
    )
    .option("--discovery", "the same as --mode discovery")
    .option("--max-catalogue-tokens <n>", "most tokens the listed tools may cost; a larger catalogue is served in discovery mode (default: the contract's budget, else 100000)", positiveInteger)
    .option("--journal <path|url>", `where operation keys and outcomes are recorded: a SQLite file, or a postgres:// URL that replicas share (default: ${info.journalEnv ? `$${info.journalEnv}_URL, $${info.journalEnv}, else ` : ""}a file under ~/.contractgen)`)
    .option("--drain-timeout <seconds>", `on SIGTERM/SIGINT, how long running calls may finish before the server exits (default ${DEFAULT_DRAIN_SECONDS}; a second signal stops at once)`, seconds)
    .addOption(new Option("--text <mode>", "text block of a result: the JSON (default), or compact: the same data in fewer tokens").choices(["json", "compact"]))
    .addHelpText("after", `\nEnvironment:\n${env.join("\n")}\n\nExit codes: 0 stopped by SIGINT/SIGTERM or end of input, 1 could not serve, 2 usage error.\n`);
  let shown = false;
  try {
    program.parse([...argv], { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError && (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help")) shown = true;
    else throw e;
  }
  if (shown) return null;
  const o = program.opts<{ baseUrl?: string; http?: boolean; host?: string; port?: number; allowOrigins?: string[]; toolsets?: string[]; tools?: string[]; mode?: "tools" | "discovery" | "code"; discovery?: boolean; maxCatalogueTokens?: number; drainTimeout?: number; journal?: string; text?: "json" | "compact" }>();
  if (o.discovery && o.mode !== undefined && o.mode !== "discovery") throw new CommanderError(EXIT_USAGE, "contractgen.usage", `error: --discovery contradicts --mode ${o.mode}`);
  const mode = o.discovery ? "discovery" : (o.mode ?? "tools");
  if (mode === "code" && o.text !== undefined) throw new CommanderError(EXIT_USAGE, "contractgen.usage", "error: --text shapes the results of per-operation tools; code mode returns what the program returns");
  if (!o.http) {
    const stray = (["host", "port", "allowOrigins"] as const).find((k) => o[k] !== undefined);
    if (stray) throw new CommanderError(EXIT_USAGE, "contractgen.usage", `error: --${stray === "allowOrigins" ? "allow-origins" : stray} needs --http`);
  }
  const serve: ServeOptions = {
    ...(o.toolsets ? { toolsets: o.toolsets } : {}),
    ...(o.tools ? { tools: o.tools } : {}),
    ...(mode === "discovery" ? { discovery: true } : {}),
    ...(mode === "code" ? { code: true } : {}),
    ...(o.maxCatalogueTokens !== undefined ? { maxCatalogueTokens: o.maxCatalogueTokens } : {}),
    ...(o.text ? { text: o.text } : {}),
  };
  const fromEnv = info.baseUrlEnv ? io.env[info.baseUrlEnv] : undefined;
  const baseUrl = o.baseUrl ?? (fromEnv ? fromEnv : null);
  if (baseUrl !== null) {
    const problem = baseUrlProblem(baseUrl);
    if (problem) throw new CommanderError(EXIT_USAGE, "contractgen.usage", `error: the base URL ${o.baseUrl !== undefined ? "(--base-url)" : `(${info.baseUrlEnv})`} cannot be used: ${problem}`);
  }
  if (o.journal !== undefined && o.journal.trim() === "") throw new CommanderError(EXIT_USAGE, "contractgen.usage", "error: --journal is empty: give a SQLite file or a postgres:// URL.");
  return { serve, baseUrl, journal: o.journal ?? null, drainMs: Math.round((o.drainTimeout ?? DEFAULT_DRAIN_SECONDS) * 1000), http: o.http ? { host: o.host ?? "127.0.0.1", port: o.port ?? 0, allowedOrigins: o.allowOrigins ?? [] } : null };
}

// Output to a reader that has gone is dropped, never a stack trace (runtime/stdio.ts).
const processIo: McpBinIo = { stdout: (t) => writeTo(process.stdout, t), stderr: (t) => writeTo(process.stderr, t), env: process.env };

/**
 * Run the bin: parse, check the catalogue options, serve until SIGINT/SIGTERM (or, on stdio, the end
 * of input), then close the transport and the SDK client. Sets process.exitCode on failure.
 */
export async function runMcpMain(
  definition: McpDefinition | ((options: { baseUrl?: string; journal?: string; baseUrlSetting?: string }) => McpDefinition),
  info: McpBinInfo,
  argv: readonly string[] = process.argv.slice(2),
  io: McpBinIo = processIo,
): Promise<void> {
  let def = typeof definition === "function" ? definition({}) : definition;
  const fail = (code: number, message: string) => {
    io.stderr(`${def.name}: ${message}\n`);
    process.exitCode = code;
  };
  let plan: McpBinPlan | null;
  try {
    plan = parseMcpArgs(def, info, argv, io);
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander has printed its own message unless the error is ours.
      if (e.code === "contractgen.usage") io.stderr(`${e.message}\n`);
      process.exitCode = EXIT_USAGE;
      return;
    }
    throw e;
  }
  if (!plan) return;
  // The definition builds the SDK client: given the base URL the command line or environment chose.
  // An unreachable platform's error names this bin's way to set the base URL.
  if (typeof definition === "function") {
    const baseUrlSetting = info.baseUrlEnv ? `--base-url or ${info.baseUrlEnv}` : "--base-url";
    def = definition({ baseUrlSetting, ...(plan.baseUrl !== null ? { baseUrl: plan.baseUrl } : {}), ...(plan.journal !== null ? { journal: plan.journal } : {}) });
  }
  // A skeleton server keeps its records in its host's database, not in an SDK journal.
  if (typeof definition !== "function" && plan.journal !== null) return fail(EXIT_USAGE, "--journal applies to a server that calls the platform through the SDK (adapter mode); a skeleton keeps its records in the database its <CONTRACT>_MCP_DATABASE variable names (a SQLite file, or a postgres:// URL that replicas share).");
  // Checked here, where the credentials enter, rather than on each tool call: a value too short to
  // redact is refused before anything is served.
  for (const name of [...credentialVars(info), plan.http ? info.bearerEnv : null]) {
    const short = name !== null && io.env[name] !== undefined ? credentialTooShort(io.env[name]!) : null;
    if (short) return fail(EXIT_USAGE, `${name}: ${short}.`);
  }

  // Said on stderr (stdout is the JSON-RPC channel on stdio) when the catalogue is served by discovery.
  const serve: ServeOptions = { ...plan.serve, notice: (line) => io.stderr(`${def.name}: ${line}\n`) };
  // Stopping: no new requests; running calls finish (each outcome recorded in the journal) until the
  // drain deadline; a second signal stops at once.
  const { setStop, shutdown } = gracefulStop(def.name, plan.drainMs, io.stderr, "a retry with the same arguments recovers it from the journal");
  try {
    if (plan.http) {
      const raw = io.env[info.bearerEnv];
      if (raw !== undefined && raw.trim() === "") return fail(EXIT_USAGE, `${info.bearerEnv} is set but empty: set a token or unset it.`);
      const bearer = raw ?? null;
      const service = createMcpService(def, serve);
      let running;
      try {
        running = await serveHttp(service, { ...plan.http, bearer, log: (line) => io.stderr(`${def.name}: ${line}\n`) });
      } catch (e) {
        return fail(1, `cannot listen on ${plan.http.host}:${plan.http.port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      io.stderr(`${def.name}: serving MCP over Streamable HTTP at ${running.url}${bearer !== null ? ` (bearer token required, from ${info.bearerEnv})` : ""}\n`);
      if (bearer === null && !["127.0.0.1", "localhost", "::1"].includes(plan.http.host)) {
        io.stderr(`${def.name}: warning: listening on ${plan.http.host} without a bearer token; set ${info.bearerEnv} to require one.\n`);
      }
      setStop((ms) => running.close(ms));
    } else {
      // A client that closed our stdout has gone: stop as at the end of input, quietly.
      whenReaderGone(process.stdout, () => shutdown());
      const stdio = await runStdio(def, serve);
      setStop((ms) => stdio.stop(ms));
    }
  } catch (e) {
    if (e instanceof CatalogueError) return fail(EXIT_USAGE, e.message);
    throw e;
  }
}
