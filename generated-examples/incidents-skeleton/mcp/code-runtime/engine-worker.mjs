// The engine side of code mode's sandbox, run in a worker thread by sandbox.ts (plain JavaScript, so
// a bare node runs it wherever the runtime is copied). It evaluates one program in QuickJS compiled to
// WebAssembly: a fresh runtime and context, no host object inside, the memory, stack and time bounds
// of workerData.limits. The only ways out are three messages to the host: a call (method name and
// JSON text), a printed line, and the end of the run. The host enforces the wall-clock bound by
// terminating this thread, so a program stuck anywhere (even inside a builtin) cannot outlive it.
import { parentPort, workerData } from "node:worker_threads";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";

const { program, methods, traversals, limits, wasmModule } = workerData;

/**
 * The guest's side of the bridge, evaluated before the program: `client.<method>(input)` returns a
 * promise of the method's result (its arguments sent as one JSON array) or rejects with an SdkError carrying the host error's fields;
 * `console.log` and friends print; the run's result is serialized by a JSON.stringify taken before
 * the program could replace it. The host functions are taken out of the global object first. Its
 * value is the function that runs a program (see the end).
 */
function prelude() {
  return `(() => {
  "use strict";
  const call = globalThis.__contractgen_call;
  const print = globalThis.__contractgen_print;
  delete globalThis.__contractgen_call;
  delete globalThis.__contractgen_print;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  class SdkError extends Error {
    constructor(fields) {
      super(String(fields.message ?? fields.code ?? "error"));
      this.name = typeof fields.name === "string" ? fields.name : "SdkError";
      for (const key of ["code", "class", "action", "field", "operation", "outcome", "status", "details"]) this[key] = fields[key] ?? null;
    }
  }
  const decode = (text) => {
    const answer = parse(text);
    if (answer.ok) return answer.value;
    throw new SdkError(answer.error);
  };
  const client = Object.create(null);
  for (const method of ${JSON.stringify(methods)}) {
    client[method] = (...args) => call(method, stringify(args.length === 0 ? [{}] : args)).then(decode);
  }
  // A traversal has the SDK's shape: collect() reads its pages (once) with their completeness; iterating yields the items.
  for (const method of ${JSON.stringify(traversals)}) {
    client[method] = (input, bounds) => {
      let answer;
      const collect = () => (answer ??= call(method, stringify([input === undefined ? {} : input, bounds === undefined ? {} : bounds])).then(decode));
      return Object.freeze({
        collect,
        async *[Symbol.asyncIterator]() {
          yield* (await collect()).items;
        },
      });
    };
  }
  const show = (value) => {
    if (typeof value === "string") return value;
    try { return stringify(value) ?? String(value); } catch { return String(value); }
  };
  const line = (...values) => print(values.map(show).join(" "));
  Object.defineProperty(globalThis, "client", { value: Object.freeze(client), enumerable: true });
  Object.defineProperty(globalThis, "SdkError", { value: SdkError, enumerable: true });
  Object.defineProperty(globalThis, "console", { value: Object.freeze({ log: line, info: line, warn: line, error: line }), enumerable: true });
  // What the program threw and did not catch: an SdkError keeps the fields the model acts on.
  const thrownFields = (error) => {
    if (!(error instanceof SdkError)) return null;
    const fields = { name: error.name, message: error.message };
    for (const key of ["code", "class", "action", "field", "operation", "outcome", "status"]) fields[key] = error[key];
    try { return stringify(fields); } catch { return null; }
  };
  const AsyncFunction = (async () => {}).constructor;
  // The engine's function constructor parses the body inside the text of an anonymous async function:
  // a body that closes that text is not one function body, and is refused as not compiling alone.
  const sourceOf = Function.prototype.call.bind(Function.prototype.toString);
  // The run, returned to the host (never a global): the program is compiled by the engine as the body
  // of an async function, so no text of it is ever joined to the host's. It settles with "J" and the
  // result's JSON, "N" and why the result is not JSON (a cycle, a BigInt…), "T" and an uncaught
  // SdkError's fields, or "S" and why the program does not compile; anything else it throws rejects.
  return async (source) => {
    let program;
    try {
      program = AsyncFunction(source);
    } catch (error) {
      if (error instanceof SyntaxError) return "S" + String(error.message);
      throw error;
    }
    if (typeof program !== "function" || sourceOf(program) !== "async function anonymous(\\n) {\\n" + source + "\\n}") return "Sthe program is not one function body (it closes the text around it)";
    let value;
    try {
      value = await program();
    } catch (error) {
      const fields = thrownFields(error);
      if (fields === null) throw error;
      return "T" + fields;
    }
    try { return "J" + (value === undefined ? "null" : stringify(value) ?? "null"); } catch (error) { return "N" + String(error); }
  };
})();`;
}

/** A QuickJS error value's text, as plain text. */
function errorText(vm, handle) {
  const dumped = vm.dump(handle);
  if (dumped && typeof dumped === "object") {
    const { name, message } = dumped;
    return `${typeof name === "string" ? name : "Error"}: ${typeof message === "string" ? message : JSON.stringify(dumped)}`;
  }
  return String(dumped);
}

const deadline = Date.now() + limits.timeMs;

/**
 * The engine's own out-of-memory, stack and interrupt errors, told apart from what the program threw:
 * only the engine's exact InternalError texts count (a program's `new Error("download interrupted")`
 * is its own throw), and an interrupt only once the deadline has passed. An allocation that fails
 * even for its error object surfaces as a bare null; a program's own `throw null` reads the same.
 */
