/**
 * A fast reader for the common shape of contract YAML: js-yaml's offset event stream, walked once,
 * iteratively, into the same plain value and SpanTree that load.ts builds from the `yaml` library's
 * document. The `yaml` library stays the reference: every span here reproduces its node ranges, and
 * anything this reader does not reproduce exactly (anchors, aliases, tags, explicit keys, several
 * documents, duplicate or non-string keys, empty sequence items, indented comment lines, …) makes it
 * return undefined so the caller parses with `yaml` and reports exactly what it reports today.
 */
import { CHOMPING_MODE, COLLECTION_STYLE, EVENT_ID, type Event, getScalarValue, parseEvents, SCALAR_STYLE, type ScalarEvent } from "js-yaml";
import { defineOwn } from "./schema-walk.js";
import { type Span, SpanTree } from "./source.js";

export interface FastParse {
  readonly value: unknown;
  readonly root: Span;
  readonly tree: SpanTree;
}

// js-yaml's own event, style and chomping codes, as locals for the hot loop.
const { DOCUMENT, SEQUENCE, MAPPING, SCALAR, POP } = EVENT_ID;
const { PLAIN, SINGLE_QUOTED, DOUBLE_QUOTED, LITERAL_BLOCK: LITERAL, FOLDED_BLOCK: FOLDED } = SCALAR_STYLE;
const { KEEP } = CHOMPING_MODE;
const { FLOW } = COLLECTION_STYLE;

/** Thrown (and caught in fastParse) when the document leaves the subset this reader reproduces. */
class Unsupported extends Error {}
/** Made only when declining (once per parse): the reason names the check, the offset where. */
function no(reason: string, at = -1): Unsupported {
  return new Unsupported(at >= 0 ? `${reason} at offset ${at}` : reason);
}

/** One open collection during the walk. */
interface Frame {
  readonly map: boolean;
  readonly flow: boolean;
  readonly value: Record<string, unknown> | unknown[];
  readonly tree: SpanTree;
  readonly start: number;
  /** The pending key of a mapping (undefined while a key is expected). */
  key: string | undefined;
  keyStart: number;
  keyEnd: number;
  /** Offset just past the ":" of the pending key. */
  afterColon: number;
  /** `yaml`'s range[2] of the last entry's value: where a block collection's range ends. */
  lastEnd: number;
}

/**
 * Parse `text` (no BOM, depth already checked) or return undefined when the fast reader cannot
 * promise the `yaml` library's exact result. `maxDepth` and `maxNodes` are load.ts's limits: past
 * them the slow path owns the diagnostic.
 */
export function fastParse(text: string, maxDepth: number, maxNodes: number, scalarKeys = false): FastParse | undefined {
  const result = fastParseOrReason(text, maxDepth, maxNodes, scalarKeys);
  return typeof result === "string" ? undefined : result;
}

/**
 * fastParse, or why it declined (for tests and for finding what keeps a document on the slow path).
 * `scalarKeys`: read a plain key that is not a string (`200:`) as the string js-yaml makes of it,
 * as load.ts does under the same rule, instead of declining.
 */
export function fastParseOrReason(text: string, maxDepth: number, maxNodes: number, scalarKeys = false): FastParse | string {
  // A lone CR ends a line for js-yaml (as YAML 1.2 says) but not for `yaml`.
  for (let cr = text.indexOf("\r"); cr >= 0; cr = text.indexOf("\r", cr + 1)) {
    if (text.charCodeAt(cr + 1) !== 10) return `a carriage return without a line feed at offset ${cr}`;
  }
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth });
  } catch (e) {
    return `js-yaml: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`;
  }
  try {
    return new Walk(text, events, maxDepth, maxNodes, scalarKeys).run();
  } catch (e) {
    if (e instanceof Unsupported) return e.message;
    throw e;
  }
}

class Walk {
  /** End of the last content consumed: gaps after it are scanned for comments and indicators. */
  private pos = 0;
  private nodes = 0;
  /** The span of the scalar read last (flowScalarSpan, blockScalarSpan): no object per scalar. */
  private spanStart = -1;
  private spanEnd = -1;
  private readonly stack: Frame[] = [];

