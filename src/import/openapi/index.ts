/**
 * `contractgen import-openapi`: read + bundle (read.ts) → map to a contract (map.ts) → YAML text
 * with an ownership header, plus the review report (review.ts).
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { Document, isScalar, isSeq, visit } from "yaml";
import { mapOpenApi, type MapOptions } from "./map.js";
import { readOpenApi, type ReadProblem } from "./read.js";
import { buildReport, type ReviewItem, type ReviewReport } from "./review.js";

export { reportJson, reportMarkdown, reportSummary, type ReviewReport } from "./review.js";

export interface ImportResult {
  /** Errors that stopped the import (nothing to write), or warnings. */
  readonly problems: readonly ReadProblem[];
  readonly yaml?: string;
  readonly report?: ReviewReport;
}

const HEADER = /^# Imported by contractgen import-openapi from .*; sha256:([0-9a-f]{64})\n/;

export async function importOpenApi(file: string, options: MapOptions = {}): Promise<ImportResult> {
  options.onProgress?.("read and bundle", 0, 0);
  const read = await readOpenApi(file);
  const errors = read.problems.filter((p) => p.severity === "error");
  if (!read.doc || errors.length > 0) return { problems: read.problems };
  const mapped = mapOpenApi(read.doc, options);
  if (mapped.operations === 0) {
    const none: ReadProblem = { code: "openapi-no-operations", severity: "error", message: `${file} has no GET, PUT, POST, DELETE or PATCH operation under paths; a contract needs at least one.`, file, line: 1, col: 1, pointer: "/paths" };
    return { problems: [...read.problems, none] };
  }
  const warnings: ReviewItem[] = read.problems.filter((p) => p.severity === "warning").map((p) => ({ kind: "openapi-problem", pointer: p.pointer, message: `${p.file}:${p.line}:${p.col}: ${p.message}` }));
  const report = buildReport(basename(file), read.version ?? "", mapped.operations, mapped.types, [...mapped.items, ...warnings]);
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
  return { problems: read.problems, yaml, report };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** An imported contract nobody edited since: its header's hash still matches the rest. */
export function isUneditedImport(text: string): boolean {
  const m = HEADER.exec(text);
  return m !== null && sha256(text.slice(m[0].length)) === m[1];
}
