import type { DiagnosticCode } from "./codes.js";
import { DIAGNOSTIC_CODES } from "./codes.js";

/** A position in a source file: 1-based line and column, plus the JSON pointer of the node. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly endLine: number;
  readonly endCol: number;
  /** JSON pointer of the node inside its file ("" is the document root). */
  readonly pointer: string;
}

export type Severity = "error" | "warning" | "info";

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  /** What to do about it. */
  readonly hint: string;
  readonly location: SourceLocation;
}

/** Build a diagnostic whose severity and hint come from the code table unless overridden. */
export function diagnostic(
  code: DiagnosticCode,
  message: string,
  location: SourceLocation,
  hint?: string,
): Diagnostic {
  const entry = DIAGNOSTIC_CODES[code];
  return { code, severity: entry.severity, message, hint: hint ?? entry.hint, location };
}

/** Location for problems that concern a whole file that could not be read or parsed. */
export function fileLocation(file: string): SourceLocation {
  return { file, line: 1, col: 1, endLine: 1, endCol: 1, pointer: "" };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Stable order: file, line, column, code, message — so output never depends on check order. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      cmp(a.location.file, b.location.file) ||
      a.location.line - b.location.line ||
      a.location.col - b.location.col ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      cmp(a.code, b.code) ||
      cmp(a.message, b.message),
  );
}

/** Code-unit comparison: locale-independent, so output is identical on every machine. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Drop exact duplicates (same code, place and message), which several checks can reach. */
export function dedupeDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const key = `${d.code}\u0000${d.location.file}\u0000${d.location.pointer}\u0000${d.location.line}:${d.location.col}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

/** "a string", "an integer", "an invalid_input error": the indefinite article English wants. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}
