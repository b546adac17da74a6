/**
 * OpenAPI Overlay Specification 1.0.0 and 1.1.0, applied to a parsed OpenAPI document value.
 *
 * An overlay file is read with the same bounded reader as an OpenAPI file (OpenApiFiles.open: size
 * limit checked before reading, YAML or JSON, depth and entries limits, positions kept), checked by
 * hand, then its actions are applied in order, each to the result of the ones before. Targets are
 * RFC 9535 JSONPath queries evaluated by json-p3 in its strict mode (no non-standard syntax, only
 * the five RFC functions; it never evaluates code). The input value is never mutated: containers
 * along the paths an action changes are copied (copy-on-write), and every value written comes from
 * a bounded deep copy built with own-property writes (`put`), so a `__proto__` key of an overlay is
 * an ordinary key. An overlay with an error-level problem (unreadable, invalid, an action that
 * cannot be applied) is applied not at all: the document stays as the overlays before it left it.
 */
import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { JSONPathEnvironment, JSONPathError, type JSONPathQuery, type JSONValue } from "json-p3";
import type { SourceLocation } from "../../diagnostics/diagnostic.js";
import { MAX_YAML_DEPTH } from "../../contract/load.js";
import { escapeSegment, locatedProblem, OpenApiFiles, type OpenApiFile, type ReadProblem, refUri, remoteSpelling } from "./files.js";
import { put } from "./schema.js";

export interface AppliedOverlays {
  /** The document after every overlay, in order; the input is never mutated. */
  readonly value: unknown;
  /** Errors (an overlay unreadable or invalid: nothing applied) and warnings (an action whose target matched nothing), located in the overlay file. */
  readonly problems: ReadProblem[];
  /** The overlay files read (absolute paths), for --watch. */
  readonly files: readonly string[];
  /** Where the node at `pointer` of the overlaid document was written by an overlay (the update value's place in the overlay file, with the rest of the pointer appended), or undefined when it is the document's own. */
  origin(pointer: string): { overlay: number; file: string; pointer: string; locate(): SourceLocation } | undefined;
}

/** `1.0.x` and `1.1.x`: the versions of the Overlay Specification this engine implements. */
const VERSION = /^1\.([01])\.(0|[1-9]\d*)$/;

/** RFC 9535 only: json-p3's strict environment has no extension syntax and the five standard functions. */
const JSONPATH = new JSONPathEnvironment({ strict: true, nondeterministic: false });

interface Record_ {
  readonly overlay: number;
  readonly file: OpenApiFile;
  /** Pointer in the overlay file. */
  readonly pointer: string;
  /** Whether the rest of a document pointer below the record is appended to `pointer` (not for `copy`: the value came from the document). */
  readonly appendRest: boolean;
}

interface Action {
  readonly index: number;
  readonly target: JSONPathQuery;
  readonly remove: boolean;
  /** The update, its `$ref`s rewritten relative to the document's folder. */
  readonly update?: unknown;
  readonly copy?: JSONPathQuery;
}

/** Thrown inside an overlay's application: the overlay is dropped and this is reported. */
class OverlayFailure extends Error {
  constructor(readonly problem: ReadProblem) {
    super(problem.message);
  }
}

/** Values all overlays of one command may write into the document (the import reads 2,000,000 in all). */
export const MAX_OVERLAY_WRITES = 1_000_000;

type Segment = string | number;
type Container = Record<string, unknown> | unknown[];

/** Overlay problems `--strict` turns into errors. */
const STRICT_OVERLAY_CODES = new Set(["overlay-target-unmatched"]);

/** What `--overlay <file>` (repeatable) gives a command that reads an OpenAPI document. */
export interface OverlayRead {
  /** The read's transform (overlays applied in order), or undefined when no overlay was given. */
  readonly transform?: (value: unknown) => { value: unknown; problems: readonly ReadProblem[]; relocate: (pointer: string) => SourceLocation | undefined };
  /** The overlays as applied, once the read ran the transform. */
  applied(): AppliedOverlays | undefined;
}

/**
 * `--overlay` as every command applies it: in the order given, before the document is read; with
 * `strict` (`validate --strict`, `import-openapi --strict`) an action matching nothing is an error.
 */
