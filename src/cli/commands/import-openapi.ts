import { diagnostic } from "../../diagnostics/diagnostic.js";
import { importOpenApi, isUneditedImport, reportJson, reportMarkdown, reportSummary, type ReviewReport } from "../../import/openapi/index.js";
import { writeOwnedFile } from "../../write/file.js";
import { OUTPUT_FOLDER_REFUSED, refusedFolder, shownFolder } from "../../write/places.js";
import { dirname, resolve } from "node:path";
import { EXIT, type Io, ownedWriteFailure, printDiagnostics, progressOn } from "../io.js";

export interface ImportOpenApiOptions {
  readonly out: string;
  readonly report?: string;
  readonly name?: string;
  readonly date?: string;
  /** `--tag`, repeatable: import only the operations with one of these tags. */
  readonly tag?: readonly string[];
  readonly force?: boolean;
  /** `--strict`: refuse when the review report says a reference was not followed or a loop was cut. */
  readonly strict?: boolean;
  /** false with `--no-progress`; progress shows only when stderr is a terminal anyway. */
  readonly progress?: boolean;
  /** `--overlay`, repeatable: overlays applied, in order, to the document before it is imported. */
  readonly overlay?: readonly string[];
}

/** `contractgen import-openapi <openapi> -o <contract.yaml> [--report <base>]`. */
export async function importOpenApiCommand(file: string, options: ImportOpenApiOptions, io: Io): Promise<number> {
  // The files go into a folder of the user's (the home folder will do), never into / or a system folder.
  for (const [given, path] of [["-o", options.out], ...(options.report ? [["--report", options.report]] : [])] as const) {
    const refused = options.force ? null : refusedFolder(dirname(resolve(path)), { home: false });
    if (refused !== null) {
      io.stderr(`contractgen: error [${OUTPUT_FOLDER_REFUSED}] ${given} ${JSON.stringify(path)} would be written into ${shownFolder(dirname(resolve(path)))}, ${refused}; nothing was written.\n  hint: Write it into a folder of your own (e.g. -o ./contract.yaml); --force writes there anyway.\n`);
      return EXIT.usage;
    }
  }
  const started = performance.now();
  const progress = progressOn(io, options.progress !== false);
  let result: Awaited<ReturnType<typeof importOpenApi>>;
  try {
    result = await importOpenApi(file, { ...(options.name ? { name: options.name } : {}), ...(options.date ? { date: options.date } : {}), ...(options.tag ? { tags: options.tag } : {}), ...(options.overlay ? { overlays: options.overlay } : {}), strict: options.strict === true, onProgress: progress.update });
  } finally {
    // Cleared before any diagnostic or summary is printed.
    progress.end();
  }
  // Errors, and an overlay's warnings (an action matching nothing), as validate --overlay shows them;
  // the OpenAPI checks' warnings are review items (openapi-problem), listed in the report.
  const printed = result.problems.filter((p) => p.severity === "error" || p.code.startsWith("overlay-"));
  printDiagnostics(
    // The problem's own severity: --strict makes an overlay action matching nothing an error.
    printed.map((p) => ({ ...diagnostic(p.code, p.message, { file: p.file, line: p.line, col: p.col, endLine: p.line, endCol: p.col + 1, pointer: p.pointer }), severity: p.severity })),
    io,
  );
  const report = result.report;
  const writeReport = (r: ReviewReport, base: string) => {
    writeOwnedFile(`${base}.md`, reportMarkdown(r), { owned: (t) => t.startsWith("<!-- contractgen import-openapi review report -->"), force: options.force === true });
    writeOwnedFile(`${base}.json`, reportJson(r), { owned: (t) => t.startsWith('{\n  "generator": "contractgen import-openapi"'), force: options.force === true });
  };
  try {
    if (!result.yaml || !report) {
      // Refused by --strict, the document was mapped: its report says what to look at.
      if (report && options.report) writeReport(report, options.report);
      io.stderr(`${file}: not imported; ${report && options.report ? `only the review report was written (${options.report}.md)` : "nothing was written"}.\n`);
      return EXIT.invalid;
    }
    writeOwnedFile(options.out, result.yaml, { owned: isUneditedImport, force: options.force === true });
    if (options.report) writeReport(report, options.report);
  } catch (e) {
    return ownedWriteFailure(e, io, "a contract it imported (and its own reports)", `keep your edits as an overlay: contractgen overlay-from ${options.out} --openapi ${file} -o <overlay.yaml>, then use the document with --overlay <overlay.yaml> (or --force to lose the edits).`);
  }
  io.stderr(`${file}: ${reportSummary(report)}${options.report ? `; see ${options.report}.md` : "; pass --report <base> to list them"}.\n`);
  io.stdout(`${options.out}: imported ${report.operations} operations and ${report.types} types from ${file} (OpenAPI ${report.openapi}) in ${Math.round(performance.now() - started)} ms\n`);
  return EXIT.ok;
}
