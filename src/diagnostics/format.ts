import type { Diagnostic, Severity } from "./diagnostic.js";

export interface TextFormatOptions {
  /** Returns the text of a 1-based line of a file, or undefined when unknown. */
  readonly lineOf: (file: string, line: number) => string | undefined;
  readonly color: boolean;
}

const COLORS: Record<Severity | "dim" | "bold", [string, string]> = {
  error: ["\u001b[31m", "\u001b[39m"],
  warning: ["\u001b[33m", "\u001b[39m"],
  info: ["\u001b[36m", "\u001b[39m"],
  dim: ["\u001b[2m", "\u001b[22m"],
  bold: ["\u001b[1m", "\u001b[22m"],
};

/** Characters of a source line shown around the column. */
const EXCERPT = 120;

/**
 * One diagnostic as people read it:
 *   specs/billing.yaml:12:7: error [idempotency-key-missing] message
 *     12 |     idempotency: { key: idem_key }
 *        |       ^^^^^^^^
 *     at /operations/refund/idempotency/key
 *     hint: …
 */
export function formatDiagnosticText(d: Diagnostic, options: TextFormatOptions): string {
  const paint = (kind: keyof typeof COLORS, text: string) => (options.color ? `${COLORS[kind][0]}${text}${COLORS[kind][1]}` : text);
  const { file, line, col, endLine, endCol, pointer } = d.location;
  const lines = [`${paint("bold", `${file}:${line}:${col}`)}: ${paint(d.severity, d.severity)} [${d.code}] ${d.message}`];
  // File-level problems (missing, binary, too large) have no meaningful source line to show.
  const source = d.code.startsWith("file-") ? undefined : options.lineOf(file, line);
  if (source !== undefined && source.length > 0) {
    const gutter = String(line);
    // Show a window of the line around the column, so a caret on a 90 KB line stays one short line.
    const shown = source.replace(/\t/g, " ");
    const start = shown.length <= EXCERPT ? 0 : Math.min(Math.max(0, col - 1 - EXCERPT / 2), shown.length - EXCERPT);
    const end = Math.min(shown.length, start + EXCERPT);
    const prefix = start > 0 ? "..." : "";
    const excerpt = `${prefix}${shown.slice(start, end)}${end < shown.length ? "..." : ""}`;
    const caretAt = prefix.length + Math.max(0, col - 1 - start);
    const width = endLine === line && endCol > col ? Math.min(endCol - col, Math.max(1, end - col + 1)) : 1;
    lines.push(`  ${paint("dim", `${gutter} |`)} ${excerpt}`);
    lines.push(`  ${paint("dim", `${" ".repeat(gutter.length)} |`)} ${" ".repeat(caretAt)}${paint(d.severity, "^".repeat(Math.max(1, width)))}`);
  }
  lines.push(`  at ${pointer === "" ? "(document root)" : pointer}`);
  lines.push(`  ${paint("dim", "hint:")} ${d.hint}`);
  return lines.join("\n");
}

export function summaryLine(diagnostics: readonly Diagnostic[], files: number): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `${plural(files, "file")} checked: ${plural(errors, "error")}, ${plural(warnings, "warning")}.`;
}

/** The machine-readable form: stable field names, published in docs/contract-format.md. */
export function diagnosticToJson(d: Diagnostic): Record<string, unknown> {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    hint: d.hint,
    file: d.location.file,
    line: d.location.line,
    col: d.location.col,
    endLine: d.location.endLine,
    endCol: d.location.endCol,
    pointer: d.location.pointer,
  };
}
