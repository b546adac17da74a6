/**
 * JSON OpenAPI documents (most large ones are JSON) read without keeping a position per value:
 * one pass over the text checks what JSON.parse would not (nesting, entries per mapping or list,
 * values in all, duplicate keys) with memory for the open path only, then JSON.parse builds the
 * value, about a tenth of the memory of the YAML reader's value and positions. Positions are found
 * again by the same pass when a problem needs one.
 */

export interface JsonLimits {
  readonly maxDepth: number;
  readonly maxEntries: number;
  /** Values this file may hold (what is left of the import's budget). */
  readonly maxValues: number;
}

/** Why a text was refused, where. */
export interface JsonProblem {
  readonly kind: "depth" | "entries" | "values" | "duplicate-key";
  readonly offset: number;
  readonly pointer: string;
  readonly count?: number;
}

interface Frame {
  readonly object: boolean;
  /** Keys seen in this object (duplicate check), or undefined for a list. */
  readonly keys: Set<string> | undefined;
  entries: number;
  /** The current entry's key (unescaped) or index. */
  at: string;
  /**
   * The frame's own pointer while pointers are wanted and it leads to one (else null: made from the
   * stack when a problem needs it).
   */
  readonly pointer: string | null;
}

/** A JSON number or literal, matched where a value starts. */
const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/** Thrown inside the scan when the text is not JSON: the caller reads it as YAML instead. */
class NotJson extends Error {}

/**
 * One pass over JSON text. Returns the values it holds, a problem, or "not-json" (the YAML reader
 * then reports what is wrong, or reads what JSON does not allow). With `wanted`, it also records the
 * offset where each wanted pointer's value starts.
 */
export function scanJson(text: string, limits: JsonLimits, wanted?: ReadonlySet<string>, found?: Map<string, number>): { values: number } | JsonProblem | "not-json" {
  try {
    return scan(text, limits, wanted, found);
  } catch (e) {
    if (e instanceof NotJson) return "not-json";
    throw e;
  }
}

function scan(text: string, limits: JsonLimits, wanted: ReadonlySet<string> | undefined, found: Map<string, number> | undefined): { values: number } | JsonProblem {
  const stack: Frame[] = [];
  let values = 0;
  let pos = skipBlank(text, 0);
  // Pointers cost a string per value: built as the scan goes only inside collections that lead to a
  // wanted one (`wanted` holds every ancestor of what is wanted), else from the stack on demand.
  const pointerOf = (depth: number) => stack.slice(0, depth).map((f) => `/${escape(f.at)}`).join("");
  const here = () => pointerOf(stack.length);
  /** The pointer of the value starting now, when it may be wanted; else null. */
  const tracked = (): string | null => {
    if (wanted === undefined) return null;
    const top = stack[stack.length - 1];
    if (top === undefined) return "";
    return top.pointer === null ? null : `${top.pointer}/${escape(top.at)}`;
  };
  for (;;) {
    // A value starts at `pos`.
    if (++values > limits.maxValues) return { kind: "values", offset: pos, pointer: here(), count: values };
    const pointer = tracked();
    const leads = pointer !== null && wanted!.has(pointer);
    if (leads) found?.set(pointer, pos);
    const c = text.charCodeAt(pos);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length + 1 > limits.maxDepth) return { kind: "depth", offset: pos, pointer: here() };
      const object = c === 0x7b;
      const frame: Frame = { object, keys: object ? new Set() : undefined, entries: 0, at: "", pointer: leads ? pointer : null };
      stack.push(frame);
      pos = skipBlank(text, pos + 1);
      if (text.charCodeAt(pos) === (object ? 0x7d : 0x5d)) {
        stack.pop();
        pos++;
      } else {
        const next = openEntry(text, pos, frame, limits, pointerOf, stack.length - 1);
        if (typeof next !== "number") return next;
        pos = next;
        continue;
      }
    } else if (c === 0x22 /* " */) {
      pos = stringEnd(text, pos);
    } else {
      SCALAR.lastIndex = pos;
      if (!SCALAR.exec(text)) throw new NotJson();
      pos = SCALAR.lastIndex;
    }
    // After a value: close collections, or go on to the next entry.
    for (;;) {
      pos = skipBlank(text, pos);
      const top = stack[stack.length - 1];
      if (!top) {
        if (pos !== text.length) throw new NotJson();
        return { values };
      }
      const ch = text.charCodeAt(pos);
      if (ch === 0x2c /* , */) {
        const next = openEntry(text, skipBlank(text, pos + 1), top, limits, pointerOf, stack.length - 1);
        if (typeof next !== "number") return next;
        pos = next;
        break;
      }
      if (ch !== (top.object ? 0x7d : 0x5d)) throw new NotJson();
      stack.pop();
      pos++;
    }
  }
}