  constructor(
    private readonly text: string,
    private readonly events: Event[],
    private readonly maxDepth: number,
    private readonly maxNodes: number,
    private readonly scalarKeys: boolean,
  ) {}

  run(): FastParse {
    const { events, text } = this;
    const first = events[0];
    // Exactly one document, without directives or an explicit end marker ("..." changes ranges).
    if (events.length < 3 || first?.type !== DOCUMENT || first.directives.length > 0 || first.explicitEnd) throw no("not one plain document");
    if (events[events.length - 1]!.type !== POP) throw no("unterminated event stream");
    const rootEvent = events[1]!;
    // A scalar or empty root is not a contract; the slow path words that diagnostic.
    if (rootEvent.type !== MAPPING && rootEvent.type !== SEQUENCE) throw no("root is not a collection");
    let root: { value: unknown; span: Span; tree: SpanTree } | undefined;
    // Leading comments and "---" belong to the document: skip the gap before the root unchecked.
    this.pos = rootEvent.start;
    let i = 1;
    const last = events.length - 1;
    for (; i < last; i++) {
      const e = events[i]!;
      const top = this.stack[this.stack.length - 1];
      if (e.type === POP) {
        if (top === undefined) throw no("unbalanced events");
        this.stack.pop();
        const done = this.close(top);
        const parent = this.stack[this.stack.length - 1];
        if (parent === undefined) {
          root = { value: top.value, span: done.span, tree: top.tree };
          if (i !== last - 1) throw no("content after the root");
        } else this.attach(parent, top.value, done.span.start, done.span.end, done.end, top.tree);
        continue;
      }
      if (top !== undefined && top.map && top.key === undefined) {
        if (e.type !== SCALAR) throw no("a non-scalar key", e.type === MAPPING || e.type === SEQUENCE ? e.start : -1);
        this.readKey(top, e);
        continue;
      }
      if (e.type === SCALAR) {
        if (top === undefined) throw no("a scalar outside a collection");
        this.readScalarValue(top, e);
        continue;
      }
      if (e.type !== MAPPING && e.type !== SEQUENCE) throw no("an alias");
      if (e.anchorStart >= 0 || e.tagStart >= 0) throw no("an anchor or tag", e.start);
      if (this.stack.length >= this.maxDepth) throw no("too deep", e.start);
      const flow = e.style === FLOW;
      if (flow && text[e.start] !== (e.type === MAPPING ? "{" : "[")) throw no("a flow pair without braces", e.start); // `[a: b]`: an implicit pair
      if (top !== undefined) this.beforeValue(top, e.start);
      this.gap(e.start);
      this.pos = flow ? e.start + 1 : e.start;
      const map = e.type === MAPPING;
      this.stack.push({
        map,
        flow,
        value: map ? {} : [],
        tree: new SpanTree(map ? [] : null),
        start: e.start,
        key: undefined,
        keyStart: -1,
        keyEnd: -1,
        afterColon: -1,
        lastEnd: -1,
      });
    }
    if (root === undefined || this.stack.length > 0) throw no("unbalanced events");
    // Comment lines after the content are harmless only at column 0 (they then belong to the document).
    this.gap(text.length, true);
    if (++this.nodes > this.maxNodes) throw no("too many nodes");
    return { value: root.value, root: root.span, tree: root.tree };
  }

