/**
 * The sandbox of code mode (issue 43), host side. An agent's program runs in QuickJS compiled to
 * WebAssembly (engine-worker.mjs), a separate engine with its own heap, inside a worker thread: no
 * `process`, `require`, `import`, files, network, environment or timers reach it, and the only bridge
 * is `client`, whose methods send a method name and JSON text out and get JSON text back, so no host
 * object, prototype or function is ever shared. Each run gets a fresh engine with bounds on time,
 * memory, stack, calls, printing and the result's size, each with its own error code. Time is
 * enforced here by terminating the thread, so a program stuck even inside a builtin cannot outlive
 * its bound, and a crash of the engine ends that run, never the host.
 *
 * The host side of a call (validation, credentials, the journal, retries) is the bridge's business:
 * the sandbox passes method names and JSON, and counts the calls.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** What a run may use; each bound has its own error. */
export interface SandboxLimits {
  /** Wall time for the whole run, host calls included (ms). */
  readonly timeMs: number;
  /** The engine's heap (bytes). */
  readonly memoryBytes: number;
  /** The engine's stack (bytes): deep recursion ends here, not in the host. */
  readonly stackBytes: number;
  /** Bridge calls per run. */
  readonly calls: number;
  /** The result, as JSON text (characters). */
  readonly resultChars: number;
  /** Everything printed through console, in all (characters). */
  readonly logChars: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeMs: 10_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 512 * 1024,
  calls: 100,
  resultChars: 100_000,
  logChars: 20_000,
};

/** Stable codes of a run that did not end with a result. */
export type SandboxErrorCode =
  | "CODE_SYNTAX_ERROR"
  | "CODE_THREW"
  | "CODE_TIME_LIMIT"
  | "CODE_MEMORY_LIMIT"
  | "CODE_STACK_LIMIT"
  | "CODE_CALL_LIMIT"
  | "CODE_RESULT_TOO_LARGE"
  | "CODE_RESULT_NOT_JSON"
  | "CODE_NEVER_SETTLED"
  | "CODE_ENGINE_FAILED";

/** One bridge call's answer: the method's result, or the typed error the host's SDK raised (code, class, action…). */
export type BridgeAnswer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: Readonly<Record<string, unknown>> };

/**
 * Runs one client method in the host. `args` are the call's arguments, parsed from JSON; the answer
 * is sent back as JSON. `ended` is aborted once the run is over: a read may stop there (a write is
 * left to finish, so its outcome is recorded).
 */
export type Bridge = (method: string, args: readonly unknown[], ended: AbortSignal) => Promise<BridgeAnswer>;

export interface SandboxRun {
  readonly ok: boolean;
  /** The program's return value (JSON; undefined and functions read as null), when ok. */
  readonly value?: unknown;
  readonly error?: SandboxError;
  /** What the program printed, in order, within `logChars`. */
  readonly logs: readonly string[];
  /** Whether printing went past `logChars` (the rest was dropped). */
  readonly logsTruncated: boolean;
  /** Bridge calls the program asked for (refused ones included). */
  readonly calls: number;
  /**
   * Calls running in the host when the program ended (it did not await them, or it was stopped): the
   * run waited for them within its time; `stillRunning` of them had not finished by then (their
   * outcome unknown: a keyed one's is recorded when it ends).
   */
  readonly runningAtEnd?: { readonly calls: number; readonly stillRunning: number };
}

/** Why a run ended without a result; `thrown`: the fields of an SDK error the program did not catch (code, class, action…). */
export interface SandboxError {
  readonly code: SandboxErrorCode;
  readonly message: string;
  readonly thrown?: Readonly<Record<string, unknown>>;
}

type Outcome = { readonly json: string } | { readonly error: SandboxError };
type FromEngine = { type: "call"; id: number; method: string; input: string } | { type: "print"; line: string } | { type: "done"; outcome: Outcome };

const ENGINE = new URL("./engine-worker.mjs", import.meta.url);

/** The engine's WebAssembly, compiled once per process and handed to each run's thread (compiling it per run cost most of a run's start). */
const compiledEngine = (() => {
  // Node's global WebAssembly (the project's lib settings do not type it): a compiled module is cloneable into a worker.
  const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }).WebAssembly;
  let module: Promise<object> | undefined;
  return () => (module ??= readFile(createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm")).then((bytes) => wasm.compile(bytes)));
})();

const refusal = (code: string, message: string) => JSON.stringify({ ok: false, error: { code, class: "invalid_input", action: "fix_field", message } });

/** A client method inside the sandbox: a call (a promise of its answer) or a traversal (the SDK's shape: `collect()` and async iteration). */
export type SandboxMethod = string | { readonly name: string; readonly traversal: true };

/**
 * Runs `program` (JavaScript: the body of an async function, so `await` and `return` work at its top
 * level) with `client` bridged to `methods`. Never throws for anything the program does.
 */
