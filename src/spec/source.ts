import type { SourceLocation } from "../diagnostics/diagnostic.js";

/** A character span in a file, as offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Escape one JSON pointer segment (RFC 6901). */
export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

export function joinPointer(base: string, ...segments: Array<string | number>): string {
  return segments.reduce<string>((p, s) => `${p}/${escapePointerSegment(s)}`, base);
}

/** Split a JSON pointer into unescaped segments. "" → []. */
export function splitPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export function parentPointer(pointer: string): string {
  const i = pointer.lastIndexOf("/");
  return i <= 0 ? "" : pointer.slice(0, i);
}

/** Read a value at a JSON pointer; undefined when any segment is missing. */
export function getAtPointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const segment of splitPointer(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (node !== null && typeof node === "object" && Object.prototype.hasOwnProperty.call(node, segment)) {
      node = (node as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return node;
}

export function hasPointer(root: unknown, pointer: string): boolean {
  if (pointer === "") return true;
  const parent = getAtPointer(root, parentPointer(pointer));
  const last = splitPointer(pointer).pop()!;
  if (Array.isArray(parent)) return /^(0|[1-9][0-9]*)$/.test(last) && Number(last) < parent.length;
  return parent !== null && typeof parent === "object" && Object.prototype.hasOwnProperty.call(parent, last);
}

/**
 * A parsed source file: its text, its plain value and where each node (and each mapping key) sits,
 * indexed by JSON pointer. Every later stage locates problems through this index.
 */
export class SourceFile {
  private readonly lineStarts: number[];

  constructor(
    readonly path: string,
    readonly text: string,
    readonly value: unknown,
    private readonly valueSpans: ReadonlyMap<string, Span>,
    private readonly keySpans: ReadonlyMap<string, Span>,
  ) {
    this.lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  /** 1-based line and column of an offset. */
  position(offset: number): { line: number; col: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - this.lineStarts[lo]! + 1 };
  }

  spanLocation(span: Span, pointer: string): SourceLocation {
    const start = this.position(span.start);
    const end = this.position(Math.max(span.start, span.end));
    return { file: this.path, line: start.line, col: start.col, endLine: end.line, endCol: end.col, pointer };
  }

  /**
   * Location of the node at `pointer` (or of its key, with `key: true`). A pointer that does not exist
   * (a missing field) falls back to its nearest existing ancestor, keeping the requested pointer.
   */
  locate(pointer: string, options: { key?: boolean } = {}): SourceLocation {
    let p = pointer;
    for (;;) {
      const span = (options.key && p === pointer ? this.keySpans.get(p) : undefined) ?? this.valueSpans.get(p);
      if (span) return this.spanLocation(span, pointer);
      if (p === "") return { file: this.path, line: 1, col: 1, endLine: 1, endCol: 1, pointer };
      p = parentPointer(p);
    }
  }

  /** Where the key of `pointer` sits, when the node is a mapping entry; else the node itself. */
  locateKey(pointer: string): SourceLocation {
    return this.locate(pointer, { key: true });
  }

  lineText(line: number): string {
    const start = this.lineStarts[line - 1];
    if (start === undefined) return "";
    const next = this.lineStarts[line];
    return this.text.slice(start, next === undefined ? undefined : next - 1).replace(/\r$/, "");
  }
}
