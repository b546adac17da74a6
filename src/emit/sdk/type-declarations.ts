import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { compile } from "json-schema-to-typescript";
import { TYPES_ROOT } from "../../model/naming.js";
import { defineOwn, type SchemaObject } from "../../spec/schema-walk.js";

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
 * schema, so they are cut into chunks, and on a large contract (`expected` declarations or more
 * than PARALLEL_FROM) the chunks compile in worker threads — the generator takes most of a
 * GitHub-size generate — started at once, so they load while the declarations are being prepared
 * and compile while the other artefacts are emitted. The parts are joined in order: the output is
 * the same however it ran.
 */
export function declarationCompiler(expected: number): DeclarationCompiler {
  const workers = Math.min(2, availableParallelism());
  // Under a TypeScript loader (the tests) there is no compiled worker script: compile here.
  const script = new URL("./type-declarations-worker.js", import.meta.url);
  const parallel = workers >= 2 && expected >= PARALLEL_FROM && !import.meta.url.endsWith(".ts");
  const sink = parallel ? workerPool(script, workers) : inThread();
  let chunk: Declaration[] = [];
  let count = 0;
  return {
    add(identifier, schema) {
      chunk.push([identifier, schema]);
      if (chunk.length === CHUNK) {
        sink.send(count++, chunk);
        chunk = [];
      }
    },
    finish() {
      if (chunk.length > 0) sink.send(count++, chunk);
      chunk = [];
      return sink.finish(count).then((parts) => parts.join("\n"));
    },
  };
}

/** One json-schema-to-typescript call over a chunk of declarations, trailing blank lines trimmed. */
export async function compileChunk(entries: readonly Declaration[]): Promise<string> {
  const $defs: SchemaObject = {};
  for (const [key, def] of entries) defineOwn($defs, key, def);
  const root = { title: TYPES_ROOT, type: "object", additionalProperties: false, properties: {}, $defs };
  const source = await compile(root as never, TYPES_ROOT, {
    bannerComment: "",
    unreachableDefinitions: true,
    additionalProperties: false,
    // Prettier (inside the generator) recurses on nesting depth — a deep but valid schema
    // overflowed the stack — and took most of the emit time; types.ts lays the output out instead.
    format: false,
    strictIndexSignatures: true,
    declareExternallyReferenced: true,
    $refOptions: { resolve: { external: false } } as never,
  });
  return source.trimEnd();
}

/** Where chunks go: `send` them numbered from 0, then `finish` with their number for the results in order. */
interface ChunkSink {
  send(index: number, entries: readonly Declaration[]): void;
  finish(total: number): Promise<string[]>;
}

function inThread(): ChunkSink {
  const chunks: Array<readonly Declaration[]> = [];
  return {
    send: (index, entries) => void (chunks[index] = entries),
    async finish() {
      const out: string[] = [];
      for (const entries of chunks) out.push(await compileChunk(entries));
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
 * types), and the main thread is busy emitting the other artefacts meanwhile: a queue it had to
 * serve left the workers idle until it was done.
 */
function workerPool(script: URL, count: number): ChunkSink {
  const claim = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const pool: Worker[] = [];
  const results: string[] = [];
  let received = 0;
  let total = Infinity;
  let settle: { resolve: (parts: string[]) => void; reject: (e: Error) => void } | undefined;
  let failure: Error | undefined;

  const stop = () => {
    for (const w of pool) void w.terminate();
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
  for (let i = 0; i < count; i++) {
    // A small young generation: the generator's garbage dies with each chunk, and with V8's default
    // each worker's heap grew to about 85 MB on GitHub (22 MB like this) while the main thread held the model.
    const worker = new Worker(script, { workerData: { claim }, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    pool.push(worker);
    worker.on("message", (message: FromWorker) => {
      if ("error" in message) return fail(new Error(`type declarations: ${message.error}`));
      results[message.index] = message.source;
      received++;
      check();
    });
    worker.once("error", fail);
    worker.once("exit", (code) => {
      if (received < total) fail(new Error(`type declarations: a worker exited with code ${code} before finishing`));
    });
  }
  return {
    send(index, entries) {
      const json = JSON.stringify(entries);
      for (const w of pool) w.postMessage({ index, json } satisfies ToWorker);
    },
    finish(n) {
      total = n;
      for (const w of pool) w.postMessage({ total: n } satisfies ToWorker);
      const done = new Promise<string[]>((resolve, reject) => (settle = { resolve, reject }));
      check();
      return done;
    },
  };
}
