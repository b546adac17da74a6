import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { diagnosticToJson, formatDiagnosticText, summaryLine } from "../diagnostics/format.js";
import { packagePath } from "../package-root.js";
import { parseContract } from "../spec/parse.js";

/** Exit codes of the contractgen tool itself. */
export const EXIT = { ok: 0, invalid: 1, usage: 2, internal: 70 } as const;

export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly color: boolean;
}

const processIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
};

function readLine(cache: Map<string, string[] | null>, file: string, line: number): string | undefined {
  if (!cache.has(file)) {
    try {
      cache.set(file, readFileSync(file, "utf8").split(/\r?\n/));
    } catch {
      cache.set(file, null);
    }
  }
  return cache.get(file)?.[line - 1];
}

/** `contractgen validate <spec...>`: exit 0 when every file is valid, 1 when any has an error. */
function validateCommand(specs: string[], options: { format: "text" | "json"; warnings: boolean }, io: Io): number {
  const results = specs.map((spec) => ({ spec, result: parseContract(spec) }));
  const visible = (spec: (typeof results)[number]) =>
    spec.result.diagnostics.filter((d) => options.warnings || d.severity === "error");
  const invalid = results.some((r) => r.result.model === undefined);
  if (options.format === "json") {
    const report = {
      valid: !invalid,
      files: results.map((r) => ({
        file: r.spec,
        valid: r.result.model !== undefined,
        diagnostics: visible(r).map(diagnosticToJson),
      })),
    };
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const cache = new Map<string, string[] | null>();
    const all = results.flatMap(visible);
    for (const d of all) {
      io.stderr(`${formatDiagnosticText(d, { color: io.color, lineOf: (f, l) => readLine(cache, f, l) })}\n\n`);
    }
    for (const r of results) {
      if (r.result.model) io.stdout(`${r.spec}: valid (${r.result.model.name} ${r.result.model.version}, ${r.result.model.operations.length} operations)\n`);
      else io.stdout(`${r.spec}: invalid\n`);
    }
    io.stderr(`${summaryLine(all, results.length)}\n`);
  }
  return invalid ? EXIT.invalid : EXIT.ok;
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command("contractgen")
    .description("Generate an SDK, CLI, MCP server and contract tests from one behavioural contract; diff contract versions.")
    .version(readVersion(), "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showSuggestionAfterError(true);

  program
    .command("validate")
    .description("Check contract files: structure against the published JSON Schema, then semantic rules. Exit 0 valid, 1 invalid, 2 usage.")
    .argument("<spec...>", "contract files (YAML)")
    .addOption(new Option("-f, --format <format>", "output format").choices(["text", "json"]).default("text"))
    .option("--no-warnings", "report errors only")
    .action((specs: string[], options: { format: "text" | "json"; warnings: boolean }) => {
      setExit(validateCommand(specs, options, io));
    });

  return program;
}

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(packagePath("package.json"), "utf8")) as { version?: string };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/** Run the tool; resolves to the process exit code. Never lets an exception escape as a stack trace. */
export async function run(argv: readonly string[], io: Io = processIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return EXIT.ok;
      return EXIT.usage;
    }
    io.stderr(`contractgen: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    io.stderr("This is a bug in contractgen; please report it with the input that caused it.\n");
    if (process.env.CONTRACTGEN_DEBUG) io.stderr(`${(e as Error)?.stack ?? ""}\n`);
    return EXIT.internal;
  }
}
