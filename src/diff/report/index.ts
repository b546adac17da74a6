import type { DiffReport } from "../engine.js";
import { githubReport } from "./github.js";
import { jsonReport } from "./json.js";
import { junitReport } from "./junit.js";
import { markdownReport } from "./markdown.js";
import { textReport } from "./text.js";

export const REPORT_FORMATS = ["text", "json", "markdown", "github", "junit"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export function renderReport(report: DiffReport, format: ReportFormat, color: boolean): string {
  switch (format) {
    case "json":
      return jsonReport(report);
    case "markdown":
      return markdownReport(report);
    case "github":
      return githubReport(report);
    case "junit":
      return junitReport(report);
    default:
      return textReport(report, color);
  }
}
