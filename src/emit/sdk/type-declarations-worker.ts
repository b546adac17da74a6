// Worker thread of type-declarations.ts: compiles each chunk of declarations it is sent and posts
// the source back with the chunk's index.
import { parentPort } from "node:worker_threads";
import { compileChunk } from "./type-declarations.js";

parentPort!.on("message", (message: { index: number; entries: Array<[string, unknown]> }) => {
  compileChunk(message.entries).then(
    (source) => parentPort!.postMessage({ index: message.index, source }),
    (e: unknown) => parentPort!.postMessage({ index: message.index, error: e instanceof Error ? e.message : String(e) }),
  );
});
