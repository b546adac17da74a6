import type { DiffReport } from "../engine.js";
import type { Severity } from "../rule.js";

const LEVEL: Record<Severity, string> = { breaking: "error", warning: "warning", info: "notice" };

/** Workflow-command escaping: data and properties have different rules. */
function data(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function property(text: string): string {
  return data(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** GitHub Actions annotations: one `::error file=…,line=…,col=…,title=…::message` line per finding. */
export function githubReport(report: DiffReport): string {
  return report.findings
    .map((f) => {
      // Annotations attach to the new file: a removed thing at its nearest surviving parent.
      const at = f.anchor;
      const props = [at ? `file=${property(at.file)}` : null, at ? `line=${at.line}` : null, at ? `col=${at.col}` : null, `title=${property(`${f.rule}${f.operation ? ` (${f.operation})` : ""}`)}`]
        .filter(Boolean)
        .join(",");
      const reach = f.type ? f.type.sides.map((s) => `\n${s.side === "input" ? "inputs" : "outputs"} (${s.severity}): ${s.operations.join(", ")}`).join("") : "";
      const follows = reach + f.consequences.map((c) => `\n↳ ${c.severity} [${c.rule}] ${c.message}`).join("");
      return `::${LEVEL[f.severity]} ${props}::${data(`${f.message} ${f.hint}${follows}`)}\n`;
    })
    .join("");
}