  private readKey(frame: Frame, e: ScalarEvent): void {
    const { text } = this;
    if (e.anchorStart >= 0 || e.tagStart >= 0 || e.valueStart < 0) throw no("a key with properties, or empty", e.valueStart);
    if (e.style !== PLAIN && e.style !== SINGLE_QUOTED && e.style !== DOUBLE_QUOTED) throw no("a block scalar key", e.valueStart);
    this.flowScalarSpan(e);
    const start = this.spanStart;
    const end = this.spanEnd;
    this.gap(start);
    let raw = getScalarValue(text, e);
    // `yaml` keeps a plain key that the core schema reads as null, a boolean or a number as such: not a string key.
    if (e.style === PLAIN) {
      const resolved = resolvePlain(raw);
      if (typeof resolved !== "string") {
        if (!this.scalarKeys || (typeof resolved === "number" && !Number.isFinite(resolved))) throw no("a key that is not a string", start);
        raw = String(resolved);
      }
    }
    const out = frame.value as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(out, raw)) throw no("a duplicate key", start); // duplicate: the slow path reports it
    // An implicit key: ":" follows on the same line. Anything else (an explicit "?" key, a flow entry
    // without a value) is left to the slow path, as are keys `yaml` refuses for length.
    for (let k = start; k < end; k++) if (text.charCodeAt(k) === 10) throw no("a key over several lines", start);
    let colon = end;
    while (text[colon] === " " || text[colon] === "\t") colon++;
    if (text[colon] !== ":" || colon - start > 1000) throw no("not an implicit key", start);
    frame.key = raw;
    frame.keyStart = start;
    frame.keyEnd = end;
    frame.afterColon = colon + 1;
    this.pos = colon + 1;
  }

  /** Checks before a mapping value or sequence item that starts at `start` (-1: empty). */
  private beforeValue(frame: Frame, start: number): void {
    if (frame.map && frame.key === undefined) throw no("a value without a key", start);
    if (!frame.map && start < 0) throw no("an empty sequence item"); // an empty item: its position is `yaml`'s guess
  }

  private readScalarValue(frame: Frame, e: ScalarEvent): void {
    const { text } = this;
    if (e.anchorStart >= 0 || e.tagStart >= 0) throw no("a scalar with an anchor or tag", e.valueStart);
    if (e.valueStart < 0) {
      // An empty value ("key:"): null, located at its key. `yaml` places the empty node just past
      // ":" and the blanks after it, which is where a block mapping ending with it ends.
      this.beforeValue(frame, -1);
      let at = frame.afterColon;
      while (text[at] === " " || text[at] === "\t") at++;
      // A comment between it and the next content can move `yaml`'s range end for it.
      let next = at;
      while (isBlank(text[next])) next++;
      if (text[next] === "#") throw no("a comment after an empty value", next);
      this.attach(frame, null, at, at, at, undefined);
      return;
    }
    let rangeEnd: number;
    let value: unknown;
    const raw = getScalarValue(text, e);
    if (e.style === LITERAL || e.style === FOLDED) {
      this.blockScalarSpan(frame, e);
      rangeEnd = this.spanEnd;
      value = raw;
    } else {
      this.flowScalarSpan(e);
      rangeEnd = this.lineEnd(this.spanEnd);
      value = e.style === PLAIN ? toJson(resolvePlain(raw)) : raw;
    }
    const start = this.spanStart;
    this.beforeValue(frame, start);
    this.gap(start);
    this.pos = this.spanEnd;
    this.attach(frame, value, start, this.spanEnd, rangeEnd, undefined);
  }

  /** Add a finished value (spanning start..end) to its collection; `rangeEnd` is `yaml`'s range[2] of it. */
  private attach(frame: Frame, value: unknown, start: number, end: number, rangeEnd: number, tree: SpanTree | undefined): void {
    if (++this.nodes > this.maxNodes) throw no("too many nodes");
    if (frame.map) {
      const key = frame.key!;
      defineOwn(frame.value as Record<string, unknown>, key, value);
      // Same rule as load.ts: a key with no value points at the key.
      if (start !== end) frame.tree.addOffsets(key, frame.keyStart, frame.keyEnd, start, end, tree);
      else frame.tree.addOffsets(key, frame.keyStart, frame.keyEnd, frame.keyStart, frame.keyEnd, tree);
      frame.key = undefined;
    } else {
      (frame.value as unknown[]).push(value);
      frame.tree.addOffsets(null, -1, -1, start, end, tree);
    }
    frame.lastEnd = rangeEnd;
  }

  /** A collection's span and range[2] when its events end. */
  private close(frame: Frame): { span: Span; end: number } {
    const { text } = this;
    if (frame.map && frame.key !== undefined) throw no("a key without a value", frame.keyStart);
    if (frame.flow) {
      // The closing bracket follows the last entry after blanks, commas and comments.
      const close = frame.map ? "}" : "]";
      let at = this.pos;
      for (;;) {
        const c = text[at];
        if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === ",") at++;
        else if (c === "#") {
          if (!isBlank(text[at - 1])) throw no("a comment without a blank before it", at);
          while (at < text.length && text[at] !== "\n") at++;
        } else break;
      }
      if (text[at] !== close) throw no("an unexpected flow collection end", at);
      this.gap(at);
      this.pos = at + 1;
      const parent = this.stack[this.stack.length - 1];
      if (parent !== undefined && !parent.flow) this.checkFlowIndent(frame.start, at, parent.start);
      return { span: { start: frame.start, end: at + 1 }, end: this.lineEnd(at + 1) };
    }
    // A block collection ends where its last value's range[2] ends (trailing blank lines go to the
    // parent; comment lines that would stay inside were refused in gap()).
    if (frame.lastEnd < 0) throw no("an empty block collection", frame.start);
    return { span: { start: frame.start, end: frame.lastEnd }, end: frame.lastEnd };
  }

  /**
   * `yaml` wants every line of a flow collection inside a block collection indented past that
   * collection. js-yaml 5.5 refuses every under-indented case tried, so this only guards against a
   * laxer js-yaml: require more than the column of the parent's first entry (at least as strict as
   * `yaml`), else let the slow path report it.
   */
  private checkFlowIndent(start: number, end: number, parentStart: number): void {
    const { text } = this;
    const parentCol = parentStart - (text.lastIndexOf("\n", parentStart - 1) + 1);
    for (let nl = text.indexOf("\n", start); nl >= 0 && nl < end; nl = text.indexOf("\n", nl + 1)) {
      let i = nl + 1;
      while (text[i] === " ") i++;
      if (text[i] === "\n" || text[i] === "\r") continue;
      if (i - (nl + 1) <= parentCol) throw no("an under-indented flow line", nl + 1);
    }
  }

  /** `yaml`'s range of a plain or quoted scalar, quotes included, into spanStart/spanEnd. */
  private flowScalarSpan(e: ScalarEvent): void {
    if (e.style === PLAIN) {
      this.spanStart = e.valueStart;
      this.spanEnd = e.valueEnd;
      return;
    }
    const quote = e.style === SINGLE_QUOTED ? "'" : '"';
    if (this.text[e.valueStart - 1] !== quote || this.text[e.valueEnd] !== quote) throw no("a quoted scalar without its quotes", e.valueStart);
    this.spanStart = e.valueStart - 1;
    this.spanEnd = e.valueEnd + 1;
  }

  /**
   * `yaml`'s range of a block scalar: from its "|" or ">" indicator to the end of its last content
   * line, or to the end of its trailing empty lines when it keeps them ("|+").
   */
  private blockScalarSpan(frame: Frame, e: ScalarEvent): void {
    const { text } = this;
    if (frame.flow || e.valueStart < 1 || text[e.valueStart - 1] !== "\n") throw no("a block scalar out of place", e.valueStart);
    let at: number;
    if (frame.map) at = frame.afterColon;
    else {
      at = text.lastIndexOf("\n", e.valueStart - 2) + 1;
      while (text[at] === " ") at++;
      while (text[at] === "-") {
        at++;
        while (text[at] === " ") at++;
      }
    }
    while (text[at] === " ") at++;
    if (text[at] !== "|" && text[at] !== ">") throw no("no block scalar indicator", at);
    const indicator = at;
    if (text.lastIndexOf("\n", e.valueStart - 2) >= indicator) throw no("a block scalar header away from its content", e.valueStart); // header not on the line above
    // End of the last line with content. Whitespace-only lines (not just a line break) after the
    // content change where `yaml` ends the scalar, and leading ones more indented than the first
    // content line are a `yaml` error: those go to the slow path.
    let contentEnd = -1;
    let pendingBlank = false;
    let leadingBlank = -1;
    for (let lineStart = e.valueStart; lineStart < e.valueEnd; ) {
      let nl = text.indexOf("\n", lineStart);
      if (nl < 0 || nl >= e.valueEnd) nl = e.valueEnd;
      let k = lineStart;
      while (k < nl && text[k] === " ") k++;
      const indent = k - lineStart;
      if (k < nl && !(text[k] === "\r" && k + 1 === nl)) {
        if (contentEnd < 0 && leadingBlank > indent) throw no("a more-indented leading blank line in a block scalar", lineStart);
        contentEnd = Math.min(nl + 1, e.valueEnd);
        pendingBlank = false;
      } else if (indent > 0) {
        if (contentEnd < 0) leadingBlank = Math.max(leadingBlank, indent);
        else pendingBlank = true;
      }
      lineStart = nl + 1;
    }
    if (pendingBlank) throw no("whitespace-only lines after block scalar content", e.valueStart);
    if (contentEnd < 0) throw no("a block scalar without content", e.valueStart);
    this.spanStart = indicator;
    this.spanEnd = e.chomping === KEEP ? e.valueEnd : Math.min(contentEnd, e.valueEnd);
  }

  /** `yaml`'s range[2] of a value ending at `at`: blanks, a comment and one line break after it. */
  private lineEnd(at: number): number {
    const { text } = this;
    let i = at;
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] === "#") {
      if (i === at) throw no("a comment without a blank before it", i); // `yaml` wants a blank before a comment
      while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i++;
    }
    if (text[i] === "\r" && text[i + 1] === "\n") return i + 2;
    if (text[i] === "\n") return i + 1;
    return i < text.length ? at : i;
  }

  /**
   * Check the text between the last content and `until`: only blanks, line breaks, the indicators
   * "-", ":" and ",", and comments that either trail content on its line or start at column 0.
   * An indented comment line can become part of a neighbouring node's range in `yaml`; a "?" is an
   * explicit key; a tab in indentation is a `yaml` error. All of these go to the slow path.
   */
  private gap(until: number, atEnd = false): void {
    const { text } = this;
    let lineStart = this.pos === 0 || text[this.pos - 1] === "\n";
    for (let i = this.pos; i < until; i++) {
      const c = text[i];
      if (c === "\n") lineStart = true;
      else if (c === " " || c === "\r") continue;
      else if (c === "#") {
        if (lineStart && text[i - 1] !== "\n") throw no("an indented comment line", i);
        if (!lineStart && !isBlank(text[i - 1])) throw no("a comment without a blank before it", i);
        const nl = text.indexOf("\n", i);
        if (nl < 0 || nl >= until) return;
        i = nl - 1;
      } else if (c === "\t") {
        if (lineStart) throw no("a tab in indentation", i);
      } else if (c === "-" || c === ":" || c === "," || c === "[" || c === "{") {
        if (atEnd) throw no("content after the document", i);
        lineStart = false;
      } else throw no("an unexpected character", i);
    }
  }
}

