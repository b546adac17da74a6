import type { SourceLocation } from "../diagnostics/diagnostic.js";

/** A character span in a file, as offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Escape one JSON pointer segment (RFC 6901). */
export function escapePointerSegment(segment: string | number): string {
  const s = String(segment);
  // Most segments need no escaping: skip the two regex passes (this runs once per YAML node).
  if (s.indexOf("~") < 0 && s.indexOf("/") < 0) return s;
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function joinPointer(base: string, ...segments: Array<string | number>): string {
  let p = base;
  for (const s of segments) p = `${p}/${escapePointerSegment(s)}`;
  return p;
}

/** Split a JSON pointer into unescaped segments. "" → []. */
export function splitPointer(pointer: string): string[] {
  if (pointer === "") return [];
  const segments = pointer.slice(1).split("/");
  // Almost no pointer escapes anything: skip two regex passes per segment.
  if (pointer.indexOf("~") < 0) return segments;
  return segments.map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
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

const INDEX_SEGMENT = /^(0|[1-9][0-9]*)$/;
/** Mappings with more keys than this get a key → index map on their first lookup. */
const LINEAR_LOOKUP_LIMIT = 16;

/**
 * Where the entries of one mapping or sequence sit in the text, kept apart from the plain value
 * (later stages may rewrite it). One per collection instead of one map entry per JSON pointer:
 * GitHub-size contracts have ~10^6 nodes, and pointer strings for each cost time and memory.
 */
export class SpanTree {
  /** Per entry: key start, key end, value start, value end (-1 when unknown). */
  readonly spans: number[] = [];
  readonly children: Array<SpanTree | undefined> = [];
  private index: Map<string, number> | undefined;

  /** `keys`: a mapping's keys in document order; null for a sequence (entries by index). */
  constructor(readonly keys: string[] | null) {}

  add(key: string | null, keySpan: Span | undefined, valueSpan: Span | undefined, child: SpanTree | undefined): void {
    if (this.keys !== null && key !== null) this.keys.push(key);
    this.spans.push(keySpan?.start ?? -1, keySpan?.end ?? -1, valueSpan?.start ?? -1, valueSpan?.end ?? -1);
    this.children.push(child);
  }

  /** add() with offsets (-1: unknown), for readers that build ~10^6 entries and want no Span objects. */
  addOffsets(key: string | null, keyStart: number, keyEnd: number, valueStart: number, valueEnd: number, child: SpanTree | undefined): void {
    if (this.keys !== null && key !== null) this.keys.push(key);
    this.spans.push(keyStart, keyEnd, valueStart, valueEnd);
    this.children.push(child);
  }

  /** Entry index of one unescaped pointer segment, or -1. */
  entry(segment: string): number {
    if (this.keys === null) {
      if (!INDEX_SEGMENT.test(segment)) return -1;
      const i = Number(segment);
      return i < this.children.length ? i : -1;
    }
    if (this.keys.length <= LINEAR_LOOKUP_LIMIT) return this.keys.indexOf(segment);
    if (this.index === undefined) {
      this.index = new Map();
      this.keys.forEach((k, i) => this.index!.set(k, i));
    }
    return this.index.get(segment) ?? -1;
  }

  span(entry: number, key: boolean): Span | undefined {
    const start = this.spans[entry * 4 + (key ? 0 : 2)]!;
    return start < 0 ? undefined : { start, end: this.spans[entry * 4 + (key ? 1 : 3)]! };
  }
}

/** Spans of a parsed document: the root's, the tree below it, and spans met while expanding aliases. */
export interface SpanIndex {
  readonly root?: Span;
  readonly tree?: SpanTree;
  /** By JSON pointer: alias nodes reached inside another alias's expansion (rare, bounded by the alias limit). */
  readonly aliasSpans?: ReadonlyMap<string, Span>;
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
    private readonly spans: SpanIndex = {},
  ) {
    this.lineStarts = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.lineStarts.push(i + 1);
  }

  /** What the contract is read from when the file is not a contract (an OpenAPI document read in place), else null. */
  get importedFrom(): "openapi" | null {
    return null;
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
    // Value spans along the pointer, root first, as far as the tree reaches; the key span of the last.
    const segments = splitPointer(pointer);
    const found: Array<Span | undefined> = [this.spans.root];
    let keySpan: Span | undefined;
    let tree = this.spans.tree;
    for (let i = 0; i < segments.length && tree !== undefined; i++) {
      const entry = tree.entry(segments[i]!);
      if (entry < 0) break;
      found.push(tree.span(entry, false));
      if (i === segments.length - 1 && options.key) keySpan = tree.span(entry, true);
      tree = tree.children[entry];
    }
    let p = pointer;
    for (let depth = segments.length; ; depth--) {
      const span = (depth === segments.length ? keySpan : undefined) ?? found[depth] ?? this.spans.aliasSpans?.get(p);
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
