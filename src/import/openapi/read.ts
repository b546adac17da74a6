/**
 * Reading an OpenAPI document: every file read and parsed by files.ts under the import's limits,
 * the document's version and size checked, then bundled by @redocly/openapi-core from those parsed
 * documents (component references kept) and checked with its "minimal" structural rules. The
 * bundler never reads a file or the network itself: its resolver only hands out what files.ts read.
 */
import { dirname, resolve } from "node:path";
import type { SourceLocation } from "../../diagnostics/diagnostic.js";
import type { BaseResolver, Document, NormalizedProblem } from "@redocly/openapi-core";
import { MAX_OPERATIONS } from "../../contract/load.js";
import { deepRefChain, refLoop, locatedProblem, type LoadFailure, type OpenApiFile, OpenApiFiles, problemAt, type ReadProblem, refAt, refUri, remoteSpelling } from "./files.js";
import { ContractTextStash, hideContractText } from "./contract-text.js";
import { countOperations, operationLimitMessage } from "./map.js";
import { isObject, type JsonObject } from "./schema.js";

export type { ReadProblem } from "./files.js";

export interface ReadResult {
  readonly doc?: JsonObject;
  readonly version?: string;
  /** The document as read, to locate what the mapping refuses. */
  readonly root?: OpenApiFile;
  readonly problems: readonly ReadProblem[];
  /** Every file read (the document first), for --watch. */
  readonly files?: readonly string[];
}

/** Errors reported at most, so thousands of `$ref`s to one missing file do not flood the terminal. */
const MAX_PROBLEMS = 50;

export interface ReadOptions {
  /** Import only the operations with one of these tags. */
  readonly tags?: readonly string[];
  /** The document's bytes, when already read (a git revision, or a file read to see what it holds). */
  readonly bytes?: Buffer;
  /**
   * false: skip the check against the OpenAPI schema, whose findings are only warnings (for commands
   * that print none): a document in one file is then used as read, without the bundler.
   */
  readonly lint?: boolean;
  /** Rewrites the document's value before anything else looks at it (overlays); problems it reports stop the read if errors. */
  readonly transform?: (value: unknown) => { value: unknown; problems: readonly ReadProblem[]; relocate?: (pointer: string) => SourceLocation | undefined };
}

