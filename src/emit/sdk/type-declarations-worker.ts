// Worker thread of type-declarations.ts: receives every chunk of declarations, claims the next one
// from the counter it shares with the other workers whenever it is free, and posts the source back
// with the chunk's index.
import { parentPort, workerData } from "node:worker_threads";
import { compileChunk, type FromWorker, type ToWorker } from "./type-declarations.js";

const claim = (workerData as { claim: Int32Array }).claim;
const chunks: string[] = [];
let total = Infinity;
/** The chunk this worker claimed and may still be waiting for. */
let claimed: number | undefined;
let busy = false;

async function pump(): Promise<void> {
  if (busy) return;
  busy = true;
  for (;;) {
    claimed ??= Atomics.add(claim, 0, 1);
    if (claimed >= total) break; // nothing left; the main thread ends this worker
    const json = chunks[claimed];
    if (json === undefined) break; // not sent yet: the next message brings it
    const index = claimed;
    claimed = undefined;
    delete chunks[index];
    let reply: FromWorker;
    try {
      reply = { index, source: await compileChunk(json) };
    } catch (e) {
      reply = { index, error: e instanceof Error ? e.message : String(e) };
    }
    parentPort!.postMessage(reply);
  }
  busy = false;
}

parentPort!.on("message", (message: ToWorker) => {
  if ("total" in message) total = message.total;
  // A chunk another worker has claimed already is not kept.
  else if (message.index === claimed || message.index >= Atomics.load(claim, 0)) chunks[message.index] = message.json;
  void pump();
});
