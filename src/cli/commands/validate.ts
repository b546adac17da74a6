import { diagnosticToJson, summaryLine } from "../../diagnostics/format.js";
import { openContract, type OpenedContract } from "../../import/open.js";
import { EXIT, type Io, printDiagnostics, progressOn } from "../io.js";

export interface ValidateOptions {
  readonly format: "text" | "json";
  readonly warnings: boolean;
  readonly refRoot?: readonly string[];
  /** `--overlay`, repeatable: overlays applied, in order, to each OpenAPI document. */
  readonly overlay?: readonly string[];
  /** `--strict`: an overlay action matching nothing is an error. */
  readonly strict?: boolean;
  /** false with `--no-progress`. */
  readonly progress?: boolean;
}

/** `contractgen validate <spec...>`: exit 0 when every file is valid, 1 when any has an error. */
export async function validateCommand(specs: string[], options: ValidateOptions, io: Io): Promise<number> {
  const progress = progressOn(io, options.progress !== false);
  const results: Array<{ spec: string; result: OpenedContract }> = [];
  try {
    // Several files: the phase names which one of how many.
    const named = (i: number) => (specs.length > 1 ? (phase: string, done: number, total: number) => progress.update(`${phase} (file ${i + 1}/${specs.length})`, done, total) : progress.update);
    for (const [i, spec] of specs.entries()) {
      results.push({ spec, result: await openContract(spec, { refRoots: options.refRoot ?? [], overlays: options.overlay ?? [], strict: options.strict === true, lint: true, onProgress: named(i) }) });
    }
  } finally {
    progress.end();
  }
  const visible = (r: (typeof results)[number]) => r.result.diagnostics.filter((d) => options.warnings || d.severity === "error");
  const invalid = results.some((r) => r.result.model === undefined);
  if (options.format === "json") {
    const report = {
      valid: !invalid,
      files: results.map((r) => ({ file: r.spec, valid: r.result.model !== undefined, ...(r.result.review ? { reviewItems: r.result.review.items.length } : {}), diagnostics: visible(r).map(diagnosticToJson) })),
    };
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const all = results.flatMap(visible);
    printDiagnostics(all, io);
    for (const r of results) {
      const m = r.result.model;
      const imported = r.result.format === "openapi" ? `, imported from OpenAPI${r.result.review ? `; ${r.result.review.items.length} review items (${reportCommand(r.spec, options.overlay ?? [])} lists them)` : ""}` : "";
      io.stdout(m ? `${r.spec}: valid (${m.name} ${m.version}, ${m.operations.length} operations${imported})\n` : `${r.spec}: invalid\n`);
    }
    io.stderr(`${summaryLine(all, results.length)}\n`);
  }
  return invalid ? EXIT.invalid : EXIT.ok;
}

/** The command that writes the review report of the same import (the same overlays, so the same items). */
function reportCommand(spec: string, overlays: readonly string[]): string {
  const arg = (s: string) => (/^[\w./:@+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
  return `contractgen import-openapi ${arg(spec)}${overlays.map((o) => ` --overlay ${arg(o)}`).join("")} -o <contract.yaml> --report <base>`;
}