export async function readOpenApi(file: string, options: ReadOptions = {}): Promise<ReadResult> {
  const { tags } = options;
  const opened = OpenApiFiles.open(file, options.bytes);
  if (!(opened instanceof OpenApiFiles)) return { problems: opened.problems };
  const files = opened;
  const root = files.root;
  const transformed = options.transform?.(root.value);
  if (transformed && transformed.problems.some((p) => p.severity === "error")) return { problems: [...transformed.problems], root };
  const parsed = transformed ? transformed.value : root.value;
  const before = transformed ? transformed.problems : [];
  if (!isObject(parsed)) return { problems: [locatedProblem("openapi-invalid", root, "", `${file} is not an OpenAPI document (not a mapping).`)] };
  const version = parsed.openapi;
  if (typeof version !== "string" || !/^3\.[01]\./.test(version)) {
    const found = typeof version === "string" ? `openapi ${version}` : typeof parsed.swagger === "string" ? `swagger ${parsed.swagger}` : "no openapi field";
    return { problems: [locatedProblem("openapi-version-unsupported", root, isObject(parsed) && "openapi" in parsed ? "/openapi" : "", `${file}: ${found}; only OpenAPI 3.0.x and 3.1.x are imported.`)] };
  }
  // Everything a $ref names is read now, under the limits, so the $ref graph can be checked before
  // the bundler walks it (recursively) and the operations counted before anything is built.
  files.readAll();
  const deep = refLoop(files) ?? deepRefChain(files);
  if (deep) return { problems: [deep] };
  const counted = countOperations(parsed.paths, (raw) => (isObject(raw) && typeof raw.$ref === "string" ? files.resolveRef(root, raw.$ref)?.node : raw), tags);
  if (counted.operations > MAX_OPERATIONS) {
    return { problems: [locatedProblem("openapi-operation-limit", root, "/paths", operationLimitMessage(counted.operations, counted.tagSizes, tags !== undefined && tags.length > 0))] };
  }

  // A document in one file is used as read: the bundler would only walk all of it (a second or
  // more on GitHub's) to copy it, and it follows `$ref` keys even inside example data, which is content.
  const oneFile = !transformed && root.refs.every((r) => refUri(r.ref) === undefined);
  const problems: ReadProblem[] = [];
  let bundle: unknown = parsed;
  if (oneFile && options.lint === false) {
    // Without the checks below, the one that stops the import is made here: a $ref that names nothing.
    // (A plain-name anchor, #name, is not followed by the import either way.)
    const unresolved = root.refs.filter((r) => r.ref.startsWith("#/") && files.resolveRef(root, r.ref) === undefined);
    root.source.prepare?.(unresolved.map((r) => `${r.at}/$ref`));
    for (const r of unresolved) problems.push(locatedProblem("openapi-ref-unresolved", root, `${r.at}/$ref`, `$ref ${JSON.stringify(r.ref)} names nothing.`, inExtensionOrData(r.at) ? "warning" : "error"));
  } else {
    // Loaded only for documents that passed every check above: it is most of an import's start-up.
    const redocly = await import("@redocly/openapi-core");
    const stash = new ContractTextStash();
    const resolver = readFilesResolver(redocly, files, stash);
    // Only structural rules: "struct" (the OpenAPI schema) and unresolved references.
    const config = await redocly.createConfig({ rules: { struct: "error", "no-unresolved-refs": "error" } } as never);
    // x-contract is contract text: the bundler and the checks see stand-ins, never its $refs (#/types/…)
    // (only a file whose text says x-contract, or an overlay's result, can hold one: the others are not walked).
    let document: Document = { source: new redocly.Source(root.path, root.source.text), parsed: transformed || root.source.text.includes("x-contract") ? hideContractText(parsed, stash) : parsed };
    const found: NormalizedProblem[] = [];
    if (!oneFile) {
      let bundled;
      try {
        bundled = await redocly.bundle({ doc: document, config, externalRefResolver: resolver, dereference: false });
      } catch (e) {
        return { problems: [problemAt("openapi-invalid", file, `${file} cannot be read as OpenAPI: ${(e as Error).message.split("\n")[0]}`)] };
      }
      bundle = bundled.bundle.parsed as unknown;
      if (!isObject(bundle)) return { problems: [problemAt("openapi-invalid", file, `${file} is not an OpenAPI document (not a mapping).`)] };
      document = bundled.bundle;
      // The x-contract values go back after the checks below, which lint the bundle with its stand-ins.
      found.push(...bundled.problems);
    }
    // Structural problems do not stop the import (real documents often break the schema in places the
    // import ignores, such as x- extensions); they go into the review report. A $ref that cannot be
    // followed does stop it, unless it lies in an extension (dropped) or in example or default data.
    if (options.lint !== false || !oneFile) found.push(...(await redocly.lintDocument({ document, config, externalRefResolver: resolver })));
    if (!oneFile) stash.restore(bundle);
    // Located together: a JSON file finds every pointer in one pass over its text.
    const pointers = new Map<OpenApiFile, string[]>();
    for (const p of found) {
      const loc = p.location[0];
      const at = (loc && files.file(loc.source.absoluteRef)) ?? root;
      const pointer = loc?.pointer?.replace(/^#/, "") ?? "";
      pointers.set(at, [...(pointers.get(at) ?? []), pointer, `${pointer}/$ref`]);
    }
    for (const [at, list] of pointers) at.source.prepare?.(list);
    for (const p of found) problems.push(...toProblems(p, files, resolver));
  }
  // A problem in what an overlay wrote is shown in the overlay.
  if (transformed?.relocate) {
    for (const [i, p] of problems.entries()) {
      const moved = p.file === root.source.path ? transformed.relocate(p.pointer) : undefined;
      if (moved) problems[i] = { ...p, file: moved.file, line: moved.line, col: moved.col, pointer: moved.pointer };
    }
  }
  const seen = new Set<string>();
  const distinct = problems.filter((p) => {
    const k = `${p.code} ${p.file} ${p.pointer} ${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const errors = distinct.filter((p) => p.severity === "error");
  const kept = errors.length > MAX_PROBLEMS ? [...errors.slice(0, MAX_PROBLEMS), { ...errors[MAX_PROBLEMS]!, message: `${errors[MAX_PROBLEMS]!.message} (and ${errors.length - MAX_PROBLEMS - 1} more errors not shown)` }] : errors;
  if (!isObject(bundle)) return { problems: [problemAt("openapi-invalid", file, `${file} is not an OpenAPI document (not a mapping).`)] };
  return { doc: bundle, version, root, files: files.loaded().map((f) => f.source.path), problems: [...before, ...kept, ...distinct.filter((p) => p.severity !== "error")] };
}

type Redocly = typeof import("@redocly/openapi-core");

/** The bundler's resolver: hands out the files files.ts read, and refuses anything else, remembering why. */
interface ReadFilesResolver extends BaseResolver {
  /** Why a file was not handed out, by the file that asked and the $ref's file part ("<from>\n<uri>"). */
  readonly refusals: Map<string, LoadFailure>;
}

function readFilesResolver(redocly: Redocly, files: OpenApiFiles, stash: ContractTextStash): ReadFilesResolver {
  class Resolver extends redocly.BaseResolver implements ReadFilesResolver {
    readonly refusals = new Map<string, LoadFailure>();
    private readonly documents = new Map<string, Document>();

    // A URL in any spelling stays what it is, so it is never taken for a path (and never fetched).
    override resolveExternalRef(base: string | null, ref: string): string {
      if (remoteSpelling(ref) !== undefined) return ref;
      return resolve(base ? dirname(base) : process.cwd(), ref);
    }

    override async resolveDocument<T = unknown>(base: string | null, ref: string): Promise<Document<T>> {
      const from = base ?? files.root.path;
      const target = files.target(from, ref, files.file(from)?.idUris.get(ref));
      const loaded = "path" in target ? files.load(target.path) : target;
      if (!("source" in loaded)) {
        this.refusals.set(`${from}\n${ref}`, loaded);
        throw new redocly.ResolveError(new Error(loaded.message));
      }
      let doc = this.documents.get(loaded.path);
      if (!doc) this.documents.set(loaded.path, (doc = { source: new redocly.Source(loaded.path, loaded.source.text), parsed: loaded.source.text.includes("x-contract") ? hideContractText(loaded.value, stash) : loaded.value }));
      return doc as Document<T>;
    }
  }
  return new Resolver({ http: { headers: [] } } as never);
}

/** The value at a JSON pointer, if there is one. */
function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Keys whose entries are named by the document's author, so an `x-` name there is a name, not an extension. */
const NAMED_ENTRIES = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "headers", "schemas", "responses", "parameters", "examples", "requestBodies", "securitySchemes", "links", "callbacks", "pathItems", "paths", "webhooks", "content", "encoding", "variables", "mapping"]);

/**
 * Keywords whose content the import does not follow as references: data (an example, a default,
 * allowed values), where a `$ref` key is content, and `discriminator`, whose mapping values the
 * bundler resolves as references but the import drops.
 */
const DATA_KEYWORDS = new Set(["example", "default", "const", "enum", "discriminator"]);

/**
 * True when `pointer` lies inside an `x-` extension (which the import drops) or inside data: the
 * bundler follows a `$ref` key even in an example's value, but it is the example's content there.
 */
function inExtensionOrData(pointer: string): boolean {
  const segments = pointer.split("/").slice(1);
  return segments.some((s, i) => {
    const parent = segments[i - 1] ?? "";
    if (NAMED_ENTRIES.has(parent)) return false;
    if (s.startsWith("x-") || DATA_KEYWORDS.has(s)) return true;
    // A schema's examples list, or an Example Object's value (examples/<name>/value).
    return (s === "examples" && /^\d+$/.test(segments[i + 1] ?? "")) || (s === "value" && segments[i - 2] === "examples");
  });
}

/** One bundler problem as the import's problems, located in the file it concerns. */
function toProblems(p: NormalizedProblem, files: OpenApiFiles, resolver: ReadFilesResolver): ReadProblem[] {
  const loc = p.location[0];
  const pointer = loc?.pointer?.replace(/^#/, "") ?? "";
  const file = (loc && files.file(loc.source.absoluteRef)) ?? files.root;
  const message = p.message.split("\n")[0]!;
  if (p.ruleId !== "no-unresolved-refs") {
    const at = locatedProblem("openapi-invalid", file, pointer, message, "warning");
    return [at];
  }
  const severity = inExtensionOrData(pointer) ? "warning" : "error";
  // The $ref as written there, and the reason its file was refused, if that is why.
  const at = pointer.endsWith("/$ref") ? pointer.slice(0, -"/$ref".length) : pointer;
  // A `$ref` key, or a value the bundler resolves as one (a discriminator's mapping).
  const direct = valueAt(file.value, at);
  const written = refAt(file, at)?.ref ?? (typeof direct === "string" ? direct : undefined);
  const uri = written === undefined ? undefined : refUri(written);
  const failure = uri === undefined ? undefined : resolver.refusals.get(`${file.path}\n${uri}`);
  if (failure) {
    const located = locatedProblem(failure.code, file, `${at}/$ref`, `$ref ${JSON.stringify(written)}: ${failure.message}`, severity);
    return [located, ...(severity === "error" ? (failure.inside ?? []) : [])];
  }
  return [locatedProblem("openapi-ref-unresolved", file, `${at}/$ref`, written !== undefined ? `$ref ${JSON.stringify(written)} names nothing${uri === undefined ? "" : ` in ${JSON.stringify(uri)}`}.` : message, severity)];
}