function classify(message, otherwise) {
  if (message === "InternalError: out of memory" || message === "null") return { code: "CODE_MEMORY_LIMIT", message: "the program used more memory than allowed" };
  if (message === "InternalError: stack overflow") return { code: "CODE_STACK_LIMIT", message: "the program recursed deeper than allowed" };
  if (message === "InternalError: interrupted" && Date.now() > deadline) return { code: "CODE_TIME_LIMIT", message: `the program ran past its ${limits.timeMs} ms` };
  return { code: otherwise, message };
}

const answers = new Map();
let nextId = 0;
parentPort.on("message", (message) => {
  const settle = answers.get(message.id);
  if (settle) {
    answers.delete(message.id);
    settle(message.text);
  }
});

async function run() {
  // The host compiled the WebAssembly once; this thread only instantiates it.
  // The engine's heap limit is QuickJS's own accounting, which large buffers (typed arrays, long
  // strings) escape: the WebAssembly memory itself is capped too, so no program can grow this
  // thread's memory past the build's base 16 MiB (its stack and static data), the heap limit and as
  // much again for the allocator's slack; past it an allocation fails as the engine's out of memory.
  const page = 64 * 1024;
  const base = (16 * 1024 * 1024) / page;
  const wasmMemory = new WebAssembly.Memory({ initial: base, maximum: base + 2 * Math.ceil(limits.memoryBytes / page) });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(releaseSync.default ?? releaseSync, { wasmModule, wasmMemory }));
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(() => Date.now() > deadline);
  const vm = runtime.newContext();
  const inFlight = new Set();

  const printer = vm.newFunction("print", (text) => {
    parentPort.postMessage({ type: "print", line: vm.getString(text) });
  });
  vm.setProp(vm.global, "__contractgen_print", printer);
  printer.dispose();
  const call = vm.newFunction("call", (methodHandle, inputHandle) => {
    const id = nextId++;
    const deferred = vm.newPromise();
    const pending = new Promise((resolve) => answers.set(id, resolve)).then((text) => {
      if (!vm.alive) return;
      const value = vm.newString(text);
      deferred.resolve(value);
      value.dispose();
    });
    const tracked = pending.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    parentPort.postMessage({ type: "call", id, method: vm.getString(methodHandle), input: vm.getString(inputHandle) });
    return deferred.handle;
  });
  vm.setProp(vm.global, "__contractgen_call", call);
  call.dispose();

  const setup = vm.evalCode(prelude(), "prelude.js");
  if (setup.error) throw new Error(`code mode prelude failed: ${errorText(vm, setup.error)}`);
  const source = vm.newString(program);
  const started = vm.callFunction(setup.value, vm.undefined, source);
  source.dispose();
  setup.value.dispose();
  if (started.error) {
    const message = errorText(vm, started.error);
    started.error.dispose();
    return { error: classify(message, "CODE_ENGINE_FAILED") };
  }
  let settled = null;
  vm.resolvePromise(started.value).then((result) => {
    if (!vm.alive) return;
    if (result.error) {
      settled = { error: errorText(vm, result.error) };
      result.error.dispose();
    } else {
      settled = vm.typeof(result.value) === "string" ? { text: vm.getString(result.value) } : { text: "N" + vm.typeof(result.value) };
      result.value.dispose();
    }
  });
  started.value.dispose();

  for (;;) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      const message = errorText(vm, jobs.error);
      jobs.error.dispose();
      return { error: classify(message, "CODE_THREW") };
    }
    // Let the promise above observe a settlement those jobs made.
    await new Promise((resolve) => setImmediate(resolve));
    if (settled !== null) break;
    if (inFlight.size === 0 && !runtime.hasPendingJob()) {
      return { error: { code: "CODE_NEVER_SETTLED", message: "the program is waiting for something that never happens (no call in flight, nothing left to run)" } };
    }
    if (inFlight.size > 0) await Promise.race(inFlight);
  }
  if (settled.error !== undefined) return { error: classify(settled.error, "CODE_THREW") };
  const text = settled.text;
  if (text.startsWith("S")) return { error: classify(`SyntaxError: ${text.slice(1)}`, "CODE_SYNTAX_ERROR") };
  if (text.startsWith("T")) {
    let thrown = null;
    try {
      thrown = JSON.parse(text.slice(1));
    } catch {
      // Not the fields' JSON: never expected, read as a result that is not JSON.
    }
    if (thrown !== null && typeof thrown === "object" && !Array.isArray(thrown)) return { error: { code: "CODE_THREW", message: `${thrown.name}: ${thrown.message}`, thrown } };
    return { error: { code: "CODE_RESULT_NOT_JSON", message: `the program ended with something that is not JSON (${text.slice(1, 200)})` } };
  }
  if (text.startsWith("N")) return { error: { code: "CODE_RESULT_NOT_JSON", message: `the program returned something that is not JSON (${text.slice(1, 200)})` } };
  return { json: text.slice(1) };
}

run().then(
  (outcome) => parentPort.postMessage({ type: "done", outcome }),
  (error) => parentPort.postMessage({ type: "done", outcome: { error: { code: "CODE_ENGINE_FAILED", message: error instanceof Error ? error.message : String(error) } } }),
);
