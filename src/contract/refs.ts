import { realpathSync } from "node:fs";
import { dirname, relative, resolve as resolvePath, sep } from "node:path";
import type { DiagnosticCode } from "../diagnostics/codes.js";
import { type Diagnostic, diagnostic } from "../diagnostics/diagnostic.js";
import { MAX_FILE_BYTES, MAX_REF_DEPTH, MAX_REF_FILES, MAX_TOTAL_BYTES, parseSource, readRegularFile } from "./load.js";
import { defineOwn, isSchemaObject, type SchemaObject, SUBSCHEMA_KIND, structuredCloneJson, visitSchemas } from "./schema-walk.js";
import { getAtPointer, hasPointer, joinPointer, SourceFile, splitPointer } from "./source.js";
import { schemaDepthProblem } from "./structure.js";

/** A resolved reference target. */
export interface RefTarget {
  readonly file: SourceFile;
  readonly pointer: string;
}

export interface WorkspaceOptions {
  /** Folders besides the contract's own whose files $ref may read (`--ref-root`). */
  readonly refRoots?: readonly string[];
}

/** Why a referenced file was not used, reported at the $ref that needs it. */
interface FileProblem {
  readonly code: DiagnosticCode;
  readonly message: string;
}

/**
 * The set of files one contract reads: the contract itself plus every file its $refs reach.
 * Files are loaded once; their load problems are reported once, at the first reference.
 * References are confined to regular files under the contract's folder and the extra roots, after
 * symlinks are resolved; a refused file is never opened for reading.
 */
