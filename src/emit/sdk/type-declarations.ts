import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { compile, DEFAULT_OPTIONS, type Options } from "json-schema-to-typescript";
// The generator's own stages, for chunks compile() would deep-copy and resolve for nothing (compileChunk).
import { generate } from "json-schema-to-typescript/dist/src/generator.js";
import { link } from "json-schema-to-typescript/dist/src/linker.js";
import { normalize, normalizeNullableRefs } from "json-schema-to-typescript/dist/src/normalizer.js";
import { optimize } from "json-schema-to-typescript/dist/src/optimizer.js";
import { nameAnonymousRecursiveTypes, parse } from "json-schema-to-typescript/dist/src/parser.js";
import type { DereferencedPaths } from "json-schema-to-typescript/dist/src/resolver.js";
import type { JSONSchema } from "json-schema-to-typescript/dist/src/types/JSONSchema.js";
import { validate } from "json-schema-to-typescript/dist/src/validator.js";
import { OBJECT_MEMBERS, TYPES_ROOT } from "../../model/naming.js";
import { defineOwn, type SchemaObject } from "../../contract/schema-walk.js";

/**
 * json-schema-to-typescript walks every object of a schema calling its methods (`hasOwnProperty`),
 * and "__proto__" cannot be walked at all: a key named like an Object.prototype member travels under
 * an alias and is restored in the output.
 */
export const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set([...OBJECT_MEMBERS].filter((m) => m !== "then"));
export const memberAlias = (name: string) => `__contractgen_member_${name.replace(/_/g, "")}__`;
const MEMBER_ALIASES: ReadonlyMap<string, string> = new Map([...PROTOTYPE_MEMBERS].map((m) => [memberAlias(m), m]));

/** Declarations handed to json-schema-to-typescript per call: its cost per call is small, per schema it is not. */
const CHUNK = 100;

/** Below this many declarations a worker's start-up (loading the generator) costs more than it saves. */
const PARALLEL_FROM = 600;

export type Declaration = readonly [identifier: string, schema: unknown];

/** Takes declarations as they are prepared; `finish` resolves to the generator's source for all of them, in order. */
export interface DeclarationCompiler {
  add(identifier: string, schema: unknown): void;
  finish(): Promise<string>;
}

/**
 * The generator's unformatted TypeScript for each declaration (identifier → prepared schema whose
 * references are already names, `tsType`), in the order added. No declaration needs another's
 * schema, so they are cut into chunks. On a large contract (`expected` declarations or more than
 * PARALLEL_FROM) the chunks compile in worker threads — the generator takes most of a GitHub-size
 * generate — started early (startTypeWorkersEarly) or else at once, so they load before the
 * declarations are ready and compile while the other artefacts are emitted; the calling thread
 * joins in once it is done with those. The parts are joined in order: the output is the same
 * however it ran.
 */
export function declarationCompiler(expected: number): DeclarationCompiler {
  const started = takeStartedWorkers();
  const parallel = WORKERS >= 1 && expected >= PARALLEL_FROM && WORKER_SCRIPT !== undefined;
  if (!parallel) for (const w of started?.workers ?? []) void w.terminate();
  const sink = parallel ? workerPool(started ?? startWorkers()) : inThread();
  let chunk: Declaration[] = [];
  let count = 0;
  return {
    add(identifier, schema) {
      chunk.push([identifier, schema]);
      if (chunk.length === CHUNK) {
        sink.send(count++, JSON.stringify(chunk));
        chunk = [];
      }
    },
    finish() {
      if (chunk.length > 0) sink.send(count++, JSON.stringify(chunk));
      chunk = [];
      return sink.finish(count).then((parts) => parts.join("\n"));
    },
  };
}

export const GENERATOR_OPTIONS: Partial<Options> = {
  bannerComment: "",
  unreachableDefinitions: true,
  additionalProperties: false,
  // Prettier (inside the generator) recurses on nesting depth — a deep but valid schema
  // overflowed the stack — and took most of the emit time; types.ts lays the output out instead.
  format: false,
  strictIndexSignatures: true,
  declareExternallyReferenced: true,
  $refOptions: { resolve: { external: false } } as never,
};

/** GENERATOR_OPTIONS over the generator's defaults, as compile() merges them on every call. */
const RESOLVED_OPTIONS: Options = { ...DEFAULT_OPTIONS, ...GENERATOR_OPTIONS, cwd: DEFAULT_OPTIONS.cwd.endsWith("/") ? DEFAULT_OPTIONS.cwd : `${DEFAULT_OPTIONS.cwd}/` };

/**
 * One json-schema-to-typescript run over a chunk of declarations (as JSON), trailing blank lines
 * trimmed. The chunk's references are already type names (`tsType`), so when it holds no `$ref`
 * this runs the generator's stages after resolution directly: compile() would deep-copy the chunk
 * (parsed fresh from JSON here, owned by nobody else) and walk it for references there are none of,
 * a fifth of the generator's time on GitHub. The output is the same (test/emit/type-generator-stages.test.ts).
 */