export async function runInSandbox(program: string, methods: readonly SandboxMethod[], bridge: Bridge, limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS): Promise<SandboxRun> {
  const calls_ = methods.filter((m): m is string => typeof m === "string");
  const traversals = methods.flatMap((m) => (typeof m === "string" ? [] : [m.name]));
  const known = new Set([...calls_, ...traversals]);
  const wasmModule = await compiledEngine();
  return new Promise((resolve) => {
    const logs: string[] = [];
    let logChars = 0;
    let logsTruncated = false;
    let calls = 0;
    // A limit hit on the host side (calls) ends the run with its error whatever the program then does.
    let hit: { code: SandboxErrorCode; message: string } | null = null;
    let done = false;
    // Bridge calls running in the host, and what ends the run once the last of them settles.
    let running = 0;
    let whenIdle: (() => void) | null = null;
    let ended: Omit<SandboxRun, "logs" | "logsTruncated" | "calls"> | null = null;
    let runningAtEnd = 0;
    const over = new AbortController();
    const worker = new Worker(ENGINE, {
      workerData: { program, methods: calls_, traversals, limits, wasmModule },
      // The host's own flags (a loader, --input-type…) are not the engine thread's.
      execArgv: [],
      // The engine's heap is WebAssembly memory bounded by memoryBytes; the thread's own JavaScript heap stays small.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
      env: {},
    });
    const settle = (run: Omit<SandboxRun, "logs" | "logsTruncated" | "calls">) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      over.abort();
      void worker.terminate();
      resolve({ ...run, logs, logsTruncated, calls, ...(runningAtEnd > 0 ? { runningAtEnd: { calls: runningAtEnd, stillRunning: running } } : {}) });
    };
    // The program has ended: calls it did not await still run in the host (a write's outcome must be
    // recorded before the answer says what happened), so the answer waits for them within the time limit.
    const finish = (run: Omit<SandboxRun, "logs" | "logsTruncated" | "calls">) => {
      if (done || ended) return;
      void worker.terminate();
      if (running === 0) return settle(run);
      ended = run;
      runningAtEnd = running;
      whenIdle = () => settle(run);
    };
    const fail = (code: SandboxErrorCode, message: string, thrown?: Readonly<Record<string, unknown>>) => {
      // The first limit hit is why the run ended, even if the program then looped past its time.
      if (hit) return finish({ ok: false, error: hit });
      const error: SandboxError = { code, message, ...(thrown ? { thrown } : {}) };
      // What the program threw is output too, bounded as its result is.
      const size = JSON.stringify(error).length;
      if (size > limits.resultChars) return finish({ ok: false, error: { code: "CODE_RESULT_TOO_LARGE", message: `the program's uncaught error is ${size} characters as JSON, over the ${limits.resultChars} allowed` } });
      finish({ ok: false, error });
    };
    // Time is up for the program and for the calls the answer waits on.
    const timer = setTimeout(() => {
      if (!ended) fail("CODE_TIME_LIMIT", `the program ran past its ${limits.timeMs} ms`);
      if (ended) settle(ended);
    }, limits.timeMs);

    worker.on("message", (message: FromEngine) => {
      if (done || ended) return;
      if (message.type === "print") {
        if (logChars + message.line.length > limits.logChars) logsTruncated = true;
        else {
          logChars += message.line.length;
          logs.push(message.line);
        }
      } else if (message.type === "call") {
        calls++;
        const reply = (text: string) => {
          if (!done) worker.postMessage({ id: message.id, text });
        };
        if (calls > limits.calls) {
          hit ??= { code: "CODE_CALL_LIMIT", message: `the program made more than ${limits.calls} calls` };
          reply(refusal("CODE_CALL_LIMIT", `at most ${limits.calls} calls per program`));
          return;
        }
        if (!known.has(message.method)) {
          reply(refusal("CODE_UNKNOWN_METHOD", "no such client method"));
          return;
        }
        let args: unknown;
        try {
          args = JSON.parse(message.input);
        } catch {
          args = undefined;
        }
        if (!Array.isArray(args)) {
          reply(refusal("CODE_INPUT_NOT_JSON", "the arguments are not JSON"));
          return;
        }
        running++;
        bridge(message.method, args, over.signal)
          .then(
            (answer) => reply(JSON.stringify(answer)),
            // A bridge that throws is the host's failure: told without its stack or host objects.
            (error: unknown) => reply(JSON.stringify({ ok: false, error: { code: "CODE_BRIDGE_FAILED", class: "internal", action: "stop_and_surface", message: error instanceof Error ? error.message : String(error) } })),
          )
          .finally(() => {
            if (--running === 0) whenIdle?.();
          });
      } else if (message.type === "done") {
        if (hit) return fail(hit.code, hit.message);
        const outcome = message.outcome;
        if ("error" in outcome) return fail(outcome.error.code, outcome.error.message, outcome.error.thrown);
        if (outcome.json.length > limits.resultChars) {
          return fail("CODE_RESULT_TOO_LARGE", `the result is ${outcome.json.length} characters as JSON, over the ${limits.resultChars} allowed: return less (filter, count or page in the program)`);
        }
        // The engine's text is the program's to shape (it can break out of the wrapper): parsed, never trusted.
        let value: unknown;
        try {
          value = JSON.parse(outcome.json);
        } catch {
          return fail("CODE_RESULT_NOT_JSON", "the program ended with something that is not JSON");
        }
        finish({ ok: true, value });
      }
    });
    worker.on("error", (error) => ended || fail(/memory/i.test(error.message) ? "CODE_MEMORY_LIMIT" : "CODE_ENGINE_FAILED", `the engine stopped: ${error.message}`));
    worker.on("exit", () => ended || fail("CODE_ENGINE_FAILED", "the engine stopped before the program ended"));
  });
}
