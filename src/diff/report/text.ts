import type { DiffReport } from "../engine.js";
import type { Finding, Severity } from "../rule.js";

const COLOR: Record<Severity, string> = { breaking: "\u001b[31m", warning: "\u001b[33m", info: "\u001b[36m" };

/** At most this many operation names on a line of the text report (the JSON report lists them all). */
const SHOWN = 12;

function names(ops: readonly string[]): string {
  return ops.length <= SHOWN ? ops.join(", ") : `${ops.slice(0, SHOWN).join(", ")} … and ${ops.length - SHOWN} more`;
}

function where(f: Finding): string {
  const parts = [];
  if (f.old) parts.push(`was ${f.old.file}:${f.old.line}:${f.old.col}`);
  if (f.new) parts.push(`now ${f.new.file}:${f.new.line}:${f.new.col}`);
  return parts.join(", ");
}

/** Findings grouped by operation (contract-wide first), most severe first within each group. */
export function textReport(report: DiffReport, color: boolean): string {
  const paint = (s: Severity, text: string) => (color ? `${COLOR[s]}${text}\u001b[39m` : text);
  const lines = [`${report.old.file} (${report.old.version}) → ${report.new.file} (${report.new.version})`];
  if (report.findings.length === 0) lines.push("", "No changes found.");
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const key = f.type ? "shared types" : f.operation !== null ? `operation ${f.operation}` : f.operations.length > 0 ? "shared types" : "contract";
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  for (const [group, findings] of groups) {
    lines.push("", `${group}:`);
    const show = (f: Finding, indent: string, under?: Finding) => {
      lines.push(`${indent}${paint(f.severity, f.severity.padEnd(8))} [${f.rule}] ${f.message}`);
      const pad = " ".repeat(indent.length + 9);
      if (f.type) for (const s of f.type.sides) lines.push(`${pad}${s.side === "input" ? "inputs" : "outputs"} (${s.severity}, ${s.operations.length}): ${names(s.operations)}`);
      // Under a shared type's finding, the sides above already list the operations.
      else if (f.operations.length > 1 && !under?.type) lines.push(`${pad}operations: ${names(f.operations)}`);
      const at = where(f);
      if (at) lines.push(`${pad}${at}`);
      lines.push(`${pad}hint: ${f.hint}`);
      // What follows from this change, indented under it.
      for (const c of f.consequences) show(c, `${" ".repeat(indent.length)}↳ `, f);
    };
    for (const f of findings) show(f, "  ");
  }
  if (report.ignored.length > 0) {
    lines.push("", "ignored by configuration:");
    for (const f of report.ignored) lines.push(`  [${f.rule}] ${f.message} — ${f.reason}`);
  }
  const s = report.summary;
  lines.push("", `${s.breaking} breaking, ${s.warning} warning, ${s.info} info${report.ignored.length ? `, ${report.ignored.length} ignored` : ""}.`);
  return `${lines.join("\n")}\n`;
}
