import type { DiffReport } from "../engine.js";
import type { Severity } from "../rule.js";

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
  if (report.findings.length > 0) {
    lines.push("", "| severity | rule | operation | change | where | migration |", "|---|---|---|---|---|---|");
    for (const f of report.findings) {
      const at = f.new ?? f.old;
      lines.push(`| ${ICON[f.severity]} | \`${f.rule}\` | ${f.operation ? `\`${cell(f.operation)}\`` : "—"} | ${cell(f.message)} | ${at ? `\`${cell(at.file)}:${at.line}\`` : ""} | ${cell(f.hint)} |`);
    }
  }
  if (report.ignored.length > 0) {
    lines.push("", "<details><summary>Ignored by configuration</summary>", "");
    for (const f of report.ignored) lines.push(`- \`${f.rule}\` ${cell(f.message)} — ${cell(f.reason)}`);
    lines.push("", "</details>");
  }
  return `${lines.join("\n")}\n`;
}
