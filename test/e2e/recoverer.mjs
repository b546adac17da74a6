// A process that recovers lost calls on request, for the concurrency stress tests: it loads the built
// SDK once, then reads one JSON command a line on stdin — { id, method, input, options, delayMs } —
// and answers each on stdout — { id, ok, result } or { id, ok: false, error } — after waiting
// `delayMs` (the start-up jitter of processes launched together) and calling with a client of its own
// (its own journal connection, as a new process would have). Commands run concurrently.
import { createInterface } from "node:readline";

const { sdk, clientClass } = JSON.parse(process.argv[2]);
const module = await import(sdk);
const write = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
write({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const { id, method, input, options, delayMs } = JSON.parse(line);
  void (async () => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const client = new module[clientClass](options);
    try {
      write({ id, ok: true, result: await client[method](input) });
    } catch (e) {
      write({ id, ok: false, error: typeof e?.toJSON === "function" ? e.toJSON() : { message: String(e) } });
    } finally {
      client.close();
    }
  })();
}