export class Workspace {
  private readonly files = new Map<string, SourceFile | FileProblem>();
  private readonly byRealPath = new Map<string, SourceFile>();
  /** Folders as written (checked before touching the file system) and as resolved (after symlinks). */
  private readonly roots: string[];
  private readonly realRoots: string[];
  private referencedFiles = 0;
  /** One ref-depth-limit per contract is enough: the rest of a long chain says the same. */
  refDepthReported = false;
  private totalBytes: number;
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    readonly root: SourceFile,
    options: WorkspaceOptions = {},
  ) {
    const absolute = resolvePath(root.path);
    this.files.set(absolute, root);
    this.byRealPath.set(realOrSelf(absolute), root);
    this.totalBytes = Buffer.byteLength(root.text);
    const folders = [dirname(absolute), ...(options.refRoots ?? []).map((r) => resolvePath(r))];
    this.roots = folders;
    this.realRoots = folders.map(realOrSelf);
  }

  /** Paths of every file read, root first, in the order they were first referenced. */
  get paths(): string[] {
    return [...new Set([...this.files.values()].filter((f): f is SourceFile => f instanceof SourceFile))].map((f) => f.path);
  }

  private fileFor(from: SourceFile, relativePath: string): SourceFile | FileProblem {
    const absolute = resolvePath(dirname(resolvePath(from.path)), relativePath);
    const cached = this.files.get(absolute);
    if (cached) return cached;
    const result = this.load(absolute, relativePath);
    this.files.set(absolute, result);
    return result;
  }

  private load(absolute: string, written: string): SourceFile | FileProblem {
    const name = JSON.stringify(written);
    // Refused on the path as written first, so nothing is learnt about files outside (not even whether they exist).
    if (!this.roots.some((r) => isInside(absolute, r))) {
      return { code: "ref-outside-root", message: `file ${name} is outside the contract's folder${this.roots.length > 1 ? " and the --ref-root folders" : ""}; it was not read.` };
    }
    let real: string;
    try {
      real = realpathSync(absolute);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return { code: "ref-unresolved", message: `file ${name} does not exist.` };
      return { code: "ref-unresolved", message: `file ${name} cannot be read (${code ?? "unknown error"}).` };
    }
    if (!this.realRoots.some((r) => isInside(real, r))) {
      return { code: "ref-outside-root", message: `file ${name} is a symlink to a place outside the contract's folder${this.roots.length > 1 ? " and the --ref-root folders" : ""}; it was not read.` };
    }
    const known = this.byRealPath.get(real);
    if (known) return known;
    if (this.referencedFiles >= MAX_REF_FILES) {
      return { code: "ref-file-limit", message: `file ${name} would be file number ${this.referencedFiles + 1} reached through $ref; the limit is ${MAX_REF_FILES}.` };
    }
    const remaining = MAX_TOTAL_BYTES - this.totalBytes;
    const read = readRegularFile(real, Math.min(MAX_FILE_BYTES, remaining));
    if ("problem" in read) {
      switch (read.problem) {
        case "file-not-found":
          return { code: "ref-unresolved", message: `file ${name} does not exist.` };
        case "file-is-directory":
        case "file-not-regular":
          return { code: "ref-not-regular-file", message: `${name} is not a regular file; it was not read.` };
        case "file-too-large":
          return read.size !== undefined && read.size <= MAX_FILE_BYTES
            ? { code: "ref-bytes-limit", message: `file ${name} (${read.size} bytes) would bring the contract's files past ${MAX_TOTAL_BYTES} bytes in total; it was not read.` }
            : { code: "file-too-large", message: `file ${name} is larger than ${MAX_FILE_BYTES} bytes; it was not read.` };
        default:
          return { code: "ref-unresolved", message: `file ${name} cannot be read.` };
      }
    }
    this.referencedFiles++;
    this.totalBytes += read.size;
    const display = relative(process.cwd(), absolute) || absolute;
    const loaded = parseSource(display.startsWith("..") ? absolute : display, read.bytes);
    // Problems inside the referenced file are reported there; a file that cannot be used at all
    // (binary, empty) is reported at the $ref that needs it, not at a position in that file.
    this.diagnostics.push(...loaded.diagnostics.filter((d) => !d.code.startsWith("file-")));
    const usable = loaded.file && loaded.file.value !== undefined && loaded.diagnostics.every((d) => d.severity !== "error") ? loaded.file : undefined;
    if (!usable) return { code: "ref-unresolved", message: `file ${name} cannot be read as a valid YAML document.` };
    this.byRealPath.set(real, usable);
    return usable;
  }

  /**
   * Resolve the `$ref` found at `refPointer` (the pointer of the `$ref` value) in `from`.
   * Follows chains of bare `{ $ref }` nodes so the result is a real schema; reports unresolved,
   * malformed, circular and overlong chains of references.
   */
  resolve(from: SourceFile, ref: unknown, refPointer: string): RefTarget | Diagnostic {
    const seen = new Set<string>();
    let current: RefTarget | Diagnostic = this.resolveOnce(from, ref, refPointer);
    for (let hops = 1; ; hops++) {
      if ("code" in current) return current;
      const key = `${absolutePathOf(current.file)}#${current.pointer}`;
      if (seen.has(key)) {
        return diagnostic("ref-cycle", `$ref ${JSON.stringify(ref)} leads back to ${current.pointer || "#"} without reaching a schema.`, from.locate(refPointer));
      }
      seen.add(key);
      const target = getAtPointer(current.file.value, current.pointer);
      if (!(isSchemaObject(target) && typeof target.$ref === "string" && Object.keys(target).length === 1)) return current;
      if (hops >= MAX_REF_DEPTH) {
        return diagnostic("ref-depth-limit", `$ref ${JSON.stringify(ref)} passes through more than ${MAX_REF_DEPTH} bare $refs before reaching a schema.`, from.locate(refPointer));
      }
      current = this.resolveOnce(current.file, target.$ref, joinPointer(current.pointer, "$ref"));
      if ("code" in current) return current;
    }
  }

  private resolveOnce(from: SourceFile, ref: unknown, refPointer: string): RefTarget | Diagnostic {
    // Located only for a diagnostic: most references resolve, and locating costs a walk of the spans.
    const where = () => from.locate(refPointer);
    if (typeof ref !== "string") return diagnostic("ref-invalid", "$ref must be a string.", where());
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
      return diagnostic("ref-invalid", `$ref ${JSON.stringify(ref)} is a URL; remote references are not fetched.`, where());
    }
    const hash = ref.indexOf("#");
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? "" : decodeFragment(ref.slice(hash + 1));
    if (fragment === null || (fragment !== "" && !fragment.startsWith("/"))) {
      return diagnostic("ref-invalid", `$ref ${JSON.stringify(ref)} has a fragment that is not a JSON pointer.`, where(), "Write the fragment as a JSON pointer, e.g. '#/types/Name'.");
    }
    let file = from;
    if (filePart !== "") {
      const loaded = this.fileFor(from, filePart);
      if (!(loaded instanceof SourceFile)) return diagnostic(loaded.code, `$ref ${JSON.stringify(ref)}: ${loaded.message}`, where());
      file = loaded;
    }
    if (!hasPointer(file.value, fragment)) {
      const missing = firstMissingSegment(file.value, fragment);
      if (filePart === "" && missing === "components") {
        // An OpenAPI habit: in a contract (and in an OpenAPI document's x-contract, which is contract text) shared schemas are types.
        return diagnostic(
          "ref-unresolved",
          `$ref ${JSON.stringify(ref)} does not resolve: a contract has no "components" and names a shared schema "#/types/<Name>" (in an OpenAPI document's x-contract, "#/components/schemas/<Name>" names the type imported from a schema the document declares; there is none at ${fragment}).`,
          where(),
          "Name a type of the contract ('#/types/Name'), or in x-contract a schema the document declares under components/schemas.",
        );
      }
      return diagnostic(
        "ref-unresolved",
        `$ref ${JSON.stringify(ref)} does not resolve: ${filePart ? `${filePart} has` : "the document has"} no ${JSON.stringify(missing)} at ${fragment}.`,
        where(),
      );
    }
    return { file, pointer: fragment };
  }
}

