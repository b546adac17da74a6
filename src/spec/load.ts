import { readFileSync, statSync } from "node:fs";
import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node as YamlNode,
  parseDocument,
  type YAMLError,
} from "yaml";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import { type Diagnostic, diagnostic, fileLocation } from "../diagnostics/diagnostic.js";
import { defineOwn } from "./schema-walk.js";
import { joinPointer, SourceFile, type Span } from "./source.js";

/** A contract is a hand-written document; anything this large is a mistake or an attack. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Alias references allowed in one document. */
export const MAX_ALIASES = 100;
/** Nodes materialised in total, aliases expanded: bounds "billion laughs" work to milliseconds. */
export const MAX_EXPANDED_NODES = 500_000;
/** YAML errors reported per file. */
export const MAX_YAML_ERRORS = 10;

export interface LoadResult {
  readonly file?: SourceFile;
  readonly diagnostics: Diagnostic[];
}

const YAML_ERROR_CODES: Record<string, DiagnosticCode> = {
  DUPLICATE_KEY: "yaml-duplicate-key",
  TAB_AS_INDENT: "yaml-tab-indent",
  MULTIPLE_DOCS: "yaml-multiple-documents",
  TAG_RESOLVE_FAILED: "yaml-unsupported-tag",
};

/** Read and parse one YAML (or JSON) file; never throws for bad input. */
export function loadSourceFile(path: string): LoadResult {
  const where = fileLocation(path);
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      return fail(diagnostic("file-is-directory", `${path} is a directory, not a contract file.`, where));
    }
    size = stat.size;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return fail(diagnostic("file-not-found", `${path} does not exist.`, where));
    return fail(diagnostic("file-unreadable", `${path} cannot be read (${code ?? "unknown error"}).`, where));
  }
  if (size > MAX_FILE_BYTES) {
    return fail(
      diagnostic("file-too-large", `${path} is ${size} bytes; the limit is ${MAX_FILE_BYTES} bytes.`, where),
    );
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fail(diagnostic("file-unreadable", `${path} cannot be read (${code ?? "unknown error"}).`, where));
  }
  return parseSource(path, bytes);
}

/** Parse already-read bytes (used by tests, git refs and the loader). */
export function parseSource(path: string, bytes: Uint8Array): LoadResult {
  const where = fileLocation(path);
  let text: string;
  try {
    if (bytes.includes(0)) throw new Error("NUL byte");
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return fail(diagnostic("file-binary", `${path} is not UTF-8 text.`, where));
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, keepSourceTokens: false });
  const empty = new SourceFile(path, text, undefined, new Map(), new Map());
  const problems = primaryYamlErrors([...doc.errors, ...doc.warnings.filter((w) => w.code === "TAG_RESOLVE_FAILED")]);
  if (problems.length > 0) {
    return { file: empty, diagnostics: problems.map((e) => yamlDiagnostic(empty, text, e)) };
  }
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    return { file: empty, diagnostics: [diagnostic("file-empty", `${path} holds no contract.`, where)] };
  }
  const converter = new Converter(doc, empty);
  const value = converter.convert(doc.contents as YamlNode, "");
  const file = new SourceFile(path, text, value, converter.valueSpans, converter.keySpans);
  // Re-anchor diagnostics found during conversion to the final file object (same text, same spans).
  return {
    file,
    diagnostics: converter.diagnostics.map((d) => ({ ...d, location: { ...d.location, file: path } })),
  };
}

function fail(d: Diagnostic): LoadResult {
  return { diagnostics: [d] };
}

/** Errors that stand on their own: duplicate keys and unknown tags do not derail the parser. */
const INDEPENDENT_ERRORS = new Set(["DUPLICATE_KEY", "TAG_RESOLVE_FAILED"]);

/**
 * The errors worth reporting. After the first structural error the parser's view of the document is
 * off, so every later line tends to fail too: keep that first error, and the independent ones
 * (duplicate keys, unknown tags) found before it.
 */
function primaryYamlErrors(errors: YAMLError[]): YAMLError[] {
  const sorted = [...errors].sort((a, b) => a.pos[0] - b.pos[0]);
  const firstStructural = sorted.find((e) => !INDEPENDENT_ERRORS.has(e.code));
  const cut = firstStructural ? firstStructural.pos[0] : Infinity;
  return sorted
    .filter((e) => e === firstStructural || (INDEPENDENT_ERRORS.has(e.code) && e.pos[0] < cut))
    .slice(0, MAX_YAML_ERRORS);
}

function yamlDiagnostic(file: SourceFile, text: string, error: YAMLError): Diagnostic {
  const code = YAML_ERROR_CODES[error.code] ?? "yaml-syntax";
  let start = error.pos[0];
  let end = error.pos[1];
  let message = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
  const unclosed = /^Flow (sequence|map) in block collection must be sufficiently indented and end with a ([\]}])/.exec(message);
  if (unclosed) {
    // The parser notices a missing bracket where it gives up; point at the bracket left open instead.
    const opener = unmatchedOpener(text, start, unclosed[2] === "]" ? "[" : "{", unclosed[2]!);
    if (opener !== undefined) {
      start = opener;
      end = opener + 1;
      message = `This flow ${unclosed[1]} is never closed with "${unclosed[2]}"`;
    }
  } else if (code !== "yaml-tab-indent") {
    // Indentation errors are reported at column 1; the offending token is the first non-blank one.
    while (start < text.length && (text[start] === " " || text[start] === "\t")) start++;
    end = Math.max(end, start);
  }
  return diagnostic(code, message.endsWith(".") ? message : `${message}.`, file.spanLocation({ start, end }, ""));
}

