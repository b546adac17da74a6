/**
 * `contractgen import-openapi`: read + bundle (read.ts) → map to a contract (map.ts) → YAML text
 * with an ownership header, plus the review report (review.ts).
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { Document, isScalar, isSeq, visit } from "yaml";
import { MAX_FILE_BYTES } from "../../contract/load.js";
import { componentRefsAsTypes } from "./contract-text.js";
import { escapeSegment, locatedProblem, type OpenApiFile } from "./files.js";
import { type AppliedOverlays, overlayRead } from "./overlay.js";
import { largestTags, mapOpenApi, type MapOptions, type MapResult } from "./map.js";
import { type ReadOptions, readOpenApi, type ReadProblem, type ReadResult } from "./read.js";
import { ImportRefusal } from "./refusal.js";
import { buildReport, type ReviewItem, type ReviewReport, STRICT_KINDS } from "./review.js";

export { reportJson, reportMarkdown, reportSummary, type ReviewReport } from "./review.js";

export interface ImportResult {
  /** Errors that stopped the import (nothing to write), or warnings. */
  readonly problems: readonly ReadProblem[];
  /** The contract, unless the import was refused. */
  readonly yaml?: string;
  /** The review report, whenever the document was mapped (also when `--strict` refused it). */
  readonly report?: ReviewReport;
}

export interface ImportOptions extends MapOptions {
  /** Refuse the import when the review report has an item of a kind in STRICT_KINDS (and, with overlays, when an action matches nothing). */
  readonly strict?: boolean;
  /** `--overlay`: overlay files applied, in order, to the document before it is read. */
  readonly overlays?: readonly string[];
}

/** Review items `--strict` reports as errors, at most (the report lists them all). */
const MAX_STRICT_SHOWN = 20;

const HEADER = /^# Imported by contractgen import-openapi from .*; sha256:([0-9a-f]{64})\n/;

/** A document read and mapped, before anything is written: what both the command and the in-memory import use. */
export interface MappedDocument {
  readonly problems: readonly ReadProblem[];
  readonly read?: ReadResult;
  readonly mapped?: MapResult;
  readonly report?: ReviewReport;
}

export interface MapDocumentOptions extends ImportOptions {
  /** The document's bytes, when already read. */
  readonly bytes?: Buffer;
  /** Rewrites the document before it is read as OpenAPI (overlays). */
  readonly transform?: ReadOptions["transform"];
  /** false: no check against the OpenAPI schema (its findings are warnings nobody would see). */
  readonly lint?: boolean;
}

/** Read, bundle and map an OpenAPI document (refused by --strict when the report has a lossy item). */
export async function mapDocument(file: string, options: MapDocumentOptions = {}): Promise<MappedDocument> {
  options.onProgress?.("read and bundle", 0, 0);
  const read = await readOpenApi(file, { ...(options.tags ? { tags: options.tags } : {}), ...(options.bytes ? { bytes: options.bytes } : {}), ...(options.transform ? { transform: options.transform } : {}), ...(options.lint === false ? { lint: false } : {}) });
  const errors = read.problems.filter((p) => p.severity === "error");
  if (!read.doc || !read.root || errors.length > 0) return { problems: read.problems, read };
  let mapped: MapResult;
  try {
    mapped = mapOpenApi(read.doc, options);
    // x-contract is contract text, where an OpenAPI author names a component schema: it is the type imported from it.
    componentRefsAsTypes(mapped.contract, componentTypes(mapped));
  } catch (e) {
    if (!(e instanceof ImportRefusal)) throw e;
    return { problems: [...read.problems, locatedProblem(e.code, read.root, e.pointer, e.message)], read };
  }
  const at = { file, line: 1, col: 1, pointer: "/paths" };
  if (mapped.operations === 0 && options.tags && options.tags.length > 0 && mapped.tagSizes.length > 0) {
    const none: ReadProblem = { code: "openapi-tag-unknown", severity: "error", message: `No operation of ${file} is tagged ${options.tags.map((t) => JSON.stringify(t)).join(" or ")}; its largest tags: ${largestTags(mapped.tagSizes)}.`, ...at };
    return { problems: [...read.problems, none], read };
  }
  if (mapped.operations === 0) {
    const none: ReadProblem = { code: "openapi-no-operations", severity: "error", message: `${file} has no GET, PUT, POST, DELETE or PATCH operation under paths; a contract needs at least one.`, ...at };
    return { problems: [...read.problems, none], read };
  }
  // An overlay's warnings are the command's diagnostics (validate and import-openapi print them), not the import's review items.
  const warnings: ReviewItem[] = read.problems.filter((p) => p.severity === "warning" && !p.code.startsWith("overlay-")).map((p) => ({ kind: "openapi-problem", pointer: p.pointer, message: `${p.file}:${p.line}:${p.col}: ${p.message}` }));
  const report = buildReport(basename(file), read.version ?? "", mapped.operations, mapped.types, [...mapped.items, ...warnings]);
  if (options.strict) {
    const lost = report.items.filter((i) => STRICT_KINDS.has(i.kind));
    if (lost.length > 0) {
      read.root.source.prepare?.(lost.slice(0, MAX_STRICT_SHOWN).map((i) => i.pointer));
      const shown = lost.slice(0, MAX_STRICT_SHOWN).map((i) => locatedProblem("openapi-strict", read.root!, i.pointer, `${i.kind}: ${i.message}`));
      if (lost.length > MAX_STRICT_SHOWN) shown.push({ ...shown[shown.length - 1]!, message: `… and ${lost.length - MAX_STRICT_SHOWN} more items --strict does not allow; the review report lists them all.` });
      return { problems: [...read.problems, ...shown], read, report };
    }
  }
  return { problems: read.problems, read, mapped, report };
}

