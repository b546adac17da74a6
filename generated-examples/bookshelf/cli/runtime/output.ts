/** Rendering of results for stdout: JSON for machines (the default), YAML or a table for people. */
import { stringify } from "yaml";

export type OutputFormat = "json" | "yaml" | "table";

export function render(value: unknown, format: OutputFormat): string {
  if (format === "yaml") return stringify(value);
  if (format === "table") return table(value);
  return `${JSON.stringify(value, null, 2)}\n`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.replace(/[\r\n\t]+/g, " ");
}

/** Arrays of objects become columns; an object with an array of items shows those items; else key/value rows. */
function table(value: unknown): string {
  const rows = Array.isArray(value)
    ? value
    : value !== null && typeof value === "object"
      ? (Object.values(value).find((v) => Array.isArray(v) && v.every((x) => x !== null && typeof x === "object")) as unknown[] | undefined)
      : undefined;
  if (rows && rows.length > 0) {
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r as object)))];
    const data = rows.map((r) => columns.map((c) => cell((r as Record<string, unknown>)[c])));
    const widths = columns.map((c, i) => Math.min(60, Math.max(c.length, ...data.map((d) => d[i]!.length))));
    const line = (cells: string[]) => cells.map((c, i) => c.slice(0, 60).padEnd(widths[i]!)).join("  ").trimEnd();
    return `${[line(columns), line(widths.map((w) => "-".repeat(w))), ...data.map(line)].join("\n")}\n`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    const width = Math.max(0, ...entries.map(([k]) => k.length));
    return `${entries.map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`).join("\n")}\n`;
  }
  return `${cell(value)}\n`;
}