export async function compileChunk(json: string): Promise<string> {
  const root = chunkRoot(JSON.parse(json) as Declaration[]);
  const source = json.includes('"$ref"') ? await compile(root as never, TYPES_ROOT, GENERATOR_OPTIONS) : generateResolved(root);
  return tidyDeclarations(source.trimEnd());
}

/** The chunk as one schema: its declarations under `$defs` of an empty root the output then drops. */
export function chunkRoot(entries: readonly Declaration[]): SchemaObject {
  const $defs: SchemaObject = {};
  for (const [key, def] of entries) defineOwn($defs, key, def);
  return { title: TYPES_ROOT, type: "object", additionalProperties: false, properties: {}, $defs };
}

/** compile()'s stages from linking on, for a schema without references that may be changed in place. */
export function generateResolved(schema: SchemaObject): string {
  const options = RESOLVED_OPTIONS;
  normalizeNullableRefs(schema as JSONSchema);
  const linked = link(schema as JSONSchema);
  const errors = validate(linked, TYPES_ROOT);
  if (errors.length > 0) throw new Error(errors.join("; "));
  const noReferences: DereferencedPaths = new WeakMap();
  const normalized = normalize(linked, noReferences, TYPES_ROOT, options);
  const processed = new Map();
  const usedNames = new Set<string>();
  const parsed = parse(normalized, options, undefined, processed, usedNames);
  nameAnonymousRecursiveTypes(parsed, processed, noReferences, usedNames);
  return generate(optimize(parsed, options), options);
}

/**
 * The generator's output for one chunk as it goes into sdk/types.ts: laid out, without the root
 * placeholder and the generator's boilerplate comments, member aliases restored. Done per chunk,
 * where it was compiled (a worker, on a large contract), not over the whole file at the end.
 */
