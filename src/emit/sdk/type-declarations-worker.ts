// Worker thread of type-declarations.ts: compiles the declarations it is given and posts the source back.
import { parentPort, workerData } from "node:worker_threads";
import { compileInProcess } from "./type-declarations.js";

try {
  parentPort!.postMessage({ source: await compileInProcess(workerData as Array<[string, unknown]>) });
} catch (e) {
  parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