function isBlank(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r";
}

const INT = /^[-+]?[0-9]+$/;
const OCT = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INF = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;

/**
 * A plain scalar as the YAML 1.2 core schema reads it, the way the `yaml` library converts each
 * form (parseInt/parseFloat), so large and odd numbers come out identical.
 */
export function resolvePlain(s: string): unknown {
  const c = s.charCodeAt(0);
  // Most plain scalars are words: only these first characters can start a non-string.
  if (s === "") return null;
  if (c === 0x7e /* ~ */ || c === 0x6e /* n */ || c === 0x4e /* N */) {
    return s === "~" || s === "null" || s === "Null" || s === "NULL" ? null : s;
  }
  if (c === 0x74 /* t */ || c === 0x54 /* T */) return s === "true" || s === "True" || s === "TRUE" ? true : s;
  if (c === 0x66 /* f */ || c === 0x46 /* F */) return s === "false" || s === "False" || s === "FALSE" ? false : s;
  if (!((c >= 0x30 && c <= 0x39) || c === 0x2b /* + */ || c === 0x2d /* - */ || c === 0x2e /* . */)) return s;
  if (OCT.test(s)) return parseInt(s.slice(2), 8);
  if (INT.test(s)) return parseInt(s, 10);
  if (HEX.test(s)) return parseInt(s.slice(2), 16);
  if (NAN.test(s)) return NaN;
  if (INF.test(s)) return s[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (FLOAT.test(s)) return parseFloat(s);
  return s;
}

/** The plain-JSON form load.ts gives a scalar: non-finite numbers become their names. */
function toJson(value: unknown): unknown {
  return typeof value === "number" && !Number.isFinite(value) ? String(value) : value;
}
