import type { DiffReport } from "../engine.js";
import type { Finding, Severity } from "../rule.js";
import type { SourceLocation } from "../../diagnostics/diagnostic.js";

const ICON: Record<Severity, string> = { breaking: "🔴 breaking", warning: "🟡 warning", info: "🔵 info" };

/** Text safe in a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|").replace(/</g, "&lt;");
}

/** A pull-request comment: summary line, then one table row per finding. */
export function markdownReport(report: DiffReport): string {
  const s = report.summary;
  const lines = [
    `### Contract diff: \`${cell(report.old.file)}\` ${cell(report.old.version)} → \`${cell(report.new.file)}\` ${cell(report.new.version)}`,
    "",
    `**${s.breaking} breaking**, ${s.warning} warning, ${s.info} info${report.ignored.length ? `, ${report.ignored.length} ignored` : ""}.`,
  ];
  const at = (side: string, l: SourceLocation | null) => (l ? `${side} \`${cell(l.file)}:${l.line}:${l.col}\`` : null);
  const row = (f: Finding, consequence: boolean) => {
    const where = [at("was", f.old), at("now", f.new)].filter(Boolean).join("<br>");
    const list = (ops: readonly string[]) => ops.map((o) => `\`${cell(o)}\``).join(", ");
    // A shared type's finding: per side, the worst severity and the operations it reaches (folded when long).
    const ops = f.type
      ? f.type.sides
          .map((s) => {
            const head = `${s.side === "input" ? "inputs" : "outputs"} (${s.severity}, ${s.operations.length})`;
            return s.operations.length <= 5 ? `${head}: ${list(s.operations)}` : `<details><summary>${head}</summary>${list(s.operations)}</details>`;
          })
          .join("<br>")
      : f.operations.length > 0
        ? list(f.operations)
        : "—";
    lines.push(`| ${consequence ? "↳ " : ""}${ICON[f.severity]} | \`${f.rule}\` | ${ops} | ${cell(f.message)} | ${where} | ${cell(f.hint)} |`);
    for (const c of f.consequences) row(c, true);
  };
  if (report.findings.length > 0) {
    lines.push("", "| severity | rule | operation | change | where | migration |", "|---|---|---|---|---|---|");
    for (const f of report.findings) row(f, false);
  }
  if (report.ignored.length > 0) {
    lines.push("", "<details><summary>Ignored by configuration</summary>", "");
    for (const f of report.ignored) lines.push(`- \`${f.rule}\` ${cell(f.message)} — ${cell(f.reason)}`);
    lines.push("", "</details>");
  }
  return `${lines.join("\n")}\n`;
}
