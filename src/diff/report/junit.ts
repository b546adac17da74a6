import type { DiffReport } from "../engine.js";

function xml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // Characters XML 1.0 cannot carry at all.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");
}

/** JUnit XML: one test case per finding; breaking findings are failures. */
export function junitReport(report: DiffReport): string {
  const failures = report.findings.filter((f) => f.severity === "breaking").length;
  const cases = report.findings.map((f) => {
    const at = f.new ?? f.old;
    const name = xml(`${f.rule}${f.operation ? ` ${f.operation}` : ""}: ${f.message}`);
    const reach = f.type ? f.type.sides.map((s) => `\n${xml(`${s.side === "input" ? "inputs" : "outputs"} (${s.severity}): ${s.operations.join(", ")}`)}`).join("") : "";
    const follows = reach + f.consequences.map((c) => `\n${xml(`↳ ${c.severity} [${c.rule}] ${c.message}`)}`).join("");
    const body = `${xml(f.message)}\n${xml(f.hint)}${at ? `\n${xml(`${at.file}:${at.line}:${at.col}`)}` : ""}${follows}`;
    return f.severity === "breaking"
      ? `    <testcase classname="contract-diff.${xml(f.category)}" name="${name}">\n      <failure type="${xml(f.rule)}" message="${xml(f.message)}">${body}</failure>\n    </testcase>`
      : `    <testcase classname="contract-diff.${xml(f.category)}" name="${name}">\n      <system-out>${xml(`${f.severity}: `)}${body}</system-out>\n    </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="contract diff" tests="${report.findings.length}" failures="${failures}">
  <testsuite name="${xml(`${report.old.file} → ${report.new.file}`)}" tests="${report.findings.length}" failures="${failures}">
${cases.join("\n")}
  </testsuite>
</testsuites>
`;
}
