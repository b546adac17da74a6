import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node as YamlNode,
  parseDocument,
  type YAMLError,
} from "yaml";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import { type Diagnostic, diagnostic, fileLocation, type SourceLocation } from "../diagnostics/diagnostic.js";
import { defineOwn } from "./schema-walk.js";
import { joinPointer, SourceFile, type Span, SpanTree } from "./source.js";
import { findDeepNesting } from "./yaml-depth.js";
import { fastParse } from "./yaml-fast.js";

/** A contract is a hand-written document; anything this large is a mistake or an attack. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Alias references allowed in one document. */
export const MAX_ALIASES = 100;
/** Nodes materialised in total, aliases expanded: bounds "billion laughs" work to milliseconds. */
export const MAX_EXPANDED_NODES = 500_000;
/** YAML errors reported per file. */
export const MAX_YAML_ERRORS = 10;
/** Collections nested in one YAML document; far above any contract, far below what overflows a parser. */
export const MAX_YAML_DEPTH = 256;
/** Subschemas nested in one schema (checked before ajv sees it). */
export const MAX_SCHEMA_DEPTH = 64;
/** Operations in one contract. */
export const MAX_OPERATIONS = 10_000;
/** Files reached through $ref from one contract (the contract itself not counted). */
export const MAX_REF_FILES = 256;
/** Bytes read in total: the contract and every file its $refs reach. */
export const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** $refs followed in a row: a chain of bare $refs, or schemas each referencing the next. */
export const MAX_REF_DEPTH = 64;

/** How a YAML file is read: a contract's rules, or (lenient where real documents need it) an OpenAPI document's. */
export interface YamlRules {
  /** What the file holds, for messages ("contract", "OpenAPI document"). */
  readonly holds: string;
  /** Alias references allowed in one file. */
  readonly maxAliases: number;
  /** Nodes materialised in one file, aliases expanded. */
  readonly maxNodes: number;
  /**
   * Nodes materialised by expanding aliases, counted over every file that shares this budget:
   * `remaining` goes down as aliases are expanded; past zero the file is refused.
   */
  readonly aliasBudget?: { remaining: number; readonly limit: number };
  /** Keys that are scalars but not strings (`200:`, `true:`) read as strings, as js-yaml reads them. */
  readonly scalarKeys: boolean;
  /** YAML 1.1 merge keys (`<<: *base`), as js-yaml reads them. */
  readonly mergeKeys: boolean;
  /** The code of an alias refusal. */
  readonly aliasCode: "yaml-alias-limit" | "openapi-alias-limit";
}

/** The contract format's rules (docs/contract-format.md, File rules and Limits). */
export const CONTRACT_YAML: YamlRules = {
  holds: "contract",
  maxAliases: MAX_ALIASES,
  maxNodes: MAX_EXPANDED_NODES,
  scalarKeys: false,
  mergeKeys: false,
  aliasCode: "yaml-alias-limit",
};

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
  const read = readRegularFile(path, MAX_FILE_BYTES);
  if ("problem" in read) return fail(diagnostic(read.problem, read.message, fileLocation(path)));
  return parseSource(path, read.bytes);
}

/** Why a file was not read: a file-* code and a message naming the path. */
export interface ReadProblem {
  readonly problem: "file-not-found" | "file-is-directory" | "file-not-regular" | "file-unreadable" | "file-too-large";
  readonly message: string;
  /** The file's size, when it is known (a file over the limit). */
  readonly size?: number;
}

/**
 * Read a regular file of at most `limit` bytes. The type is checked on the open descriptor before
 * any byte is read, and the open never blocks (O_NONBLOCK), so a FIFO, a device such as /dev/zero
 * or a directory is refused at once; at most `limit + 1` bytes are ever read.
 */
