/**
 * JSON data files written an entry a line: the outer `depth` levels of objects and arrays put each
 * member on its own line (indented two spaces a level), everything deeper is compact. Generated data
 * reads in review as one line per operation, tool or schema, and carries no indentation inside them
 * (pretty-printing made up about a third of a large package's data).
 */
export function jsonLines(value: unknown, depth: number): string {
  return render(value, depth, "");
}

/** An object of `entries` (keys in the given order, never set on an object), one entry a line, each value compact below `depth`. */
export function jsonEntryLines(entries: ReadonlyArray<readonly [string, unknown]>, depth = 1): string {
  return renderEntries(entries, depth, "");
}

function render(value: unknown, depth: number, indent: string): string {
  if (depth <= 0 || value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${render(v, depth - 1, inner)}`).join(",\n")}\n${indent}]`;
  }
  return renderEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined), depth, indent);
}

function renderEntries(entries: ReadonlyArray<readonly [string, unknown]>, depth: number, indent: string): string {
  if (entries.length === 0) return "{}";
  const inner = `${indent}  `;
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${render(v, depth - 1, inner)}`).join(",\n")}\n${indent}}`;
}
