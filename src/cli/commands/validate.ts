import { diagnosticToJson, summaryLine } from "../../diagnostics/format.js";
import { parseContract } from "../../spec/parse.js";
import { EXIT, type Io, printDiagnostics, progressOn } from "../io.js";

export interface ValidateOptions {
  readonly format: "text" | "json";
  readonly warnings: boolean;
  readonly refRoot?: readonly string[];
  /** false with `--no-progress`. */
  readonly progress?: boolean;
}

/** `contractgen validate <spec...>`: exit 0 when every file is valid, 1 when any has an error. */
export function validateCommand(specs: string[], options: ValidateOptions, io: Io): number {
  const progress = progressOn(io, options.progress !== false);
  let results;
  try {
    // Several files: the phase names which one of how many.
    const named = (i: number) => (specs.length > 1 ? (phase: string, done: number, total: number) => progress.update(`${phase} (file ${i + 1}/${specs.length})`, done, total) : progress.update);
    results = specs.map((spec, i) => ({ spec, result: parseContract(spec, { refRoots: options.refRoot ?? [], onProgress: named(i) }) }));
  } finally {
    progress.end();
  }
  const visible = (r: (typeof results)[number]) => r.result.diagnostics.filter((d) => options.warnings || d.severity === "error");
  const invalid = results.some((r) => r.result.model === undefined);
  if (options.format === "json") {
    const report = {
      valid: !invalid,
      files: results.map((r) => ({ file: r.spec, valid: r.result.model !== undefined, diagnostics: visible(r).map(diagnosticToJson) })),
    };
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const all = results.flatMap(visible);
    printDiagnostics(all, io);
    for (const r of results) {
      const m = r.result.model;
      io.stdout(m ? `${r.spec}: valid (${m.name} ${m.version}, ${m.operations.length} operations)\n` : `${r.spec}: invalid\n`);
    }
    io.stderr(`${summaryLine(all, results.length)}\n`);
  }
  return invalid ? EXIT.invalid : EXIT.ok;
}
