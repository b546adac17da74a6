import { dirname, relative, resolve as resolvePath } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics/diagnostic.js";
import { loadSourceFile } from "./load.js";
import { defineOwn, isSchemaObject, mapSchema, type SchemaObject, walkSchema } from "./schema-walk.js";
import { getAtPointer, hasPointer, joinPointer, type SourceFile, splitPointer } from "./source.js";

/** A resolved reference target. */
export interface RefTarget {
  readonly file: SourceFile;
  readonly pointer: string;
}

/**
 * The set of files one contract reads: the contract itself plus every file its $refs reach.
 * Files are loaded once; their load problems are reported once, at the first reference.
 */
export class Workspace {
  private readonly files = new Map<string, SourceFile | null>();
  readonly diagnostics: Diagnostic[] = [];

  constructor(readonly root: SourceFile) {
    this.files.set(resolvePath(root.path), root);
  }

  /** Paths of every file read, root first, in the order they were first referenced. */
  get paths(): string[] {
    return [...this.files.entries()].filter(([, f]) => f !== null).map(([, f]) => f!.path);
  }

  private fileFor(from: SourceFile, relativePath: string): SourceFile | null {
    const absolute = resolvePath(dirname(resolvePath(from.path)), relativePath);
    if (this.files.has(absolute)) return this.files.get(absolute)!;
    const display = relative(process.cwd(), absolute) || absolute;
    const loaded = loadSourceFile(display.startsWith("..") ? absolute : display);
    // Problems inside the referenced file are reported there; a file that cannot be read at all is
    // reported once, at the $ref that needs it (ref-unresolved), not at a position in a missing file.
    this.diagnostics.push(...loaded.diagnostics.filter((d) => !d.code.startsWith("file-")));
    const usable = loaded.file && loaded.file.value !== undefined && loaded.diagnostics.every((d) => d.severity !== "error") ? loaded.file : null;
    this.files.set(absolute, usable);
    return usable;
  }

  /**
   * Resolve the `$ref` found at `refPointer` (the pointer of the `$ref` value) in `from`.
   * Follows chains of bare `{ $ref }` nodes so the result is a real schema; reports unresolved,
   * malformed and circular references.
   */
  resolve(from: SourceFile, ref: unknown, refPointer: string): RefTarget | Diagnostic {
    const seen = new Set<string>();
    let current: RefTarget | Diagnostic = this.resolveOnce(from, ref, refPointer);
    for (;;) {
      if ("code" in current) return current;
      const key = `${resolvePath(current.file.path)}#${current.pointer}`;
      if (seen.has(key)) {
        return diagnostic("ref-cycle", `$ref ${JSON.stringify(ref)} leads back to ${current.pointer || "#"} without reaching a schema.`, from.locate(refPointer));
      }
      seen.add(key);
      const target = getAtPointer(current.file.value, current.pointer);
      if (!(isSchemaObject(target) && typeof target.$ref === "string" && Object.keys(target).length === 1)) return current;
      current = this.resolveOnce(current.file, target.$ref, joinPointer(current.pointer, "$ref"));
      if ("code" in current) return current;
    }
  }

  private resolveOnce(from: SourceFile, ref: unknown, refPointer: string): RefTarget | Diagnostic {
    const where = from.locate(refPointer);
    if (typeof ref !== "string") return diagnostic("ref-invalid", "$ref must be a string.", where);
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) {
      return diagnostic("ref-invalid", `$ref ${JSON.stringify(ref)} is a URL; remote references are not fetched.`, where);
    }
    const hash = ref.indexOf("#");
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? "" : decodeFragment(ref.slice(hash + 1));
    if (fragment === null || (fragment !== "" && !fragment.startsWith("/"))) {
      return diagnostic("ref-invalid", `$ref ${JSON.stringify(ref)} has a fragment that is not a JSON pointer.`, where, "Write the fragment as a JSON pointer, e.g. '#/types/Name'.");
    }
    let file = from;
    if (filePart !== "") {
      const loaded = this.fileFor(from, filePart);
      if (!loaded) return diagnostic("ref-unresolved", `$ref ${JSON.stringify(ref)}: file ${JSON.stringify(filePart)} cannot be read as a valid YAML document.`, where);
      file = loaded;
    }
    if (!hasPointer(file.value, fragment)) {
      const missing = firstMissingSegment(file.value, fragment);
      return diagnostic(
        "ref-unresolved",
        `$ref ${JSON.stringify(ref)} does not resolve: ${filePart ? `${filePart} has` : "the document has"} no ${JSON.stringify(missing)} at ${fragment}.`,
        where,
      );
    }
    return { file, pointer: fragment };
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

/**
 * Check every $ref in the schema at (file, pointer); report problems into `out`. References that
 * leave the file are followed, and `onExternalSchema` is told of each schema reached in another file
 * (so it can be checked where it is written).
 */
export function checkRefs(
  ws: Workspace,
  file: SourceFile,
  pointer: string,
  out: Diagnostic[],
  onExternalSchema: (file: SourceFile, pointer: string) => void = () => {},
  visited = new Set<string>(),
): void {
  const key = `${resolvePath(file.path)}#${pointer}`;
  if (visited.has(key)) return;
  visited.add(key);
  walkSchema(getAtPointer(file.value, pointer), pointer, (node, at) => {
    if (!("$ref" in node)) return;
    const target = ws.resolve(file, node.$ref, joinPointer(at, "$ref"));
    if ("code" in target) out.push(target);
    else if (target.file !== file) {
      const targetKey = `${resolvePath(target.file.path)}#${target.pointer}`;
      if (!visited.has(targetKey)) onExternalSchema(target.file, target.pointer);
      checkRefs(ws, target.file, target.pointer, out, onExternalSchema, visited);
    } else if (file !== ws.root) {
      // Inside a referenced file, local references lead to further schemas of that file.
      const targetKey = `${resolvePath(target.file.path)}#${target.pointer}`;
      if (!visited.has(targetKey)) onExternalSchema(target.file, target.pointer);
      checkRefs(ws, target.file, target.pointer, out, onExternalSchema, visited);
    }
  });
}

/**
 * Produce a self-contained copy of the schema at (file, pointer): every reachable $ref target is
 * copied into `$defs` (named after its `/types/<Name>` when it has one) and the reference rewritten
 * to `#/$defs/<Name>`. Recursive types stay recursive through `$defs`. Unresolvable references are
 * left as written (validation has reported them).
 */
export function bundleSchema(ws: Workspace, file: SourceFile, pointer: string): unknown {
  const names = new Map<string, string>();
  const used = new Set<string>();
  const defs = new Map<string, unknown>();
  const queue: Array<{ name: string; target: RefTarget }> = [];

  const nameFor = (target: RefTarget): string => {
    const key = `${resolvePath(target.file.path)}#${target.pointer}`;
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

  const rewriteIn = (from: SourceFile, at: string) => (value: unknown) =>
    mapSchema(value, at, (node, origin) => {
      if (typeof node.$ref !== "string") return node;
      const target = ws.resolve(from, node.$ref, joinPointer(origin, "$ref"));
      if ("code" in target) return node;
      const out: SchemaObject = {};
      for (const [k, v] of Object.entries(node)) defineOwn(out, k, k === "$ref" ? `#/$defs/${nameFor(target)}` : v);
      return out;
    });

  const root = rewriteIn(file, pointer)(getAtPointer(file.value, pointer));
  while (queue.length > 0) {
    const { name, target } = queue.shift()!;
    defs.set(name, rewriteIn(target.file, target.pointer)(getAtPointer(target.file.value, target.pointer)));
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