export function readRegularFile(path: string, limit: number): { bytes: Buffer; size: number } | ReadProblem {
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { problem: "file-not-found", message: `${path} does not exist.` };
    if (code === "EISDIR") return { problem: "file-is-directory", message: `${path} is a directory, not a contract file.` };
    return { problem: "file-unreadable", message: `${path} cannot be read (${code ?? "unknown error"}).` };
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { problem: "file-is-directory", message: `${path} is a directory, not a contract file.` };
    if (!stat.isFile()) return { problem: "file-not-regular", message: `${path} is not a regular file (${fileKind(stat)}); it was not read.` };
    if (stat.size > limit) return { problem: "file-too-large", message: `${path} is ${stat.size} bytes; the limit is ${limit} bytes.`, size: stat.size };
    // Read in chunks up to one byte past the limit: the size can change after fstat, and some
    // files (under /proc) report 0 and still have content.
    const chunks: Buffer[] = [];
    let length = 0;
    while (length <= limit) {
      const chunk = Buffer.alloc(Math.min(64 * 1024, limit + 1 - length));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      length += n;
    }
    if (length > limit) return { problem: "file-too-large", message: `${path} is more than ${limit} bytes; the limit is ${limit} bytes.` };
    return { bytes: Buffer.concat(chunks, length), size: length };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { problem: "file-unreadable", message: `${path} cannot be read (${code ?? "unknown error"}).` };
  } finally {
    closeSync(fd);
  }
}

function fileKind(stat: Stats): string {
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "not a plain file";
}

/** Parse already-read bytes (used by tests, git refs and the loader). */
export function parseSource(path: string, bytes: Uint8Array): LoadResult {
  return parseSourceWith(path, bytes, true, CONTRACT_YAML);
}

/** Parse already-read bytes under other rules than a contract's (an OpenAPI document's). */
export function parseYamlSource(path: string, bytes: Uint8Array, rules: YamlRules): LoadResult {
  return parseSourceWith(path, bytes, true, rules);
}

/** parseSource with the `yaml` library only: the reference the fast reader is tested against. */
export function parseSourceSlow(path: string, bytes: Uint8Array): LoadResult {
  return parseSourceWith(path, bytes, false, CONTRACT_YAML);
}

function parseSourceWith(path: string, bytes: Uint8Array, fast: boolean, rules: YamlRules): LoadResult {
  const where = fileLocation(path);
  let text: string;
  try {
    if (bytes.includes(0)) throw new Error("NUL byte");
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return fail(diagnostic("file-binary", `${path} is not UTF-8 text.`, where));
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  // The common case, about 5x faster: js-yaml's event stream read into the same value and spans.
  // It declines (undefined) anything it does not reproduce exactly, including every document with
  // a problem to report, so diagnostics always come from the `yaml` library below. Its parser
  // stops at MAX_YAML_DEPTH levels itself, so no depth pre-scan is needed before it. It would read
  // a merge key as a plain key, so with merge keys on, a text that may hold one takes the slow path.
  const quick = fast && !(rules.mergeKeys && text.includes("<<")) ? fastParse(text, MAX_YAML_DEPTH, rules.maxNodes, rules.scalarKeys) : undefined;
  if (quick !== undefined) {
    return { file: new SourceFile(path, text, quick.value, { root: quick.root, tree: quick.tree, aliasSpans: new Map() }), diagnostics: [] };
  }
  // yaml composes documents recursively: text nested deeper than the limit must never reach it.
  const deep = findDeepNesting(text, MAX_YAML_DEPTH);
  if (deep !== undefined) {
    const file = new SourceFile(path, text, undefined);
    return { file, diagnostics: [depthDiagnostic(file.spanLocation({ start: deep, end: deep + 1 }, ""))] };
  }
  // No LineCounter: SourceFile computes line starts itself, once.
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, keepSourceTokens: false, merge: rules.mergeKeys });
  const empty = new SourceFile(path, text, undefined);
  const problems = primaryYamlErrors([...doc.errors, ...doc.warnings.filter((w) => w.code === "TAG_RESOLVE_FAILED")]);
  if (problems.length > 0) {
    return { file: empty, diagnostics: problems.map((e) => yamlDiagnostic(empty, text, e)) };
  }
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    return { file: empty, diagnostics: [diagnostic("file-empty", `${path} holds no ${rules.holds}.`, where)] };
  }
  const converter = new Converter(doc, empty, rules);
  const value = converter.convert(doc.contents as YamlNode, "", false, 0);
  const file = new SourceFile(path, text, value, { root: spanOf(doc.contents as YamlNode), tree: converter.tree, aliasSpans: converter.aliasSpans });
  // Re-anchor diagnostics found during conversion to the final file object (same text, same spans).
  return {
    file,
    diagnostics: converter.diagnostics.map((d) => ({ ...d, location: { ...d.location, file: path } })),
  };
}

