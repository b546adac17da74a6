/**
 * The command line of a generated HTTP server skeleton (`<contract>-server`): serve the contract's
 * HTTP API with the platform team's handlers, records in SQLite or a PostgreSQL that replicas share,
 * and stop gracefully. Usage and configuration errors print one line on stderr and exit 2.
 */
import { Command, CommanderError } from "commander";
import { maskedUrl, isPostgresUrl } from "../../sdk/runtime/postgres.js";
import { DEFAULT_DRAIN_SECONDS, gracefulStop, port, seconds } from "../runtime/shutdown.js";
import type { HttpServerOptions, RunningHttpServer } from "./http.js";

export interface HttpMainInfo {
  /** The bin's name (`incidents-server`). */
  readonly name: string;
  readonly version: string;
  /** Where the host's records are kept when --database is not given (`<CONTRACT>_SERVER_DATABASE`). */
  readonly databaseEnv: string;
  /** The token callers must present (`<CONTRACT>_SERVER_TOKEN`), or null when the contract needs no credential. */
  readonly tokenEnv: string | null;
  /**
   * Where to listen without --host and --port: the contract base URL's loopback host and port, so the
   * package's clients reach the server as generated (absent: 127.0.0.1:8080).
   */
  readonly listen?: { readonly host: string; readonly port: number };
  /** The base URL the package's clients call by default and the variable that changes it, to say how to point them here when they differ. */
  readonly clients?: { readonly baseUrl: string; readonly baseUrlEnv: string };
}

/** Where a server listens when its info names no default (an older generated main.ts). */
export const FALLBACK_LISTEN = { host: "127.0.0.1", port: 8080 } as const;

export interface HttpMainIo {
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const EXIT_USAGE = 2;

/** Serve until SIGTERM/SIGINT, then drain. */
export async function runHttpMain(info: HttpMainInfo, start: (options: HttpServerOptions) => Promise<RunningHttpServer>, argv: readonly string[] = process.argv.slice(2), io: HttpMainIo = { stderr: (t) => void process.stderr.write(t), env: process.env }): Promise<void> {
  const fail = (code: number, message: string): void => {
    io.stderr(`${info.name}: ${message}\n`);
    process.exitCode = code;
  };
  const env = [
    `  ${info.databaseEnv}  where the host keeps its records when --database is not given.`,
    ...(info.tokenEnv ? [`  ${info.tokenEnv}  the token callers present (Authorization: Bearer, or the contract's API key header). Never printed.`] : []),
  ];
  const listen = info.listen ?? FALLBACK_LISTEN;
  const program = new Command(info.name)
    .description(`HTTP server for ${info.name.replace(/-server$/, "")} ${info.version}: the contract's API, running your handlers inside the contract host.`)
    .version(info.version, "-V, --version")
    .option("--host <host>", `interface to listen on${info.listen ? ", by default the contract's base URL's host" : ""}`, listen.host)
    .option("--port <port>", `port to listen on (0: any free port)${info.listen ? ", by default the contract's base URL's port, which the package's clients call" : ""}`, port, listen.port)
    .option("--database <path|url>", `where idempotency keys, recorded responses and confirm tokens are kept: a SQLite file, or a postgres:// URL that replicas share (default: $${info.databaseEnv}, else in memory)`)
    .option("--drain-timeout <seconds>", `on SIGTERM/SIGINT, how long running calls may finish before the server exits (default ${DEFAULT_DRAIN_SECONDS}; a second signal stops at once)`, seconds)
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.stderr(t), writeErr: io.stderr, outputError: (text, write) => write(text) })
    .addHelpText("after", `\nEnvironment:\n${env.join("\n")}\n\nExit codes: 0 stopped by SIGINT/SIGTERM, 1 could not serve, 2 usage error.\n`);
  try {
    program.parse([...argv], { from: "user" });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.exitCode !== 0) process.exitCode = EXIT_USAGE;
      return;
    }
    throw e;
  }
  const o = program.opts<{ host: string; port: number; database?: string; drainTimeout?: number }>();
  const database = o.database ?? (io.env[info.databaseEnv] || ":memory:");
  if (database.trim() === "") return fail(EXIT_USAGE, "--database is empty: give a SQLite file or a postgres:// URL.");
  const token = info.tokenEnv ? io.env[info.tokenEnv] : undefined;
  if (info.tokenEnv && (token === undefined || token.trim() === "")) return fail(EXIT_USAGE, `set ${info.tokenEnv} to the token callers must present.`);
  const drainMs = Math.round((o.drainTimeout ?? DEFAULT_DRAIN_SECONDS) * 1000);
  const { setStop } = gracefulStop(info.name, drainMs, io.stderr, "a retry with the same idempotency key gets the recorded answer, or executes once if nothing was committed");
  let running: RunningHttpServer;
  try {
    running = await start({ host: o.host, port: o.port, database, ...(token !== undefined ? { token } : {}), log: (line) => io.stderr(`${info.name}: ${line}\n`) });
  } catch (e) {
    return fail(1, e instanceof Error ? e.message : String(e));
  }
  setStop((ms) => running.close(ms));
  const where = isPostgresUrl(database) ? `PostgreSQL ${maskedUrl(database)}` : database === ":memory:" ? "memory (nothing survives a restart)" : `SQLite ${database}`;
  io.stderr(`${info.name}: serving at ${running.url}; records in ${where}\n`);
  // The package's CLI, SDK and tests call the contract's base URL unless told otherwise: say how, when that is not here.
  const clients = info.clients;
  if (clients && clients.baseUrl.replace(/\/+$/, "") !== running.url.replace(/\/+$/, "")) {
    io.stderr(`${info.name}: clients generated from the contract call ${clients.baseUrl}; point them here with --base-url ${running.url} or ${clients.baseUrlEnv}=${running.url}\n`);
  }
}
