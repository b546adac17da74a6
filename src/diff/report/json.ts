import type { DiffReport } from "../engine.js";

/** The JSON report (its shape is published as schema/diff-report.schema.json). */
export function jsonReport(report: DiffReport): string {
  const loc = (l: { file: string; line: number; col: number; pointer: string } | null) => (l ? { file: l.file, line: l.line, col: l.col, pointer: l.pointer } : null);
  return `${JSON.stringify(
    {
      old: report.old,
      new: report.new,
      summary: report.summary,
      findings: report.findings.map((f) => ({ rule: f.rule, severity: f.severity, category: f.category, operation: f.operation, message: f.message, hint: f.hint, old: loc(f.old), new: loc(f.new) })),
      ignored: report.ignored.map((f) => ({ rule: f.rule, operation: f.operation, message: f.message, reason: f.reason })),
    },
    null,
    2,
  )}\n`;
}