function depthDiagnostic(where: SourceLocation): Diagnostic {
  return diagnostic("yaml-depth-limit", `Collections nest more than ${MAX_YAML_DEPTH} levels deep here; the document was not read further.`, where);
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

/** AST → plain JSON value, recording spans (a SpanTree per collection) and bounding alias expansion. */
class Converter {
  /** The tree of the collection converted last (outside alias expansions); the root's at the end. */
  tree: SpanTree | undefined;
  readonly aliasSpans = new Map<string, Span>();
  readonly diagnostics: Diagnostic[] = [];
  private aliases = 0;
  private nodes = 0;
  private aborted = false;
  private expanding: { node: YamlNode; pointer: string } | undefined;
  private readonly targets = new Map<Alias, YamlNode | undefined>();

  constructor(
    private readonly doc: Document,
    private readonly file: SourceFile,
    private readonly rules: YamlRules,
  ) {}

  /** `depth`: collections around this node. Aliases can nest far deeper than the text, so it is checked here too. */
  convert(node: YamlNode | null, pointer: string, viaAlias: boolean, depth: number): unknown {
    if (this.aborted) return null;
    if (++this.nodes > this.rules.maxNodes) {
      this.abort(this.expanding?.node ?? node, this.expanding?.pointer ?? pointer, `Aliases expand to more than ${this.rules.maxNodes} nodes.`);
      return null;
    }
    const budget = this.rules.aliasBudget;
    if (viaAlias && budget && --budget.remaining < 0) {
      this.abort(this.expanding?.node ?? node, this.expanding?.pointer ?? pointer, `Aliases expand to more than ${budget.limit} nodes in all.`);
      return null;
    }
    if (node === null) return null;
    const span = spanOf(node);
    if (isAlias(node)) {
      // Blame the alias written in the document, not one reached while expanding it.
      const outermost = !viaAlias;
      if (outermost) this.expanding = { node, pointer };
      if (++this.aliases > this.rules.maxAliases) {
        this.abort(this.expanding?.node ?? node, this.expanding?.pointer ?? pointer, `More than ${this.rules.maxAliases} alias references.`);
        return null;
      }
      // The outermost alias's span is its entry's value span; one met inside an expansion has no entry.
      if (span && viaAlias) this.aliasSpans.set(pointer, span);
      const target = this.resolveAlias(node);
      const value = target ? this.convert(target as YamlNode, pointer, true, depth) : null;
      if (outermost) this.expanding = undefined;
      return value;
    }
    if (isScalar(node)) return toJsonScalar(node.value);
    if ((isSeq(node) || isMap(node)) && depth >= MAX_YAML_DEPTH) {
      const blame = this.expanding?.node ?? node;
      this.abort(blame, this.expanding?.pointer ?? pointer, "", "yaml-depth-limit");
      return null;
    }
    if (isSeq(node)) {
      const tree = viaAlias ? undefined : new SpanTree(null);
      const out = node.items.map((item, i) => {
        this.tree = undefined;
        const value = this.convert(item as YamlNode, joinPointer(pointer, i), viaAlias, depth + 1);
        tree?.add(null, undefined, spanOf(item as YamlNode | null), this.tree);
        return value;
      });
      this.tree = tree;
      return out;
    }
    if (isMap(node)) {
      const tree = viaAlias ? undefined : new SpanTree([]);
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key as YamlNode | null;
        // With merge keys on, `yaml` reads a plain `<<` key as a symbol.
        if (this.rules.mergeKeys && isScalar(keyNode) && typeof keyNode.value === "symbol") {
          this.merge(out, pair.value as YamlNode | null, pointer, depth);
          if (this.aborted) return null;
          continue;
        }
        const key = this.keyOf(keyNode);
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
        this.tree = undefined;
        defineOwn(out, key, this.convert(pair.value as YamlNode | null, child, viaAlias, depth + 1));
        // A key with no value ("summary:") has an empty or missing value node: point at the key.
        const valueSpan = spanOf(pair.value as YamlNode | null);
        tree?.add(key, keySpan, valueSpan && valueSpan.start !== valueSpan.end ? valueSpan : (keySpan ?? valueSpan), this.tree);
      }
      this.tree = tree;
      return out;
    }
    return null;
  }

  /**
   * The node an alias names. `yaml` finds it by walking the document from its start each time; an
   * alias met again and again inside expansions is looked up once.
   */
  private resolveAlias(alias: Alias): YamlNode | undefined {
    if (!this.targets.has(alias)) this.targets.set(alias, alias.resolve(this.doc) as YamlNode | undefined);
    return this.targets.get(alias);
  }

  /** A mapping key as a string, or undefined when it cannot be one (under the rules, a non-string scalar can). */
  private keyOf(keyNode: YamlNode | null): string | undefined {
    if (!isScalar(keyNode)) return undefined;
    const value = keyNode.value;
    if (typeof value === "string") return value;
    if (!this.rules.scalarKeys) return undefined;
    // As js-yaml reads them: `200:` is "200", `true:` "true", `~:` "null".
    return value === null || typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" ? String(value) : undefined;
  }

  /**
   * A YAML 1.1 merge key: the entries of the mapping it names (or of each mapping it lists, earlier
   * ones first) that `out` does not have yet; a key written later in the mapping replaces them. What
   * it brings in counts as expanded aliases.
   */
  private merge(out: Record<string, unknown>, value: YamlNode | null, pointer: string, depth: number): void {
    const sources = isSeq(value) ? (value.items as Array<YamlNode | null>) : [value];
    for (const source of sources) {
      const resolved = isAlias(source) ? this.resolveAlias(source) : source;
      if (!isMap(resolved)) {
        this.aborted = true;
        this.diagnostics.push(diagnostic("yaml-syntax", "A merge key (<<) must name a mapping or list mappings.", this.file.spanLocation(spanOf(source) ?? spanOf(value) ?? { start: 0, end: 0 }, pointer)));
        return;
      }
      const entries = this.convert(source, pointer, !isAlias(source), depth);
      this.tree = undefined;
      if (this.aborted || entries === null || typeof entries !== "object") return;
      for (const [key, v] of Object.entries(entries)) {
        if (Object.prototype.hasOwnProperty.call(out, key)) continue;
        defineOwn(out, key, v);
      }
    }
  }

  private abort(node: YamlNode | null, pointer: string, why: string, code: "yaml-alias-limit" | "yaml-depth-limit" = "yaml-alias-limit"): void {
    if (this.aborted) return;
    this.aborted = true;
    const span = spanOf(node) ?? { start: 0, end: 0 };
    const where = this.file.spanLocation(span, pointer);
    this.diagnostics.push(code === "yaml-depth-limit" ? depthDiagnostic(where) : diagnostic(this.rules.aliasCode, `${why} Refused to expand the document.`, where));
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