/** Start the next entry of `frame` at `pos` (an object's key and colon are read); returns where its value starts. */
function openEntry(text: string, pos: number, frame: Frame, limits: JsonLimits, pointerOf: (depth: number) => string, depth: number): number | JsonProblem {
  if (++frame.entries > limits.maxEntries) return { kind: "entries", offset: pos, pointer: pointerOf(depth), count: frame.entries };
  if (!frame.object) {
    frame.at = String(frame.entries - 1);
    return pos;
  }
  if (text.charCodeAt(pos) !== 0x22) throw new NotJson();
  const end = stringEnd(text, pos);
  let key: string;
  if (!escapedString) {
    // No escape in the key (nearly always): its text is its value.
    key = text.slice(pos + 1, end - 1);
  } else {
    try {
      key = JSON.parse(text.slice(pos, end)) as string;
    } catch {
      throw new NotJson();
    }
  }
  if (frame.keys!.has(key)) return { kind: "duplicate-key", offset: pos, pointer: `${pointerOf(depth)}/${escape(key)}` };
  frame.keys!.add(key);
  frame.at = key;
  const colon = skipBlank(text, end);
  if (text.charCodeAt(colon) !== 0x3a /* : */) throw new NotJson();
  return skipBlank(text, colon + 1);
}

/** Offset just past the string starting at `pos` (a `"`). */
function stringEnd(text: string, pos: number): number {
  // Runs of plain characters skipped by the regular expression engine; escapes and the end by hand.
  let i = pos + 1;
  escapedString = false;
  for (;;) {
    PLAIN.lastIndex = i;
    PLAIN.test(text);
    i = PLAIN.lastIndex;
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || c < 0x20) throw new NotJson(); // unterminated, or a raw control character
    if (c === 0x22) return i + 1;
    escapedString = true; // a backslash: it and the character it escapes
    i += 2;
  }
}

/** Whether the string stringEnd last read holds an escape (so its text is not its value). */
let escapedString = false;

/** Characters a JSON string holds as they are: not a quote, a backslash or a control character. */
const PLAIN = /[^"\\\u0000-\u001f]*/y;

function skipBlank(text: string, pos: number): number {
  let i = pos;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Line starts of a text, for turning offsets into line and column. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line and column (in UTF-16 units, as the YAML reader counts them) of an offset. */
export function position(starts: readonly number[], offset: number): { line: number; col: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, col: offset - starts[lo]! + 1 };
}

/** A JSON file's text, locating pointers by scanning it again (in one pass for many, with prepare). */
export class JsonText {
  private starts: number[] | undefined;
  private readonly offsets = new Map<string, number>();

  constructor(
    /** The file as shown to the user. */
    readonly path: string,
    readonly text: string,
    private readonly limits: Omit<JsonLimits, "maxValues">,
  ) {}

  /** Find where these pointers (and their ancestors) sit, in one pass over the text. */
  prepare(pointers: Iterable<string>): void {
    // The scan follows only collections named in `wanted`, so every ancestor goes in, known or not.
    const wanted = new Set<string>();
    let unknown = false;
    for (const p of pointers) {
      for (let q = p; ; q = q.slice(0, Math.max(0, q.lastIndexOf("/")))) {
        if (wanted.has(q)) break;
        wanted.add(q);
        if (!this.offsets.has(q)) unknown = true;
        if (q === "") break;
      }
    }
    if (!unknown) return;
    const found = new Map<string, number>();
    scanJson(this.text, { ...this.limits, maxValues: Number.POSITIVE_INFINITY }, wanted, found);
    for (const p of wanted) if (!this.offsets.has(p)) this.offsets.set(p, found.get(p) ?? -1);
  }

  /** Where the value at `pointer` starts, or its nearest ancestor's when it does not exist; the pointer is kept. */
  locate(pointer: string): { file: string; line: number; col: number; endLine: number; endCol: number; pointer: string } {
    this.prepare([pointer]);
    for (let q = pointer; ; q = q.slice(0, Math.max(0, q.lastIndexOf("/")))) {
      const offset = this.offsets.get(q) ?? -1;
      if (offset >= 0) return this.at(offset, pointer);
      if (q === "") return { file: this.path, line: 1, col: 1, endLine: 1, endCol: 1, pointer };
    }
  }

  /** The location of an offset. */
  at(offset: number, pointer: string): { file: string; line: number; col: number; endLine: number; endCol: number; pointer: string } {
    this.starts ??= lineStarts(this.text);
    const { line, col } = position(this.starts, offset);
    return { file: this.path, line, col, endLine: line, endCol: col + 1, pointer };
  }
}
