/**
 * An OpenAPI document used wherever a contract is: imported in memory (overlays applied first) and
 * checked as the contract it maps to, with every diagnostic located in the document itself, or in
 * the overlay that wrote the part concerned, never in an intermediate contract nobody reads.
 */
import { type Diagnostic, diagnostic, type SourceLocation } from "../../diagnostics/diagnostic.js";
import { analyseSource, type ParseOptions, type ParseResult } from "../../contract/parse.js";
import { SourceFile, splitPointer } from "../../contract/source.js";
import type { OpenApiFile, ReadProblem } from "./files.js";
import { mapDocument, type ReviewReport } from "./index.js";
import type { Origins } from "./origins.js";
import { type AppliedOverlays, overlayRead } from "./overlay.js";

export interface OpenApiParseOptions extends ParseOptions {
  /** Overlay files, applied in order before the document is read as OpenAPI. */
  readonly overlays?: readonly string[];
  /** An overlay action whose target matches nothing is an error, not a warning (`validate --strict`). */
  readonly strict?: boolean;
  /** The document's bytes, when already read (a git revision). */
  readonly bytes?: Buffer;
  /**
   * Check the document against the OpenAPI schema, whose findings are warnings (default false:
   * only `validate` shows warnings; the others skip the cost, a second or more on GitHub's document).
   */
  readonly lint?: boolean;
}

export interface OpenApiParseResult extends ParseResult {
  /** Every file read: the document, the files its $refs reach, the overlays (for --watch). */
  readonly files: readonly string[];
  /** The import's review report (what the mapping guessed or dropped), when the document was mapped. */
  readonly review?: ReviewReport;
}

/** Import an OpenAPI document in memory and check the contract it maps to. Never throws on bad input. */
export async function parseOpenApi(path: string, options: OpenApiParseOptions = {}): Promise<OpenApiParseResult> {
  const overlayed = overlayRead(path, options.overlays ?? [], options.strict === true);
  const transform = overlayed.transform;
  options.onProgress?.("import", 0, 1);
  const mapped = await mapDocument(path, { ...(options.bytes ? { bytes: options.bytes } : {}), ...(transform ? { transform } : {}), lint: options.lint === true });
  const overlays = overlayed.applied();
  const files = [...(mapped.read?.files ?? [path]), ...(overlays?.files ?? [])];
  const problems = mapped.problems.map(problemDiagnostic);
  if (!mapped.mapped || !mapped.read?.root) return { diagnostics: problems, files, ...(mapped.report ? { review: mapped.report } : {}) };
  const source = new ImportedSource(mapped.read.root, mapped.mapped.contract, mapped.mapped.origins, overlays);
  const result = analyseSource(source, problems, options);
  return { ...result, files, ...(mapped.report ? { review: mapped.report } : {}) };
}

/** A problem of the read or of an overlay, as a diagnostic (its severity kept: some codes are warnings here). */
function problemDiagnostic(p: ReadProblem): Diagnostic {
  const d = diagnostic(p.code, p.message, { file: p.file, line: p.line, col: p.col, endLine: p.line, endCol: p.col + 1, pointer: p.pointer });
  return d.severity === p.severity ? d : { ...d, severity: p.severity };
}

/**
 * The mapped contract as a source file whose locations are the document's: a contract pointer is
 * traced to the document pointer it was made from (Origins), then to the overlay that wrote that
 * part, if one did, else to the document's own text. A JSON document is located by scanning its text,
 * so locations are resolved when first read, all pending ones in one scan.
 */
class ImportedSource extends SourceFile {
  private readonly pending = new Set<string>();

  constructor(
    private readonly document: OpenApiFile,
    contract: unknown,
    private readonly origins: Origins,
    private readonly overlays: AppliedOverlays | undefined,
  ) {
    super(document.source.path, document.source.text, contract);
  }

  override get importedFrom(): "openapi" {
    return "openapi";
  }

  override locate(pointer: string): SourceLocation {
    const origin = this.origins.resolve(pointer);
    const written = this.overlays?.origin(origin.pointer);
    if (written) return written.locate();
    // A contract field the document has no place for (effects of an operation without x-contract):
    // the nearest node the document does have, so the pointer shown is one the reader can follow.
    const at = existingPrefix(this.overlays?.value ?? this.document.value, origin.pointer);
    const text = this.document.source;
    if (text.prepare === undefined) return text.locate(at);
    this.pending.add(at);
    return lazyLocation(text.path, at, () => {
      if (this.pending.size > 0) {
        text.prepare!(this.pending);
        this.pending.clear();
      }
      return text.locate(at);
    });
  }

  override locateKey(pointer: string): SourceLocation {
    return this.locate(pointer);
  }
}

/** The longest prefix of `pointer` that names a node of `root`. */
function existingPrefix(root: unknown, pointer: string): string {
  let node = root;
  let end = 0;
  for (const segment of splitPointer(pointer)) {
    if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, segment)) break;
    node = (node as Record<string, unknown>)[segment];
    end = pointer.indexOf("/", end + 1);
    if (end < 0) return pointer;
  }
  return pointer.slice(0, end);
}

/** A location whose line and column are found when first read (enumerable, so spreads and JSON see them). */
function lazyLocation(file: string, pointer: string, find: () => SourceLocation): SourceLocation {
  let found: SourceLocation | undefined;
  const get = (key: "line" | "col" | "endLine" | "endCol") => () => (found ??= find())[key];
  const location = { file, pointer } as SourceLocation;
  for (const key of ["line", "col", "endLine", "endCol"] as const) Object.defineProperty(location, key, { get: get(key), enumerable: true });
  // Frozen now, so that freezing the model (which reads what it freezes) does not find every location.
  return Object.freeze(location);
}
