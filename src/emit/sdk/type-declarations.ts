import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { compile } from "json-schema-to-typescript";
import { TYPES_ROOT } from "../../model/naming.js";
import { defineOwn, type SchemaObject } from "../../spec/schema-walk.js";

/** Declarations handed to json-schema-to-typescript per call: its cost per call is small, per schema it is not. */
const CHUNK = 200;

/** Below this many declarations a worker's start-up (loading the generator) costs more than it saves. */
const PARALLEL_FROM = 600;

/**
 * The generator's unformatted TypeScript for each declaration (identifier → prepared schema whose
 * references are already names, `tsType`), in the order given. No declaration needs another's
 * schema, so large contracts are split between worker threads — the generator takes most of a
 * GitHub-size generate — and the parts joined in order: the output is the same however it ran.
 */
export async function compileDeclarations(entries: ReadonlyArray<readonly [string, unknown]>): Promise<string> {
  const workers = Math.min(2, availableParallelism());
  const script = new URL("./type-declarations-worker.js", import.meta.url);
  // Under a TypeScript loader (the tests) there is no compiled worker script: compile here.
  if (workers < 2 || entries.length < PARALLEL_FROM || import.meta.url.endsWith(".ts")) return compileInProcess(entries);
  // The same chunks one thread compiles, joined in order: the output does not depend on the workers.
  const chunks: Array<ReadonlyArray<readonly [string, unknown]>> = [];
  for (let i = 0; i < entries.length; i += CHUNK) chunks.push(entries.slice(i, i + CHUNK));
  return (await inWorkers(script, chunks, workers)).join("\n");
}

/** Compile in this thread, a chunk at a time. */
export async function compileInProcess(entries: ReadonlyArray<readonly [string, unknown]>): Promise<string> {
  const out: string[] = [];
  for (let i = 0; i < entries.length; i += CHUNK) out.push(await compileChunk(entries.slice(i, i + CHUNK)));
  return out.join("\n");
}

/** One json-schema-to-typescript call over a chunk of declarations, trailing blank lines trimmed. */
export async function compileChunk(entries: ReadonlyArray<readonly [string, unknown]>): Promise<string> {
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

/**
 * Chunks handed out one at a time to whichever worker is free (chunks differ a lot in cost: the
 * operations' inputs are larger than most shared types), results kept by index.
 */
function inWorkers(script: URL, chunks: ReadonlyArray<ReadonlyArray<readonly [string, unknown]>>, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const results: string[] = new Array<string>(chunks.length);
    const pool: Worker[] = [];
    let next = 0;
    let done = 0;
    let failed = false;
    const stop = () => {
      for (const w of pool) void w.terminate();
    };
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      stop();
      reject(e);
    };
    const feed = (worker: Worker) => {
      if (next < chunks.length) {
        worker.postMessage({ index: next, entries: chunks[next] });
        next++;
      }
    };
    for (let i = 0; i < Math.min(count, chunks.length); i++) {
      const worker = new Worker(script);
      pool.push(worker);
      worker.on("message", (message: { index: number; source?: string; error?: string }) => {
        if (typeof message.source !== "string") return fail(new Error(`type declarations: ${message.error ?? "no result"}`));
        results[message.index] = message.source;
        if (++done === chunks.length) {
          stop();
          resolve(results);
        } else feed(worker);
      });
      worker.once("error", fail);
      worker.once("exit", (code) => {
        if (done < chunks.length) fail(new Error(`type declarations: a worker exited with code ${code} before finishing`));
      });
      feed(worker);
    }
  });
}
