/**
 * The command line of the example servers: `--port`, `--db`, `--token` (or the contract's token
 * environment variable), `--defect` (a seeded defect, for proving a test suite bites), plus options
 * of the platform. Prints the URL and serves until interrupted.
 */
import { parseArgs } from "node:util";
import { type RunningPlatform, SEEDED_DEFECT_IDS, isSeededDefect } from "./host.js";
import { type ExampleServerOptions, loadExampleContract } from "./example.js";
import { authEnvVars } from "../../src/model/types.js";

export interface ExampleCli<Extra> {
  readonly spec: string;
  /** Overlays of an OpenAPI `spec`, in order. */
  readonly overlays?: readonly string[];
  /** Extra string options (name → help text). */
  readonly extraOptions?: Readonly<Record<string, string>>;
  readonly start: (options: ExampleServerOptions & Extra) => Promise<RunningPlatform>;
  /** Turns the extra option values into server options (throw an Error to report a usage problem). */
  readonly extra: (values: Readonly<Record<string, string | undefined>>) => Extra;
}

export async function runExampleCli<Extra>(cli: ExampleCli<Extra>, argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const model = await loadExampleContract(cli.spec, cli.overlays);
  const auth = model.transport.auth;
  const tokenEnv = authEnvVars(auth)[0] ?? null;
  const defaultPort = new URL(model.transport.baseUrl).port || "0";
  const usage = [
    `usage: ${model.name} [--port N] [--db FILE] [--token TOKEN] [--defect NAME]${Object.keys(cli.extraOptions ?? {}).map((o) => ` [--${o} VALUE]`).join("")}`,
    `  --port   port on 127.0.0.1 (default ${defaultPort}, from the contract's baseUrl; 0 picks a free one)`,
    "  --db     SQLite file (default: in memory)",
    `  --token  bearer token callers must send${tokenEnv ? ` (default: $${tokenEnv})` : ""}`,
    `  --defect break one promise of the contract on purpose: ${SEEDED_DEFECT_IDS.join(", ")}`,
    ...Object.entries(cli.extraOptions ?? {}).map(([name, help]) => `  --${name}  ${help}`),
  ].join("\n");

  let options: ExampleServerOptions & Extra;
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: "string" },
        db: { type: "string" },
        token: { type: "string" },
        defect: { type: "string" },
        help: { type: "boolean" },
        ...Object.fromEntries(Object.keys(cli.extraOptions ?? {}).map((name) => [name, { type: "string" as const }])),
      },
    });
    if (values.help) {
      process.stdout.write(`${usage}\n`);
      return;
    }
    const port = Number(values.port ?? defaultPort);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not ${String(values.port)}`);
    const token = (values.token as string | undefined) ?? (tokenEnv ? process.env[tokenEnv] : undefined);
    if (tokenEnv && !token) throw new Error(`give --token or set ${tokenEnv}`);
    const defect = values.defect as string | undefined;
    if (defect !== undefined && !isSeededDefect(defect)) throw new Error(`--defect must be one of ${SEEDED_DEFECT_IDS.join(", ")}, not ${defect}`);
    const all = values as Readonly<Record<string, string | boolean | undefined>>;
    const extras = Object.fromEntries(Object.keys(cli.extraOptions ?? {}).map((name) => [name, all[name] as string | undefined]));
    options = {
      port,
      db: (values.db as string | undefined) ?? ":memory:",
      ...(token ? { token } : {}),
      ...(defect !== undefined ? { defect } : {}),
      ...cli.extra(extras),
    };
  } catch (error) {
    process.stderr.write(`${model.name}: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`);
    process.exitCode = 2;
    return;
  }

  const running = await cli.start(options);
  process.stdout.write(`${model.title} (${model.name} ${model.version}) listening on ${running.url}\n`);
  if (running.defect) process.stderr.write(`${model.name}: seeded defect ${running.defect} (this platform breaks its contract on purpose)\n`);
  const shutdown = () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

/** A positive integer option value, or undefined when the option was not given. */
export function positiveIntegerOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, not ${value}`);
  return n;
}