/** True when `path` is `folder` or below it (both absolute and normalised). */
function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function decodeFragment(fragment: string): string | null {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return null;
  }
}

function firstMissingSegment(root: unknown, pointer: string): string {
  const segments = splitPointer(pointer);
  let node = root;
  for (const s of segments) {
    const next = getAtPointer(node, joinPointer("", s));
    if (next === undefined) return s;
    node = next;
  }
  return segments[segments.length - 1] ?? "";
}

const absolutePaths = new WeakMap<SourceFile, string>();

/** resolvePath(file.path), once per file: the $ref walks key every schema they reach by it. */
function absolutePathOf(file: SourceFile): string {
  let path = absolutePaths.get(file);
  if (path === undefined) absolutePaths.set(file, (path = resolvePath(file.path)));
  return path;
}

/** What checkRefs knows of each schema it reached: null while on the current path, else its height. */
export type RefWalk = Map<string, number | null>;

interface RefEdge {
  readonly target: RefTarget;
  readonly file: SourceFile;
  readonly refPointer: string;
}

interface RefFrame {
  readonly key: string;
  readonly edges: RefEdge[];
  next: number;
  /** The longest run of $refs found below this schema so far. */
  height: number;
}

/**
 * Check every $ref in the schema at (file, pointer); report problems into `out`. References are
 * followed depth first with an explicit stack (never the call stack), and `onExternalSchema` is
 * told of each schema reached in another file (so it can be checked where it is written). A run of
 * more than MAX_REF_DEPTH schemas each referencing the next is reported once, at the $ref that
 * goes too deep; recursion (a $ref back to a schema on the current path) is allowed. `walk` is
 * shared across calls so every schema is walked once.
 */
