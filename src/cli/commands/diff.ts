import { type DiffConfig, runDiff } from "../../diff/engine.js";
import { ConfigError, loadDiffConfig } from "../../diff/config.js";
import { loadSide, type LoadedSide, SideError } from "../../diff/load.js";
import { renderReport, type ReportFormat } from "../../diff/report/index.js";
import { type Finding, type Severity } from "../../diff/rule.js";
import { RULES } from "../../diff/rules/index.js";
import { EXIT, type Io, printDiagnostics } from "../io.js";

export interface DiffOptions {
  readonly format: ReportFormat;
  readonly failOn: Severity | "never";
  readonly config?: string;
  readonly refRoot?: readonly string[];
}

const RANK: Record<Severity, number> = { breaking: 3, warning: 2, info: 1 };

/** Findings at or above the threshold make the run fail. */
export function failsOn(findings: readonly Finding[], threshold: Severity | "never"): boolean {
  return threshold !== "never" && findings.some((f) => RANK[f.severity] >= RANK[threshold]);
}

/** `contractgen diff <old> <new>`: exit 0 clean, 1 findings at or above --fail-on, 2 usage or unreadable sides. */
export function diffCommand(before: string, after: string, options: DiffOptions, io: Io): number {
  let config: DiffConfig = {};
  let sides: [LoadedSide, LoadedSide];
  try {
    if (options.config) config = loadDiffConfig(options.config, RULES);
    const refRoots = options.refRoot ?? [];
    sides = [loadSide(before, { refRoots }), loadSide(after, { refRoots })];
  } catch (e) {
    if (e instanceof ConfigError || e instanceof SideError) {
      io.stderr(`contractgen diff: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
  const [a, b] = sides;
  if (!a.result.model || !b.result.model) {
    printDiagnostics([...a.result.diagnostics, ...b.result.diagnostics].filter((d) => d.severity === "error"), io);
    io.stderr(`contractgen diff: ${[!a.result.model ? a.label : null, !b.result.model ? b.label : null].filter(Boolean).join(" and ")} is not a valid contract; nothing was compared.\n`);
    return EXIT.usage;
  }
  const report = runDiff({ model: a.result.model, source: a.result.source, label: a.label }, { model: b.result.model, source: b.result.source, label: b.label }, config);
  // A git side was parsed under its working-tree path; show the ref the user named instead.
  const relabel = <F extends Finding>(f: F): F => ({
    ...f,
    old: f.old && f.old.file === a.result.source?.path ? { ...f.old, file: a.label } : f.old,
    new: f.new && f.new.file === b.result.source?.path ? { ...f.new, file: b.label } : f.new,
  });
  const shown = { ...report, findings: report.findings.map(relabel), ignored: report.ignored.map(relabel) };
  io.stdout(renderReport(shown, options.format, io.color));
  return failsOn(report.findings, options.failOn) ? EXIT.invalid : EXIT.ok;
}