export async function importOpenApi(file: string, options: ImportOptions = {}): Promise<ImportResult> {
  const overlayed = overlayRead(file, options.overlays ?? [], options.strict === true);
  const { problems, read, mapped, report: unlocated } = await mapDocument(file, { ...options, ...(overlayed.transform ? { transform: overlayed.transform } : {}) });
  // Every item of the written report says where it is: in the document, or in the overlay that wrote it.
  const report = unlocated && read?.root ? locateReport(unlocated, read.root, overlayed.applied()) : unlocated;
  if (!mapped || !report || !read) return { problems, ...(report ? { report } : {}) };
  const at = { file, line: 1, col: 1, pointer: "/paths" };
  options.onProgress?.("write yaml", 0, 0);
  const document = new Document(mapped.contract, { aliasDuplicateObjects: false });
  // Short lists of scalars (required, enum, errors, query…) read best on one line.
  visit(document, {
    Seq(_key, node) {
      if (isSeq(node) && node.items.length <= 12 && node.items.every((i) => isScalar(i) && (typeof i.value !== "string" || (i.value.length < 40 && !/[\n"'\\]/.test(i.value))))) node.flow = true;
    },
  });
  const body = document.toString({ lineWidth: 120, minContentWidth: 40, flowCollectionPadding: false });
  const yaml = `# Imported by contractgen import-openapi from ${JSON.stringify(basename(file))}; sha256:${sha256(body)}\n${body}`;
  // A contract contractgen would refuse to read is not written.
  const bytes = Buffer.byteLength(yaml);
  if (bytes > MAX_FILE_BYTES) {
    const split = mapped.tagSizes.length > 0 ? `import part of it with --tag; its largest tags: ${largestTags(mapped.tagSizes)}` : "the document has no tags to import it by part";
    const tooLarge: ReadProblem = { code: "openapi-contract-too-large", severity: "error", message: `The contract for ${file} would be ${(bytes / 1048576).toFixed(1)} MiB (${mapped.operations} operations); contractgen reads at most ${MAX_FILE_BYTES / 1048576} MiB per file: ${split}.`, ...at };
    return { problems: [...read.problems, tooLarge] };
  }
  return { problems: read.problems, yaml, report };
}

/** Component schema name → the type imported from it, read from where each type came from. */
function componentTypes(mapped: MapResult): Map<string, string> {
  const names = new Map<string, string>();
  const types = mapped.contract.types;
  if (typeof types !== "object" || types === null || Array.isArray(types)) return names;
  for (const type of Object.keys(types)) {
    const origin = mapped.origins.resolve(`/types/${escapeSegment(type)}`);
    const m = origin.overlay === undefined ? /^\/components\/schemas\/([^/]+)$/.exec(origin.pointer) : null;
    if (m) names.set(m[1]!.replace(/~1/g, "/").replace(/~0/g, "~"), type);
  }
  return names;
}

/** The report with each item's `file:line:col`: in the overlay that wrote its place, else in the document (its nearest node). */
function locateReport(report: ReviewReport, root: OpenApiFile, overlays: AppliedOverlays | undefined): ReviewReport {
  root.source.prepare?.(report.items.map((i) => i.pointer));
  const items = report.items.map((item) => {
    const at = overlays?.origin(item.pointer)?.locate() ?? root.source.locate(item.pointer);
    return { ...item, location: `${at.file}:${at.line}:${at.col}` };
  });
  return { ...report, items };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** An imported contract nobody edited since: its header's hash still matches the rest. */
export function isUneditedImport(text: string): boolean {
  const m = HEADER.exec(text);
  return m !== null && sha256(text.slice(m[0].length)) === m[1];
}