export function checkRefs(
  ws: Workspace,
  file: SourceFile,
  pointer: string,
  out: Diagnostic[],
  onExternalSchema: (file: SourceFile, pointer: string) => void = () => {},
  walk: RefWalk = new Map(),
): void {
  const keyOf = (f: SourceFile, p: string) => `${absolutePathOf(f)}#${p}`;
  if (walk.has(keyOf(file, pointer))) return;
  const open = (f: SourceFile, p: string): RefFrame => {
    const key = keyOf(f, p);
    walk.set(key, null);
    const edges: RefEdge[] = [];
    // Any node can be a $ref target, not only the contract's declared schemas: bound each one.
    const deep = schemaDepthProblem(f, p);
    if (deep) {
      out.push(deep);
      return { key, edges, next: 0, height: 0 };
    }
    // Pointers are built only for the nodes with a $ref.
    visitSchemas(getAtPointer(f.value, p), p, (node, at) => {
      if (!("$ref" in node)) return;
      const refPointer = joinPointer(at(), "$ref");
      const target = ws.resolve(f, node.$ref, refPointer);
      if ("code" in target) out.push(target);
      else edges.push({ target, file: f, refPointer });
    });
    return { key, edges, next: 0, height: 0 };
  };
  const tooDeep = (edge: RefEdge) => {
    if (ws.refDepthReported) return;
    ws.refDepthReported = true;
    out.push(diagnostic("ref-depth-limit", `This $ref leads through more than ${MAX_REF_DEPTH} schemas, each referencing the next.`, edge.file.locate(edge.refPointer)));
  };
  const stack: RefFrame[] = [open(file, pointer)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const edge = frame.edges[frame.next++];
    if (edge === undefined) {
      stack.pop();
      walk.set(frame.key, frame.height);
      const parent = stack[stack.length - 1];
      if (parent) parent.height = Math.max(parent.height, frame.height + 1);
      continue;
    }
    const { target } = edge;
    const known = walk.get(keyOf(target.file, target.pointer));
    if (known === null) continue; // recursion through a real schema
    if (known !== undefined) {
      // `stack.length` $refs lead here from the first schema, `known` more below the target.
      if (stack.length + known > MAX_REF_DEPTH) tooDeep(edge);
      else frame.height = Math.max(frame.height, known + 1);
      continue;
    }
    if (stack.length >= MAX_REF_DEPTH) {
      tooDeep(edge);
      continue;
    }
    // Schemas of the contract itself are checked as the contract's own; others where they are written.
    if (target.file !== edge.file || edge.file !== ws.root) onExternalSchema(target.file, target.pointer);
    stack.push(open(target.file, target.pointer));
  }
}

/**
 * Produce a self-contained copy of the schema at (file, pointer): every reachable $ref target is
 * copied into `$defs` (named after its `/types/<Name>` when it has one) and the reference rewritten
 * to `#/$defs/<Name>`. Recursive types stay recursive through `$defs`. Unresolvable references are
 * left as written (validation has reported them).
 */
export function bundleSchema(ws: Workspace, file: SourceFile, pointer: string): unknown {
  return new SchemaBundler(ws).bundle(file, pointer);
}

/** A copy of the schema at one target, with the targets its $refs named (in naming order) and the names they got. */
interface TargetCopy {
  readonly copy: unknown;
  readonly refs: readonly RefTarget[];
  readonly names: readonly string[];
}

/**
 * Bundles many schemas of one workspace (bundleSchema, for each). A target reached from many
 * schemas (a shared type) is copied once and the copy shared by every bundle that names its
 * references alike; a contract's model reaches the same types from hundreds of operations.
 * `keep` drops keywords at every schema node while copying (the copy is as if filtered after
 * bundling: references below a dropped keyword still join `$defs`).
 */
export class SchemaBundler {
  private readonly copies = new Map<string, TargetCopy>();
  private readonly targets = new Map<SourceFile, Map<string, RefTarget | null>>();
  private readonly absolute = new Map<SourceFile, string>();

  constructor(
    private readonly ws: Workspace,
    private readonly keep: (keyword: string) => boolean = () => true,
  ) {}

