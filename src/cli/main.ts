import { readFileSync } from "node:fs";
import { Argument, Command, CommanderError, Option } from "commander";
import { completionScript, type Shell } from "../cli-runtime/completion.js";
import { packagePath } from "../package-root.js";
import { REPORT_FORMATS } from "../diff/report/index.js";
import type { BudgetOptions } from "./commands/budget.js";
import type { DiffOptions } from "./commands/diff.js";
import type { GenerateOptions } from "./commands/generate.js";
import type { ImportOpenApiOptions } from "./commands/import-openapi.js";
import type { OverlayFromOptions } from "./commands/overlay-from.js";
import type { TestOptions } from "./commands/test.js";
import type { ValidateOptions } from "./commands/validate.js";
import { EXIT, type Io, processIo } from "./io.js";

export { EXIT, type Io } from "./io.js";

/** `--ref-root <dir>`, repeatable: folders besides the contract's own that `$ref` may read. */
function refRootOption(): Option {
  return new Option("--ref-root <dir>", "also let $ref read files under this folder (repeatable; default: only the contract's own folder)")
    .argParser((dir: string, previous: string[] | undefined) => [...(previous ?? []), dir]);
}

/** `--overlay <file>`, repeatable and applied in order: an OpenAPI Overlay (1.0, 1.1) changing the document before it is read. */
function overlayOption(): Option {
  return new Option("--overlay <file>", "apply this OpenAPI Overlay (1.0 or 1.1) to an OpenAPI document before it is read (repeatable, applied in order)")
    .argParser((file: string, previous: string[] | undefined) => [...(previous ?? []), file]);
}

/**
 * Options a command cannot run without. Commander checks its own mandatory options before it looks
 * for unknown ones, so a mistyped `--ouput x` would only be told that `--out` is missing, with no
 * "Did you mean --out?". These are checked by the program's preAction hook instead, which runs after
 * unknown options and arguments were checked, for every command.
 */
const REQUIRED = new WeakSet<Option>();

function requiredOption(flags: string, description: string): Option {
  const option = new Option(flags, description);
  REQUIRED.add(option);
  return option;
}