export function overlayRead(documentPath: string, overlayPaths: readonly string[], strict: boolean): OverlayRead {
  let overlays: AppliedOverlays | undefined;
  if (overlayPaths.length === 0) return { applied: () => undefined };
  return {
    transform: (value: unknown) => {
      const applied = applyOverlays(value, overlayPaths, documentPath);
      overlays = applied;
      const problems = strict ? applied.problems.map((p) => (STRICT_OVERLAY_CODES.has(p.code) ? { ...p, severity: "error" as const } : p)) : applied.problems;
      return { value: applied.value, problems, relocate: (pointer: string) => applied.origin(pointer)?.locate() };
    },
    applied: () => overlays,
  };
}

export function applyOverlays(document: unknown, overlayPaths: readonly string[], documentPath: string): AppliedOverlays {
  const problems: ReadProblem[] = [];
  const files = overlayPaths.map((p) => resolve(p));
  let current = document;
  let origins = new Map<string, Record_>();
  // Values all overlays together may write: an action's matches times its update's size, so that a
  // wide target (`$..*`) with a large update cannot multiply the document past what the reader allows.
  const budget = { remaining: MAX_OVERLAY_WRITES };
  const documentDir = dirname(resolve(documentPath));

  overlayPaths.forEach((path, k) => {
    const opened = OpenApiFiles.open(path);
    if (!("root" in opened)) {
      problems.push(...opened.problems.map((p) => ({ ...p, message: p.message.includes(path) ? p.message : `Overlay ${path}: ${p.message}` })));
      return;
    }
    const file = opened.root;
    const checked = checkOverlay(file, documentDir);
    if (checked.problems.some((p) => p.severity === "error")) {
      problems.push(...checked.problems);
      return;
    }
    const run = new Run(current, new Map(origins), k, file, budget);
    try {
      for (const action of checked.actions) run.apply(action);
    } catch (e) {
      if (!(e instanceof OverlayFailure)) throw e;
      problems.push(...checked.problems, ...run.warnings, e.problem);
      return;
    }
    problems.push(...checked.problems, ...run.warnings);
    current = run.value;
    origins = run.origins;
  });

  const finalOrigins = origins;
  return {
    value: current,
    problems,
    files,
    origin(pointer: string) {
      for (let q = pointer; ; q = q.slice(0, Math.max(0, q.lastIndexOf("/")))) {
        const r = finalOrigins.get(q);
        if (r) {
          const at = r.appendRest ? r.pointer + pointer.slice(q.length) : r.pointer;
          return { overlay: r.overlay, file: r.file.path, pointer: at, locate: () => r.file.source.locate(at) };
        }
        if (q === "") return undefined;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Checking an overlay document

function checkOverlay(file: OpenApiFile, documentDir: string): { actions: Action[]; problems: ReadProblem[] } {
  const problems: ReadProblem[] = [];
  const invalid = (pointer: string, message: string): void => {
    problems.push(locatedProblem("overlay-invalid", file, pointer, message));
  };
  const doc = file.value;
  if (!isRecord(doc)) {
    invalid("", "An overlay is a mapping with `overlay`, `info` and `actions`.");
    return { actions: [], problems };
  }
  const version = own(doc, "overlay");
  let minor = 0;
  if (version === undefined) invalid("", "`overlay` (the Overlay Specification version, a string such as \"1.0.0\") is required.");
  else if (typeof version !== "string") invalid("/overlay", `\`overlay\` is the Overlay Specification version as a string ("1.0.0" or "1.1.0", quoted in YAML), not ${describe(version)}.`);
  else {
    const m = VERSION.exec(version);
    if (!m) invalid("/overlay", `Overlay version ${JSON.stringify(version)} is not supported; contractgen applies Overlay Specification 1.0.x and 1.1.x.`);
    else minor = Number(m[1]);
  }
  unknownFields(doc, "", ["overlay", "info", "extends", "actions"], invalid);
  const info = own(doc, "info");
  if (!isRecord(info)) invalid(info === undefined ? "" : "/info", "`info` (a mapping with `title` and `version`) is required.");
  else {
    for (const f of ["title", "version"]) {
      if (typeof own(info, f) !== "string") invalid(own(info, f) === undefined ? "/info" : `/info/${f}`, `\`info.${f}\` (a string) is required.`);
    }
    if (own(info, "description") !== undefined && (minor < 1 || typeof own(info, "description") !== "string")) invalid("/info/description", minor < 1 ? "`info.description` is an Overlay 1.1 field." : "`info.description` is a string.");
    unknownFields(info, "/info", ["title", "version", "description"], invalid);
  }
  // `extends` names the document the overlay was written for; it is never fetched.
  if (own(doc, "extends") !== undefined && typeof own(doc, "extends") !== "string") invalid("/extends", "`extends` is a URL (a string); it is never fetched.");
  const list = own(doc, "actions");
  const actions: Action[] = [];
  if (!Array.isArray(list) || list.length === 0) {
    invalid(list === undefined ? "" : "/actions", "`actions` (a list of at least one action) is required.");
    return { actions, problems };
  }
  const refs = refsByPlace(file);
  list.forEach((a, i) => {
    const at = `/actions/${i}`;
    if (!isRecord(a)) return invalid(at, "An action is a mapping with `target` and `update`, `remove` or `copy`.");
    unknownFields(a, at, minor >= 1 ? ["target", "description", "update", "remove", "copy"] : ["target", "description", "update", "remove"], invalid);
    if (own(a, "description") !== undefined && typeof own(a, "description") !== "string") invalid(`${at}/description`, "An action's `description` is a string.");
    const target = own(a, "target");
    const remove = own(a, "remove");
    const copy = own(a, "copy");
    const update = own(a, "update");
    if (remove !== undefined && typeof remove !== "boolean") invalid(`${at}/remove`, "`remove` is true or false.");
    if (copy !== undefined && typeof copy !== "string") invalid(`${at}/copy`, "`copy` is a JSONPath query (a string) selecting one node.");
    if (copy !== undefined && update !== undefined) invalid(`${at}/copy`, "An action has `copy` or `update`, not both.");
    if (remove !== true && update === undefined && copy === undefined) invalid(at, minor >= 1 ? "An action has `update`, `copy` or `remove: true`." : "An action has `update` or `remove: true`.");
    let query: JSONPathQuery | undefined;
    if (typeof target !== "string") invalid(target === undefined ? at : `${at}/target`, "`target` (an RFC 9535 JSONPath query, a string) is required.");
    else query = compile(file, `${at}/target`, target, problems);
    const copyQuery = typeof copy === "string" && remove !== true ? compile(file, `${at}/copy`, copy, problems) : undefined;
    // remove: true wins: the update "has no impact" (Overlay 1.0, Action Object).
    let rewritten: unknown;
    if (update !== undefined && remove !== true) {
      try {
        rewritten = rewriteRefs(update, `${at}/update`, refs, file, documentDir, problems);
      } catch (e) {
        if (!(e instanceof OverlayFailure)) throw e;
        problems.push(e.problem);
      }
    }
    if (query) actions.push({ index: i, target: query, remove: remove === true, ...(rewritten !== undefined ? { update: rewritten } : {}), ...(copyQuery ? { copy: copyQuery } : {}) });
  });
  return { actions, problems };
}

function unknownFields(o: Record<string, unknown>, at: string, known: readonly string[], invalid: (pointer: string, message: string) => void): void {
  for (const k of Object.keys(o)) {
    if (!known.includes(k) && !k.startsWith("x-")) invalid(`${at}/${escapeSegment(k)}`, `${JSON.stringify(k)} is not a field here (${known.map((f) => `\`${f}\``).join(", ")}, or an \`x-\` extension).`);
  }
}

function compile(file: OpenApiFile, pointer: string, path: string, problems: ReadProblem[]): JSONPathQuery | undefined {
  try {
    return JSONPATH.compile(path);
  } catch (e) {
    if (!(e instanceof JSONPathError)) throw e;
    problems.push(locatedProblem("overlay-jsonpath-invalid", file, pointer, `${JSON.stringify(path)} is not an RFC 9535 JSONPath query: ${e.message} (at character ${e.token.index + 1}).`));
    return undefined;
  }
}

/** The `$ref`s written in the overlay file, by the pointer of the node holding them. */
function refsByPlace(file: OpenApiFile): Map<string, string> {
  return new Map(file.refs.map((r) => [r.at, r.ref]));
}

/**
 * A copy of an update with every `$ref` to a file rewritten relative to the document's folder.
 * "An overlay reads no file outside its folder, like $ref": a file part leaving the overlay's folder,
 * or a URL, is refused (nothing is read or fetched here; the bundler reads the file later).
 */
function rewriteRefs(value: unknown, at: string, refs: ReadonlyMap<string, string>, file: OpenApiFile, documentDir: string, problems: ReadProblem[]): unknown {
  const overlayDir = dirname(file.path);
  let realOverlayDir = overlayDir;
  try {
    realOverlayDir = realpathSync(overlayDir);
  } catch {
    // the folder as written
  }
  const refused: ReadProblem[] = [];
  const copied = deepCopy(value, 0, file, at, (node, pointer) => {
    const ref = refs.get(pointer);
    if (ref === undefined || typeof own(node, "$ref") !== "string") return;
    const uri = refUri(ref);
    if (uri === undefined) return;
    const refuse = (why: string): void => {
      refused.push(locatedProblem("overlay-ref-outside-root", file, `${pointer}/$ref`, `$ref ${JSON.stringify(ref)} in an overlay: ${why}; it was not read.`));
    };
    const remote = remoteSpelling(uri);
    if (remote) return refuse(`${remote}; nothing is fetched`);
    if (uri.includes("\0")) return refuse("the file name has a NUL character");
    const target = resolve(overlayDir, uri);
    if (!isInside(target, overlayDir) && !isInside(target, realOverlayDir)) return refuse("the file is outside the overlay's folder");
    const fragment = ref.slice(ref.indexOf(uri) + uri.length);
    let rel = relative(documentDir, target).split(sep).join("/");
    if (!rel.startsWith(".")) rel = `./${rel}`;
    put(node, "$ref", rel + fragment);
  });
  // In the order of the file (the copy walks it depth first from the end).
  problems.push(...refused.sort((a, b) => a.line - b.line || a.col - b.col));
  return refused.length > 0 ? undefined : copied;
}

// ---------------------------------------------------------------------------------------------
// Applying one overlay

class Run {
  /** Containers created by this run, which it may change in place. */
  private readonly owned = new Set<object>();
  readonly warnings: ReadProblem[] = [];

  /** Pointers with (or once with) a recorded origin below them: only those need a scan when forgotten. */
  private readonly parents = new Set<string>();

  constructor(
    public value: unknown,
    readonly origins: Map<string, Record_>,
    private readonly overlay: number,
    private readonly file: OpenApiFile,
    private readonly budget: { remaining: number },
  ) {
    for (const key of origins.keys()) this.noteParents(key);
  }

  private noteParents(pointer: string): void {
    for (let i = pointer.lastIndexOf("/"); i > 0; i = pointer.lastIndexOf("/", i - 1)) {
      const parent = pointer.slice(0, i);
      if (this.parents.has(parent)) break;
      this.parents.add(parent);
    }
    this.parents.add("");
  }

  /** Charge `values` written to the budget shared by every overlay. */
  private spend(values: number, at: string): void {
    this.budget.remaining -= values;
    if (this.budget.remaining < 0) {
      throw new OverlayFailure(locatedProblem("overlay-update-invalid", this.file, at, `The overlays would write more than ${MAX_OVERLAY_WRITES.toLocaleString("en-US")} values into the document (matches times the size of each update); narrow the action's target.`));
    }
  }

  apply(action: Action): void {
    const at = `/actions/${action.index}`;
    const nodes = action.target.query(this.value as JSONValue).nodes;
    if (nodes.length === 0) {
      this.warnings.push(locatedProblem("overlay-target-unmatched", this.file, `${at}/target`, "The action's target selects nothing in the document; the action does nothing.", "warning"));
      return;
    }
    const locations = unique(nodes.map((n) => n.location));
    if (action.remove) {
      // Deepest and highest index first, so the places still to remove stay where they were.
      this.spend(locations.length, `${at}/target`);
      locations.sort(compareLocations).reverse();
      for (const loc of locations) this.remove(loc, at);
      return;
    }
    let update: unknown;
    let source: { pointer: string; appendRest: boolean };
    if (action.copy) {
      const found = action.copy.query(this.value as JSONValue).nodes;
      if (found.length !== 1) {
        throw new OverlayFailure(locatedProblem("overlay-copy-ambiguous", this.file, `${at}/copy`, `The action's copy selects ${found.length} nodes; it must select exactly one.`));
      }
      update = found[0]!.value;
      source = { pointer: `${at}/copy`, appendRest: false };
    } else {
      update = action.update;
      source = { pointer: `${at}/update`, appendRest: true };
    }
    this.spend(locations.length * countValues(update), `${at}/target`);
    for (const loc of locations) this.update(loc, update, at, source);
  }

  private remove(loc: Segment[], at: string): void {
    if (loc.length === 0) throw new OverlayFailure(locatedProblem("overlay-update-invalid", this.file, `${at}/target`, "The action removes the document itself ($); only a node inside it can be removed."));
    const parent = this.writable(loc.slice(0, -1));
    if (!parent) return; // already removed with an ancestor
    const key = loc[loc.length - 1]!;
    const pointer = toPointer(loc);
    if (Array.isArray(parent)) {
      if (typeof key !== "number" || key >= parent.length) return;
      parent.splice(key, 1);
      this.shiftOrigins(toPointer(loc.slice(0, -1)), key);
    } else {
      if (typeof key !== "string" || !Object.prototype.hasOwnProperty.call(parent, key)) return;
      delete parent[key];
      this.dropOrigins(pointer);
    }
  }

  private update(loc: Segment[], update: unknown, at: string, source: { pointer: string; appendRest: boolean }): void {
    const target = this.resolve(loc);
    const pointer = toPointer(loc);
    if (Array.isArray(target)) {
      // Overlay 1.0: "If the target is an array, the update value is appended to the array": the
      // value is ONE new element, even when it is itself an array (its elements are not spread).
      const array = this.writable(loc) as unknown[];
      const n = array.length;
      array.push(this.copy(update, loc.length + 1, source.pointer));
      this.record(`${pointer}/${n}`, source.pointer, source.appendRest);
      return;
    }
    if (isRecord(target)) {
      if (!isRecord(update)) {
        throw new OverlayFailure(locatedProblem("overlay-update-invalid", this.file, source.pointer, `The target ${pointer || "(the document)"} is an object, so the update must be an object (its keys are merged in); it is ${describe(update)}.`));
      }
      this.merge(loc, update, source.pointer, source.appendRest);
      return;
    }
    this.warnings.push(locatedProblem("overlay-target-not-container", this.file, `${at}/target`, `The target ${pointer} is ${describe(target)}, not an object or an array; the update was not applied there.`, "warning"));
  }

  /** Merge `update` into the object at `loc`: objects merge recursively, anything else replaces. */
  private merge(loc: Segment[], update: Record<string, unknown>, from: string, appendRest: boolean): void {
    // Explicit stack: the depth is bounded by the reader and by deepCopy's check, never by the call stack.
    const stack: Array<{ loc: Segment[]; update: Record<string, unknown>; from: string }> = [{ loc, update, from }];
    while (stack.length > 0) {
      const item = stack.pop()!;
      const object = this.writable(item.loc) as Record<string, unknown>;
      const base = toPointer(item.loc);
      for (const key of Object.keys(item.update)) {
        const value = item.update[key];
        const old = own(object, key);
        const keyFrom = appendRest ? `${item.from}/${escapeSegment(key)}` : item.from;
        if (isRecord(value) && isRecord(old)) {
          stack.push({ loc: [...item.loc, key], update: value, from: keyFrom });
          continue;
        }
        put(object, key, this.copy(value, item.loc.length + 1, keyFrom));
        this.record(`${base}/${escapeSegment(key)}`, keyFrom, appendRest);
      }
    }
  }

  private copy(value: unknown, depth: number, from: string): unknown {
    return deepCopy(value, depth, this.file, from);
  }

  /** The node at `loc`, or undefined when there is none. */
  private resolve(loc: Segment[]): unknown {
    let node: unknown = this.value;
    for (const seg of loc) {
      if (Array.isArray(node) && typeof seg === "number") node = node[seg];
      else if (isRecord(node) && typeof seg === "string" && Object.prototype.hasOwnProperty.call(node, seg)) node = node[seg];
      else return undefined;
    }
    return node;
  }

  /** The container at `loc`, copied (with every container above it) unless this run made it. */
  private writable(loc: Segment[]): Container | undefined {
    this.value = this.own(this.value);
    let node = this.value;
    for (const seg of loc) {
      const parent = node as Container;
      let child: unknown;
      if (Array.isArray(parent) && typeof seg === "number") child = parent[seg];
      else if (isRecord(parent) && typeof seg === "string" && Object.prototype.hasOwnProperty.call(parent, seg)) child = parent[seg];
      else return undefined;
      if (typeof child !== "object" || child === null) return undefined;
      const mine = this.own(child);
      if (mine !== child) {
        if (Array.isArray(parent)) parent[seg as number] = mine;
        else put(parent, seg as string, mine);
      }
      node = mine;
    }
    return typeof node === "object" && node !== null ? (node as Container) : undefined;
  }

  private own(node: unknown): unknown {
    if (typeof node !== "object" || node === null || this.owned.has(node)) return node;
    let copy: Container;
    if (Array.isArray(node)) copy = node.slice();
    else {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(node)) put(o, k, (node as Record<string, unknown>)[k]);
      copy = o;
    }
    this.owned.add(copy);
    return copy;
  }

  private record(pointer: string, from: string, appendRest: boolean): void {
    this.dropOrigins(pointer);
    this.origins.set(pointer, { overlay: this.overlay, file: this.file, pointer: from, appendRest });
    this.noteParents(pointer);
  }

  /** Forget what was recorded at `pointer` and under it. */
  private dropOrigins(pointer: string): void {
    this.origins.delete(pointer);
    if (!this.parents.has(pointer)) return; // nothing was ever recorded below it
    for (const key of [...this.origins.keys()]) {
      if (key === pointer || key.startsWith(`${pointer}/`)) this.origins.delete(key);
    }
  }

  /** Element `index` of the array at `array` was removed: forget its records, move the later ones down. */
  private shiftOrigins(array: string, index: number): void {
    const prefix = `${array}/`;
    const moved: Array<[string, Record_]> = [];
    for (const [key, r] of [...this.origins]) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      const head = slash < 0 ? rest : rest.slice(0, slash);
      if (!/^\d+$/.test(head)) continue;
      const n = Number(head);
      if (n < index) continue;
      this.origins.delete(key);
      if (n > index) moved.push([`${prefix}${n - 1}${slash < 0 ? "" : rest.slice(slash)}`, r]);
    }
    for (const [key, r] of moved) this.origins.set(key, r);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/**
 * A deep copy with own-property writes (a `__proto__` key stays a key), refusing to place a
 * container deeper than MAX_YAML_DEPTH in the document. `visit` sees every copied object with its
 * pointer in the overlay (when `from` is that pointer). Iterative.
 */
function deepCopy(value: unknown, depth: number, file: OpenApiFile, from: string, visit?: (copy: Record<string, unknown>, pointer: string) => void): unknown {
  if (typeof value !== "object" || value === null) return value;
  const tooDeep = (): OverlayFailure =>
    new OverlayFailure(locatedProblem("overlay-update-invalid", file, from, `The update would nest collections more than ${MAX_YAML_DEPTH} levels deep in the document; contractgen reads at most ${MAX_YAML_DEPTH}.`));
  const fresh = (v: object): Container => (Array.isArray(v) ? new Array<unknown>(v.length) : {});
  if (depth > MAX_YAML_DEPTH) throw tooDeep();
  const root = fresh(value);
  const stack: Array<{ src: object; dst: Container; depth: number; pointer: string }> = [{ src: value, dst: root, depth, pointer: from }];
  while (stack.length > 0) {
    const { src, dst, depth: d, pointer } = stack.pop()!;
    const keys = Array.isArray(src) ? src.map((_, i) => i) : Object.keys(src);
    for (const k of keys) {
      const v = (src as Record<string | number, unknown>)[k];
      let out: unknown = v;
      if (typeof v === "object" && v !== null) {
        if (d + 1 > MAX_YAML_DEPTH) throw tooDeep();
        out = fresh(v);
        stack.push({ src: v, dst: out as Container, depth: d + 1, pointer: `${pointer}/${escapeSegment(String(k))}` });
      }
      if (Array.isArray(dst)) dst[k as number] = out;
      else put(dst, k as string, out);
    }
    if (visit && !Array.isArray(dst)) visit(dst, pointer);
  }
  return root;
}

/** Values in a JSON value (1 for a scalar), counted without recursion. */
function countValues(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    n++;
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  return n;
}

function unique(locations: Segment[][]): Segment[][] {
  const seen = new Set<string>();
  return locations.filter((l) => {
    const key = toPointer(l);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Ancestors before descendants, array elements by index. */
function compareLocations(a: Segment[], b: Segment[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

function toPointer(loc: readonly Segment[]): string {
  return loc.map((s) => `/${escapeSegment(String(s))}`).join("");
}

function describe(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? "an object" : `a ${typeof v}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