/** Offset of the bracket `open` that is still unclosed before `before` (a heuristic that ignores quotes). */
function unmatchedOpener(text: string, before: number, open: string, close: string): number | undefined {
  let depth = 0;
  for (let i = Math.min(before, text.length) - 1; i >= 0; i--) {
    const c = text[i];
    if (c === close) depth++;
    else if (c === open) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return undefined;
}

/** AST → plain JSON value, recording spans by JSON pointer and bounding alias expansion. */
class Converter {
  readonly valueSpans = new Map<string, Span>();
  readonly keySpans = new Map<string, Span>();
  readonly diagnostics: Diagnostic[] = [];
  private aliases = 0;
  private nodes = 0;
  private aborted = false;
  private expanding: { node: YamlNode; pointer: string } | undefined;

  constructor(
    private readonly doc: Document,
    private readonly file: SourceFile,
  ) {}

  convert(node: YamlNode | null, pointer: string, viaAlias = false): unknown {
    if (this.aborted) return null;
    if (++this.nodes > MAX_EXPANDED_NODES) {
      this.abort(this.expanding?.node ?? node, this.expanding?.pointer ?? pointer, `Aliases expand to more than ${MAX_EXPANDED_NODES} nodes.`);
      return null;
    }
    if (node === null) return null;
    const span = spanOf(node);
    if (span && !viaAlias && !this.valueSpans.has(pointer)) this.valueSpans.set(pointer, span);
    if (isAlias(node)) {
      // Blame the alias written in the document, not one reached while expanding it.
      const outermost = !viaAlias;
      if (outermost) this.expanding = { node, pointer };
      if (++this.aliases > MAX_ALIASES) {
        this.abort(this.expanding?.node ?? node, this.expanding?.pointer ?? pointer, `More than ${MAX_ALIASES} alias references.`);
        return null;
      }
      if (span) this.valueSpans.set(pointer, span);
      const target = node.resolve(this.doc);
      const value = target ? this.convert(target as YamlNode, pointer, true) : null;
      if (outermost) this.expanding = undefined;
      return value;
    }
    if (isScalar(node)) return toJsonScalar(node.value);
    if (isSeq(node)) return node.items.map((item, i) => this.convert(item as YamlNode, joinPointer(pointer, i), viaAlias));
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key as YamlNode | null;
        const key = isScalar(keyNode) && typeof keyNode.value === "string" ? keyNode.value : undefined;
        if (key === undefined) {
          // An empty key has a zero-width node at the start of its line: move to the ":" itself.
          const raw = spanOf(keyNode) ?? spanOf(pair.value as YamlNode | null) ?? span;
          const at = raw && raw.start === raw.end ? { start: skipBlanks(this.file.text, raw.start), end: skipBlanks(this.file.text, raw.start) + 1 } : raw;
          this.diagnostics.push(
            diagnostic(
              "yaml-non-string-key",
              `Key ${describeKey(keyNode)} is not a string.`,
              this.file.spanLocation(at ?? { start: 0, end: 0 }, pointer),
            ),
          );
          continue;
        }
        const child = joinPointer(pointer, key);
        const keySpan = spanOf(keyNode);
        if (keySpan && !viaAlias) this.keySpans.set(child, keySpan);
        defineOwn(out, key, this.convert(pair.value as YamlNode | null, child, viaAlias));
        // A key with no value ("summary:") has an empty or missing value node: point at the key.
        const valueRange = (pair.value as YamlNode | null)?.range;
        if (keySpan && !viaAlias && (!valueRange || valueRange[0] === valueRange[1])) this.valueSpans.set(child, keySpan);
      }
      return out;
    }
    return null;
  }

  private abort(node: YamlNode | null, pointer: string, why: string): void {
    if (this.aborted) return;
    this.aborted = true;
    const span = spanOf(node) ?? { start: 0, end: 0 };
    this.diagnostics.push(diagnostic("yaml-alias-limit", `${why} Refused to expand the document.`, this.file.spanLocation(span, pointer)));
  }
}

function spanOf(node: YamlNode | null | undefined): Span | undefined {
  const range = node?.range;
  return range ? { start: range[0], end: range[1] } : undefined;
}

function toJsonScalar(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (value instanceof Uint8Array) return null;
  return value ?? null;
}

function skipBlanks(text: string, offset: number): number {
  let i = offset;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  return i;
}

function describeKey(node: YamlNode | null): string {
  if (node === null || (isScalar(node) && node.value === null)) return "(empty)";
  if (isScalar(node)) return JSON.stringify(node.value) ?? String(node.value);
  if (isMap(node)) return "(a mapping)";
  if (isSeq(node)) return "(a sequence)";
  return "(complex key)";
}
