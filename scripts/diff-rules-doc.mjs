// Writes docs/diff-rules.md from the rule registry (npm run docs:rules, after npm run build).
import { writeFileSync } from "node:fs";
import { RULES } from "../dist/src/diff/rules/index.js";

const categories = [...new Set(RULES.map((r) => r.category))].sort();
const cell = (t) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");
const lines = [
  "# Diff rules",
  "",
  "Generated from the registry (`src/diff/rules/`) by `npm run docs:rules`; do not edit by hand.",
  "",
  "`contractgen diff <old> <new>` first compares the two contract models neutrally, then each rule below",
  "classifies the changes. Severities: **breaking** (existing callers or generated adapters break),",
  "**warning** (may break some consumers or needs a decision), **info** (compatible). Override a rule's",
  "severity or accept a finding with a reason in a config file (`--config`). Rule ids never change;",
  "a retired rule stays listed with its replacement.",
  "",
  "| category | rules | breaking | warning | info |",
  "|---|---:|---:|---:|---:|",
  ...categories.map((c) => {
    const rs = RULES.filter((r) => r.category === c && !r.replacedBy);
    const n = (s) => rs.filter((r) => r.severity === s).length;
    return `| ${c} | ${rs.length} | ${n("breaking")} | ${n("warning")} | ${n("info")} |`;
  }),
  `| **all** | **${RULES.filter((r) => !r.replacedBy).length}** | ${RULES.filter((r) => r.severity === "breaking").length} | ${RULES.filter((r) => r.severity === "warning").length} | ${RULES.filter((r) => r.severity === "info").length} |`,
  "",
];
for (const c of categories) {
  lines.push(`## ${c}`, "", "| rule | severity | what it flags | migration hint |", "|---|---|---|---|");
  for (const r of RULES.filter((r) => r.category === c)) {
    lines.push(`| \`${r.id}\` | ${r.severity}${r.phase === "policy" ? " (policy)" : ""} | ${cell(r.replacedBy ? `Retired: use \`${r.replacedBy}\`.` : r.description)} | ${cell(r.hint)} |`);
  }
  lines.push("");
}
writeFileSync("docs/diff-rules.md", lines.join("\n"));
console.log(`docs/diff-rules.md: ${RULES.length} rules`);
