import type { DiffReport } from "../engine.js";
import type { Finding } from "../rule.js";

/** The JSON report (its shape is published as schema/diff-report.schema.json). */
export function jsonReport(report: DiffReport): string {
  const loc = (l: { file: string; line: number; col: number; pointer: string } | null) => (l ? { file: l.file, line: l.line, col: l.col, pointer: l.pointer } : null);
  const finding = (f: Finding): Record<string, unknown> => ({
    rule: f.rule,
    severity: f.severity,
    category: f.category,
    operation: f.operation,
    operations: f.operations,
    message: f.message,
    hint: f.hint,
    old: loc(f.old),
    new: loc(f.new),
    consequences: f.consequences.map(finding),
    // A finding on a shared type: which sides of which operations it reaches (operations lists them all).
    ...(f.type ? { type: { name: f.type.name, sides: f.type.sides.map((s) => ({ side: s.side, severity: s.severity, operations: s.operations })) } } : {}),
  });
  return `${JSON.stringify(
    {
      old: report.old,
      new: report.new,
      summary: report.summary,
      findings: report.findings.map(finding),
      ignored: report.ignored.map((f) => ({ rule: f.rule, operation: f.operation, message: f.message, reason: f.reason })),
    },
    null,
    2,
  )}\n`;
}