function tidyDeclarations(source: string): string {
  return indentDeclarations(source)
    .replace(new RegExp(`export interface ${TYPES_ROOT} \\{\\s*\\}\\n`, "g"), "")
    .replace(/\n \* *\n \*\//g, "\n */")
    .replace(/(\n \*)?\n \* This (interface|type) was referenced by `[^`]*`'s JSON-Schema\n \* via the `definition` "[^"]*"\./g, "")
    .replace(/\/\*\*\n \*\/\n/g, "")
    .replace(/__contractgen_member_[A-Za-z]+__/g, (alias) => MEMBER_ALIASES.get(alias) ?? alias);
}

/**
 * Indent the generator's unformatted output two spaces per open bracket, line by line (no recursion,
 * so nesting depth costs nothing). Brackets inside string literals and comments do not count.
 */
function indentDeclarations(source: string): string {
  let depth = 0;
  let inComment = false;
  const lines: Array<{ text: string; code: string | null; depth: number }> = [];
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    if (line === "") {
      lines.push({ text: "", code: null, depth });
      continue;
    }
    if (inComment || line.startsWith("/*")) {
      inComment = !line.endsWith("*/");
      lines.push({ text: "  ".repeat(depth) + (line.startsWith("*") ? ` ${line}` : line), code: null, depth });
      continue;
    }
    const code = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
    const opens = (code.match(/[{[(]/g) ?? []).length;
    const closes = (code.match(/[}\])]/g) ?? []).length;
    const leadingCloses = (code.match(/^[}\])]+/) ?? [""])[0].length;
    depth = Math.max(0, depth - leadingCloses);
    lines.push({ text: "  ".repeat(depth) + line, code, depth });
    depth = Math.max(0, depth + opens - (closes - leadingCloses));
  }
  // A member or type alias ends where its line is complete and the next code line does not continue it.
  let next: string | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    if (l.code === null) continue;
    const complete = !/[{([,|&=>]$/.test(l.code) && !(l.code === "}" && l.depth === 0);
    if (complete && (next === null || !/^[|&)\]=.,?:]/.test(next))) l.text += ";";
    next = l.code;
  }
  return lines.map((l) => l.text).join("\n");
}

/**
 * Worker threads beside the calling thread, which compiles chunks too once it has emitted the other
 * artefacts: one on two cores (a second worker only contended with the emit and cost its memory).
 */
const WORKERS = Math.min(2, availableParallelism() - 1);
/** Under a TypeScript loader (the tests) there is no compiled worker script: chunks compile in the calling thread. */
const WORKER_SCRIPT = import.meta.url.endsWith(".ts") ? undefined : new URL("./type-declarations-worker.js", import.meta.url);

/** Started workers and the counter from which they (and the calling thread) claim chunks. */
interface Workers {
  readonly workers: readonly Worker[];
  readonly claim: Int32Array;
}

/** Workers started ahead of need (startTypeWorkersEarly), not yet handed to a compiler. */
let early: Workers | undefined;

/**
 * Start the type workers now, before the contract is even parsed, when it will probably need them:
 * loading the generator then overlaps the parse, which leaves the other core idle. They do not keep
 * the process alive until a compiler takes them; a compiler that runs in-thread after all ends them.
 */
export function startTypeWorkersEarly(): void {
  if (early !== undefined || WORKERS < 1 || WORKER_SCRIPT === undefined) return;
  early = startWorkers();
  for (const w of early.workers) w.unref();
}

function takeStartedWorkers(): Workers | undefined {
  const taken = early;
  early = undefined;
  for (const w of taken?.workers ?? []) w.ref();
  return taken;
}

/**
 * A small young generation: the generator's garbage dies with each chunk, and with V8's default
 * each worker's heap grew to about 85 MB on GitHub (22 MB like this) while the main thread held the model.
 */
function startWorkers(): Workers {
  const claim = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const workers = Array.from({ length: WORKERS }, () => {
    const worker = new Worker(WORKER_SCRIPT!, { workerData: { claim }, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    worker.once("error", (e) => STOPPED.set(worker, e));
    worker.once("exit", (code) => {
      if (!STOPPED.has(worker)) STOPPED.set(worker, new Error(`exited with code ${code}`));
    });
    return worker;
  });
  return { workers, claim };
}

/** Why a worker stopped, for a pool that takes it over afterwards (an early worker can fail before any pool listens). */
const STOPPED = new WeakMap<Worker, Error>();

/** Where chunks go: `send` them (as JSON) numbered from 0, then `finish` with their number for the results in order. */
interface ChunkSink {
  send(index: number, json: string): void;
  finish(total: number): Promise<string[]>;
}

function inThread(): ChunkSink {
  const chunks: string[] = [];
  return {
    send: (index, json) => void (chunks[index] = json),
    async finish() {
      const out: string[] = [];
      for (const json of chunks) out.push(await compileChunk(json));
      return out;
    },
  };
}

/** Main thread → worker: a chunk as JSON (a flat string costs each worker far less memory than a copied object graph), or the number of chunks. */
export type ToWorker = { readonly index: number; readonly json: string } | { readonly total: number };
/** Worker → main thread. */
export type FromWorker = { readonly index: number; readonly source: string } | { readonly index: number; readonly error: string };

/**
 * Every chunk goes to every worker, and each worker claims the next chunk from a shared counter
 * when it is free. Chunks differ a lot in cost (operation inputs are larger than most shared
 * types), and the calling thread is busy emitting the other artefacts meanwhile: a queue it had to
 * serve left the workers idle until it was done. Once it is done (`finish`), it claims chunks from
 * the same counter and compiles them itself instead of waiting.
 */
function workerPool({ workers, claim }: Workers): ChunkSink {
  /** The calling thread's copy of each chunk, until it is compiled somewhere. */
  const chunks: Array<string | undefined> = [];
  const results: string[] = [];
  let received = 0;
  let total = Infinity;
  let settle: { resolve: (parts: string[]) => void; reject: (e: Error) => void } | undefined;
  let failure: Error | undefined;

  const stop = () => {
    for (const w of workers) void w.terminate();
  };
  const check = () => {
    if (failure) {
      stop();
      settle?.reject(failure);
    } else if (received === total) {
      stop();
      settle?.resolve(results);
    }
  };
  const fail = (e: Error) => {
    failure ??= e;
    check();
  };
  const done = (index: number, source: string) => {
    results[index] = source;
    chunks[index] = undefined;
    received++;
    check();
  };
  for (const worker of workers) {
    const stopped = STOPPED.get(worker);
    if (stopped) fail(new Error(`type declarations: a worker stopped before its first chunk (${stopped.message})`));
    worker.on("message", (message: FromWorker) => ("error" in message ? fail(new Error(`type declarations: ${message.error}`)) : done(message.index, message.source)));
    worker.once("error", fail);
    worker.once("exit", (code) => {
      if (received < total) fail(new Error(`type declarations: a worker exited with code ${code} before finishing`));
    });
  }
  return {
    send(index, json) {
      chunks[index] = json;
      for (const w of workers) w.postMessage({ index, json } satisfies ToWorker);
    },
    async finish(n) {
      total = n;
      for (const w of workers) w.postMessage({ total: n } satisfies ToWorker);
      const all = new Promise<string[]>((resolve, reject) => (settle = { resolve, reject }));
      check();
      for (let index = Atomics.add(claim, 0, 1); index < n && failure === undefined; index = Atomics.add(claim, 0, 1)) {
        try {
          done(index, await compileChunk(chunks[index]!));
        } catch (e) {
          fail(e instanceof Error ? e : new Error(String(e)));
        }
      }
      return all;
    },
  };
}