/** A command's required options that were not given: the message commander gives for its own. */
function checkRequired(_program: Command, action: Command): void {
  for (const option of action.options) {
    if (REQUIRED.has(option) && action.getOptionValue(option.attributeName()) === undefined) {
      action.error(`error: required option '${option.flags}' not specified`, { code: "commander.missingMandatoryOptionValue" });
    }
  }
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command("contractgen")
    .description("Generate an SDK, CLI, MCP server and contract tests from one behavioural contract; diff contract versions.")
    .version(readVersion(), "-V, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showSuggestionAfterError(true)
    .hook("preAction", checkRequired);

  program
    .command("validate")
    .description("Check contracts (or OpenAPI documents, imported in memory): structure against the published JSON Schema, then semantic rules. Exit 0 valid, 1 invalid, 2 usage.")
    .argument("<spec...>", "contract files, or OpenAPI 3.0/3.1 documents (YAML or JSON)")
    .addOption(new Option("-f, --format <format>", "output format").choices(["text", "json"]).default("text"))
    .option("--no-warnings", "report errors only")
    .option("--strict", "an overlay action whose target matches nothing is an error, not a warning", false)
    .option("--no-progress", "never show progress (it shows only on a terminal, for work longer than a second)")
    .addOption(refRootOption())
    .addOption(overlayOption())
    .action(async (specs: string[], options: ValidateOptions) => {
      // Commands load their code on demand: `validate` need not pay for the emitters or the tokenizer.
      const { validateCommand } = await import("./commands/validate.js");
      setExit(await validateCommand(specs, options, io));
    });

  program
    .command("generate")
    .description("Generate the SDK package for a contract into a folder, atomically and deterministically. Exit 0 done (or up to date with --check), 1 invalid contract or stale output, 2 usage.")
    .argument("<spec>", "contract file, or OpenAPI 3.0/3.1 document (YAML or JSON)")
    .addOption(requiredOption("-o, --out <dir>", "output folder; only files contractgen generated there (and nobody edited since) are replaced, everything else is kept"))
    .option("--check", "write nothing; exit 1 listing the files that differ from what would be generated", false)
    .option("--force", "replace files in the way of generated ones (yours, edited, links, FIFOs); never folders, never through a link", false)
    .option("--watch", "regenerate whenever the contract or a file it references changes", false)
    .option("--no-progress", "never show progress (it shows only on a terminal, for work longer than a second)")
    .addOption(new Option("--mcp <mode>", "MCP server: adapter (calls the platform through the SDK) or skeleton (handler stubs you fill in, served through the contract host; never overwritten)").choices(["adapter", "skeleton"]).default("adapter"))
    .addOption(new Option("--server <mode>", "HTTP server for the contract's own API: none, or skeleton (server/, running the handler stubs in mcp/handlers/ inside the contract host; implies --mcp skeleton, so one implementation serves both)").choices(["none", "skeleton"]).default("none"))
    .option("--skill", "write the Agent Skill, skill/<name>/ (SKILL.md and references/; the default)")
    .option("--no-skill", "do not write the Agent Skill")
    .addOption(refRootOption())
    .addOption(overlayOption())
    .action(async (spec: string, options: GenerateOptions) => {
      if (options.check && (options.watch || options.force)) {
        io.stderr(`contractgen: --check cannot be combined with ${options.watch ? "--watch" : "--force"}.\n`);
        setExit(EXIT.usage);
        return;
      }
      const { generateCommand } = await import("./commands/generate.js");
      setExit(await generateCommand(spec, options, io, readVersion()));
    });

  program
    .command("diff")
    .description("Compare two versions of a contract: every change with its rule id, severity, both locations and a migration hint. Each side is a file or a git ref (main:specs/billing.yaml). Exit 0 nothing at or above --fail-on, 1 findings at or above it, 2 usage or invalid contract.")
    .argument("<old>", "the earlier contract or OpenAPI document (file or rev:path)")
    .argument("<new>", "the later contract or OpenAPI document (file or rev:path)")
    .addOption(new Option("-f, --format <format>", "report format").choices([...REPORT_FORMATS]).default("text"))
    .addOption(new Option("--fail-on <severity>", "exit 1 when a finding is at least this severe").choices(["breaking", "warning", "info", "never"]).default("breaking"))
    .option("-c, --config <file>", "YAML file: `rules: {<id>: breaking|warning|info|off}` and `ignore: [{rule, operation?, reason}]`")
    .option("--no-progress", "never show progress (it shows only on a terminal, for work longer than a second)")
    .addOption(refRootOption())
    .addOption(overlayOption())
    .option("--date <YYYY-MM-DD>", "the day the diff judges sunsets by when a side has no release date (an OpenAPI document); default today (UTC)")
    .action(async (before: string, after: string, options: DiffOptions) => {
      if (options.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.date)) {
        io.stderr("contractgen diff: error [diff-date-invalid] --date must be YYYY-MM-DD.\n");
        setExit(EXIT.usage);
        return;
      }
      const { diffCommand } = await import("./commands/diff.js");
      setExit(await diffCommand(before, after, options, io));
    });

  program
    .command("import-openapi")
    .description("Convert an OpenAPI 3.0/3.1 document into a contract, with a review report of everything guessed or dropped. Exit 0 imported, 1 the document cannot be imported, 2 usage or the output is not ours to replace.")
    .argument("<openapi>", "OpenAPI document (YAML or JSON); $refs may read files under its folder only")
    .addOption(requiredOption("-o, --out <file>", "contract file to write; only a contract import-openapi wrote (and nobody edited since) is replaced"))
    .option("--report <base>", "write the review report to <base>.md and <base>.json")
    .option("--name <contract>", "contract name (default: derived from info.title)")
    .option("--date <YYYY-MM-DD>", "date of the changelog entry (default: a 1970-01-01 placeholder, so re-imports are identical)")
    .addOption(new Option("--tag <tag>", "import only the operations with this tag, and the types they reach (repeatable)").argParser((tag: string, previous: string[] | undefined) => [...(previous ?? []), tag]))
    .option("--force", "replace an output file that is not an unedited import (never a link or a folder)", false)
    .option("--strict", "exit 1 and write no contract when a reference could not be followed or a schema loop was cut (review kinds ref-unresolved, ref-cycle-broken), or an overlay action matches nothing", false)
    .addOption(overlayOption())
    .option("--no-progress", "never show progress (it shows only on a terminal, for work longer than a second)")
    .action(async (file: string, options: ImportOpenApiOptions) => {
      if (options.name !== undefined && !/^[a-z][a-z0-9]*([_-][a-z0-9]+)*$/.test(options.name)) {
        io.stderr("contractgen: --name must be lower case words joined by - or _ (e.g. petstore).\n");
        setExit(EXIT.usage);
        return;
      }
      if (options.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.date)) {
        io.stderr("contractgen: --date must be YYYY-MM-DD.\n");
        setExit(EXIT.usage);
        return;
      }
      const { importOpenApiCommand } = await import("./commands/import-openapi.js");
      setExit(await importOpenApiCommand(file, options, io));
    });

  program
    .command("overlay-from")
    .description("Keep the edits of a contract imported from OpenAPI as an OpenAPI Overlay: the overlay that makes the document import to the edited contract (checked before it is written). Exit 0 written (or nothing to keep), 1 the document cannot be imported or the edits cannot be kept, 2 usage or the output is not ours to replace.")
    .argument("<contract>", "the contract import-openapi wrote and you edited")
    .addOption(requiredOption("--openapi <document>", "the OpenAPI document it was imported from (current version)"))
    .addOption(requiredOption("-o, --out <file>", "overlay file to write (YAML); only an overlay overlay-from wrote (and nobody edited since) is replaced"))
    .addOption(new Option("--overlay <file>", "an overlay the document is already used with, applied before the one written (repeatable, in order)").argParser((file: string, previous: string[] | undefined) => [...(previous ?? []), file]))
    .option("--force", "replace an output file overlay-from did not write (never a link or a folder)", false)
    .action(async (contract: string, options: OverlayFromOptions) => {
      const { overlayFromCommand } = await import("./commands/overlay-from.js");
      setExit(await overlayFromCommand(contract, options, io));
    });

  program
    .command("budget")
    .description("Tokens of the tools/list the generated MCP server serves, per tool and in total (o200k_base and cl100k_base), against its declared budget. Exit 0 within budget, 1 over it or invalid.")
    .argument("<spec>", "contract file, or OpenAPI 3.0/3.1 document (YAML or JSON)")
    .addOption(new Option("-f, --format <format>", "output format").choices(["text", "json"]).default("text"))
    .addOption(refRootOption())
    .addOption(overlayOption())
    .action(async (spec: string, options: BudgetOptions) => {
      const { budgetCommand } = await import("./commands/budget.js");
      setExit(await budgetCommand(spec, options, io));
    });

  program
    .command("test")
    .description("Run the contract's generated test suite against a live implementation, without writing a project. Exit 0 every check that ran passed (at least one ran), 1 a contract violation found, 2 bad input or the suite could not run, 3 no check ran (all skipped: nothing verified), 4 no check failed but some operations answer with a generated handler stub (not implemented yet; --allow-not-implemented exits 0).")
    .argument("<spec>", "contract file, or OpenAPI 3.0/3.1 document (YAML or JSON)")
    .option("--base-url <url>", "the implementation under test (checked reachable first when no --fixture is given)")
    .option("--token-env <var>", "environment variable holding the credential to send (never printed)")
    .option("--samples <file>", "JSON or YAML: operation id -> [input that succeeds, other input that succeeds], and the sections errors, tokensWithout, undo, taskResults; what they do not give is derived from the contract and the implementation's answers")
    .option("--reset-command <command>", "run this command (through the shell) before every check to bring the implementation back to its initial state, so samples of mutating operations may succeed once")
    .option("--observe-command <command>", "prints a JSON snapshot of everything an operation may change (default: a snapshot of every safe list and read)")
    .option("--clock-command <command>", "moves the implementation's clock forward by the milliseconds appended to it")
    .option("--dataset-command <command>", "resets into the data set appended (empty, mixed, default; then a per-call bound); exit 3 when it cannot")
    .option("--degrade-command <command>", "makes part of the store behind the operation appended fail until the next reset; exit 3 when it cannot")
    .option("--fail-after-commit-command <command>", "makes the next execution of the operation appended commit, then answer its transient error; exit 3 when it cannot")
    .option("--no-derive", "use only the samples file's inputs: derive nothing from the implementation's answers (which creates objects to derive with)")
    .option("--fixture <module>", "your fixture module (below) instead of the one built from these flags")
    .option("--operations <ids>", "only these operations' checks (comma-separated)")
    .option("--report-dir <dir>", "write contract-junit.xml, contract-summary.md and contract-summary.json here")
    .option("--request-timeout <duration>", "time limit of each request the suite sends, e.g. 10s (default: the contract's http.timeout)")
    .option("--suite-timeout <duration>", "time limit of the whole suite, e.g. 30m (default 20m): later checks fail at once, the reports are still written")
    .option("--max-response-bytes <bytes>", "largest response body the suite reads, after decompression (default 8388608)")
    .option("--verbose", "vitest's own output, stack traces included, instead of one line per check")
    .option("--allow-not-implemented", "exit 0, not 4, when the only checks not judged are those of handlers still generated stubs (while filling in a skeleton)")
    .addOption(refRootOption())
    .addOption(overlayOption())
    .addHelpText(
      "after",
      [
        "",
        "The --fixture module: an ES module in TypeScript or JavaScript (.ts, .mts, .js, .mjs) whose named export",
        "`fixture` is a Fixture (the type, each member documented: tests/runtime/harness.ts of a generated package).",
        "  required: baseUrl, reset(), sampleInput(operation, variant)",
        "  credential: token (bearer token or API key), or credentials (a Map by scheme name)",
        "  optional: start(), stop(), observe(), advanceTime(ms), errorInput(operation, code), tokenWithout(scope),",
        "    undoInput(operation, input, output), resetWith(options), degrade(operation), taskResult(operation, input),",
        "    failAfterCommit(operation), enabler(need)",
        "--base-url and the credential of --token-env reach it as the environment variables CONTRACT_BASE_URL and",
        "CONTRACT_TOKEN (a generated package's tests/fixture.ts reads both).",
      ].join("\n"),
    )
    .action(async (spec: string, options: TestOptions) => {
      const { testCommand } = await import("./commands/test.js");
      setExit(await testCommand(spec, options, io));
    });

  program
    .command("completion")
    .description("print a shell completion script for contractgen")
    .addArgument(new Argument("<shell>", "bash or zsh").choices(["bash", "zsh"]))
    .action((shell: Shell) => {
      io.stdout(completionScript(program, shell));
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
