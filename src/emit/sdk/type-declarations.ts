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
  // Parts end on chunk boundaries, so the chunks (and the output) are the ones one thread makes.
  const half = Math.ceil(entries.length / workers / CHUNK) * CHUNK;
  const parts = await Promise.all(
    Array.from({ length: workers }, (_, i) => inWorker(script, entries.slice(i * half, (i + 1) * half))),
  );
  return parts.join("\n");
}

/** Compile in this thread, a chunk at a time. */
export async function compileInProcess(entries: ReadonlyArray<readonly [string, unknown]>): Promise<string> {
  const out: string[] = [];
  for (let i = 0; i < entries.length; i += CHUNK) {
    const $defs: SchemaObject = {};
    for (const [key, def] of entries.slice(i, i + CHUNK)) defineOwn($defs, key, def);
    const root = { title: TYPES_ROOT, type: "object", additionalProperties: false, properties: {}, $defs };
    out.push(
      await compile(root as never, TYPES_ROOT, {
        bannerComment: "",
        unreachableDefinitions: true,
        additionalProperties: false,
        // Prettier (inside the generator) recurses on nesting depth — a deep but valid schema
        // overflowed the stack — and took most of the emit time; types.ts lays the output out instead.
        format: false,
        strictIndexSignatures: true,
        declareExternallyReferenced: true,
        $refOptions: { resolve: { external: false } } as never,
      }),
    );
  }
  return out.map((part) => part.trimEnd()).join("\n");
}

function inWorker(script: URL, entries: ReadonlyArray<readonly [string, unknown]>): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: entries });
    let settled = false;
    worker.once("message", (message: { source?: string; error?: string }) => {
      settled = true;
      if (typeof message.source === "string") resolve(message.source);
      else reject(new Error(`type declarations: ${message.error ?? "no result"}`));
    });
    worker.once("error", (e) => {
      settled = true;
      reject(e);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`type declarations: worker exited with code ${code} before answering`));
    });
  });
}