  bundle(file: SourceFile, pointer: string): unknown {
    const names = new Map<string, string>();
    const used = new Set<string>();
    const defs = new Map<string, unknown>();
    const queue: Array<{ name: string; target: RefTarget }> = [];

    const nameFor = (target: RefTarget): string => {
      const key = this.keyOf(target);
      const existing = names.get(key);
      if (existing) return existing;
      const segments = splitPointer(target.pointer);
      const stem =
        segments.length === 2 && segments[0] === "types"
          ? segments[1]!
          : segments.map((s) => s.replace(/[^A-Za-z0-9_]/g, "_")).join("_") || "Root";
      let name = stem;
      for (let i = 2; used.has(name); i++) name = `${stem}_${i}`;
      used.add(name);
      names.set(key, name);
      queue.push({ name, target });
      return name;
    };

    const root = this.copyOf({ file, pointer }, nameFor);
    while (queue.length > 0) {
      const { name, target } = queue.shift()!;
      defs.set(name, this.copyOf(target, nameFor));
    }
    if (defs.size === 0 || !isSchemaObject(root)) return root;
    const sortedDefs: SchemaObject = {};
    for (const name of [...defs.keys()].sort()) defineOwn(sortedDefs, name, defs.get(name));
    const existing = isSchemaObject(root.$defs) ? root.$defs : {};
    const merged: SchemaObject = { ...existing };
    for (const [k, v] of Object.entries(sortedDefs)) defineOwn(merged, k, v);
    const out: SchemaObject = {};
    for (const [k, v] of Object.entries(root)) if (k !== "$defs") defineOwn(out, k, v);
    defineOwn(out, "$defs", merged);
    return out;
  }

  private keyOf(target: RefTarget): string {
    let path = this.absolute.get(target.file);
    if (path === undefined) this.absolute.set(target.file, (path = resolvePath(target.file.path)));
    return `${path}#${target.pointer}`;
  }

  /**
   * The copy of a target with its references renamed by `nameFor`. A cached copy is reused when
   * naming its references again (in the same order, so later names come out the same) gives the
   * names it was made with; only colliding stems can make them differ.
   */
  private copyOf(target: RefTarget, nameFor: (target: RefTarget) => string): unknown {
    const key = this.keyOf(target);
    const cached = this.copies.get(key);
    if (cached && cached.refs.every((t, i) => nameFor(t) === cached.names[i])) return cached.copy;
    const refs: RefTarget[] = [];
    const names: string[] = [];
    const copy = this.copy(target.file, getAtPointer(target.file.value, target.pointer), (t) => {
      const name = nameFor(t);
      refs.push(t);
      names.push(name);
      return name;
    });
    if (!cached) this.copies.set(key, { copy, refs, names });
    return copy;
  }

  /** Where a $ref leads, or null when it does not resolve (validation reported it). Cached: a file repeats the same few refs. */
  private target(from: SourceFile, ref: string): RefTarget | null {
    let byRef = this.targets.get(from);
    if (!byRef) this.targets.set(from, (byRef = new Map()));
    let target = byRef.get(ref);
    if (target === undefined) {
      // The pointer only places a diagnostic, which is dropped here.
      const resolved = this.ws.resolve(from, ref, "");
      byRef.set(ref, (target = "code" in resolved ? null : resolved));
    }
    return target;
  }

  /** Copy of a schema, children first (as mapSchema), each $ref rewritten to its `$defs` name. Recursive within the validated depth. */
  private copy(file: SourceFile, node: unknown, nameFor: (target: RefTarget) => string): unknown {
    if (!isSchemaObject(node)) return structuredCloneJson(node);
    const out: SchemaObject = {};
    for (const [key, value] of Object.entries(node)) {
      const kind = SUBSCHEMA_KIND.get(key);
      let next: unknown;
      if (kind === "single") next = this.copy(file, value, nameFor);
      else if (kind === "list" && Array.isArray(value)) next = value.map((s) => this.copy(file, s, nameFor));
      else if (kind === "map" && isSchemaObject(value)) {
        const m: SchemaObject = {};
        for (const [name, s] of Object.entries(value)) defineOwn(m, name, this.copy(file, s, nameFor));
        next = m;
      } else if (this.keep(key)) next = structuredCloneJson(value);
      else continue;
      if (this.keep(key)) defineOwn(out, key, next);
    }
    if (typeof node.$ref === "string") {
      const target = this.target(file, node.$ref);
      if (target) {
        const name = nameFor(target);
        if (this.keep("$ref")) out.$ref = `#/$defs/${name}`;
      }
    }
    return out;
  }
}
