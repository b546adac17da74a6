import { allFindings, type DiffConfig, runDiff } from "../../diff/engine.js";
import { ConfigError, loadDiffConfig } from "../../diff/config.js";
import { execFileSync } from "node:child_process";
import { relative, resolve, sep } from "node:path";
import { type Diagnostic, diagnostic, type SourceLocation } from "../../diagnostics/diagnostic.js";
import { MAX_SCHEMA_NODES } from "../../diff/tree.js";
import { loadSide, type LoadedSide, parseGitRef, SIDE_ERRORS, SideError } from "../../diff/load.js";
import { diffFacts } from "../../import/open.js";
import { renderReport, type ReportFormat } from "../../diff/report/index.js";
import { type Finding, type Severity } from "../../diff/rule.js";
import { RULES } from "../../diff/rules/index.js";
import { EXIT, type Io, printDiagnostics, progressOn } from "../io.js";

export interface DiffOptions {
  readonly format: ReportFormat;
  readonly failOn: Severity | "never";
  readonly config?: string;
  readonly refRoot?: readonly string[];
  /** `--overlay`, repeatable: overlays applied, in order, to each side that is an OpenAPI document. */
  readonly overlay?: readonly string[];
  /** false with `--no-progress`. */
  readonly progress?: boolean;
  /** `--date`: the day sunsets are judged by when a side dates no release. */
  readonly date?: string;
}

const RANK: Record<Severity, number> = { breaking: 3, warning: 2, info: 1 };

/** Findings at or above the threshold make the run fail, consequences included. */
export function failsOn(findings: readonly Finding[], threshold: Severity | "never"): boolean {
  return threshold !== "never" && allFindings(findings).some((f) => RANK[f.severity] >= RANK[threshold]);
}

/** The repository root (git rev-parse --show-toplevel), else the working directory. */
function repoRoot(): string {
  try {
    return execFileSync("git", ["rev-parse", "--show-toplevel"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim() || process.cwd();
  } catch {
    return process.cwd();
  }
}

/** A side's file relative to the repository root, with forward slashes. */
function repoPath(arg: string): string {
  const root = repoRoot();
  const ref = parseGitRef(arg);
  // git reads `rev:path` from the repository root, `rev:./path` from the working directory.
  const abs = ref && !/^\.\.?\//.test(ref.path) ? resolve(root, ref.path) : resolve(ref ? ref.path : arg);
  return relative(root, abs).split(sep).join("/");
}

/** A warning per schema of a side that the diff compared only as far as MAX_SCHEMA_NODES. */
function oversized(side: LoadedSide, pointers: readonly string[]): Diagnostic[] {
  const source = side.result.source;
  if (!source) return [];
  return pointers.map((pointer) =>
    diagnostic(
      "diff-schema-too-large",
      `The schema at ${pointer} expands to more than ${MAX_SCHEMA_NODES.toLocaleString("en-US")} nodes once its references are followed; the diff compares it only that far.`,
      source.locate(pointer),
    ),
  );
}

/** `contractgen diff <old> <new>`: exit 0 clean, 1 findings at or above --fail-on, 2 usage or unreadable sides. */
export async function diffCommand(before: string, after: string, options: DiffOptions, io: Io): Promise<number> {
  const progress = progressOn(io, options.progress !== false);
  try {
    return await diffWith(before, after, options, io, progress.update, progress.end);
  } finally {
    progress.end();
  }
}

async function diffWith(
  before: string,
  after: string,
  options: DiffOptions,
  io: Io,
  onProgress: (phase: string, done: number, total: number) => void,
  endProgress: () => void,
): Promise<number> {
  let config: DiffConfig = {};
  let sides: [LoadedSide, LoadedSide];
  try {
    if (options.config) config = loadDiffConfig(options.config, RULES);
    const refRoots = options.refRoot ?? [];
    const side = (label: string) => (phase: string, done: number, total: number) => onProgress(`${label}: ${phase}`, done, total);
    // The sides share most schemas: one meta-validates what the other already did.
    const metaValid = new Set<string>();
    const overlays = options.overlay ?? [];
    sides = [await loadSide(before, { refRoots, overlays, onProgress: side("old"), metaValid }), await loadSide(after, { refRoots, overlays, onProgress: side("new"), metaValid })];
  } catch (e) {
    endProgress();
    if (e instanceof SideError) {
      io.stderr(`contractgen diff: ${e.where}: error [${e.code}] ${e.message}\n  hint: ${SIDE_ERRORS[e.code]}\n`);
      return EXIT.usage;
    }
    if (e instanceof ConfigError) {
      io.stderr(`contractgen diff: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
  const [a, b] = sides;
  endProgress();
  if ((options.overlay ?? []).length > 0 && !sides.some((s) => s.result.format === "openapi")) {
    io.stderr(`contractgen diff: error [overlay-needs-openapi] --overlay was given, but neither ${a.label} nor ${b.label} is an OpenAPI document.\n  hint: Overlays change an OpenAPI document before it is imported; pass the OpenAPI documents, or drop --overlay.\n`);
    return EXIT.usage;
  }
  if (!a.result.model || !b.result.model) {
    printDiagnostics([...a.result.diagnostics, ...b.result.diagnostics].filter((d) => d.severity === "error"), io);
    io.stderr(`contractgen diff: ${[!a.result.model ? a.label : null, !b.result.model ? b.label : null].filter(Boolean).join(" and ")} is not a valid contract; nothing was compared.\n`);
    return EXIT.usage;
  }
  onProgress("compare", 0, a.result.model.operations.length + b.result.model.operations.length);
  // An OpenAPI document dates no release (its import writes a placeholder): sunsets are judged by the run's date.
  const report = runDiff(
    { model: a.result.model, source: a.result.source, label: a.label, ...diffFacts(a.result) },
    { model: b.result.model, source: b.result.source, label: b.label, ...diffFacts(b.result) },
    { ...config, ...(options.date !== undefined ? { today: options.date } : {}) },
  );
  printDiagnostics(
    [...oversized(a, report.oversized?.old ?? []), ...oversized(b, report.oversized?.new ?? [])],
    io,
  );
  // A git side was parsed under its working-tree path; show the ref the user named instead. GitHub
  // annotations need the file itself, relative to the repository root.
  const names = options.format === "github" ? [repoPath(before), repoPath(after)] : [a.label, b.label];
  const file = (l: SourceLocation | null, side: LoadedSide, name: string) => (l && l.file === side.result.source?.path ? { ...l, file: name } : l);
  const relabel = <F extends Finding>(f: F): F => ({
    ...f,
    old: file(f.old, a, names[0]!),
    new: file(f.new, b, names[1]!),
    anchor: file(f.anchor, b, names[1]!),
    consequences: f.consequences.map(relabel),
  });
  endProgress();
  const shown = { ...report, findings: report.findings.map(relabel), ignored: report.ignored.map(relabel) };
  io.stdout(renderReport(shown, options.format, io.color));
  return failsOn(report.findings, options.failOn) ? EXIT.invalid : EXIT.ok;
}

