/**
 * Child processes with a time and an output bound: a hostile input must not hang a command or
 * flood its output, and a test must never wait on one forever.
 */
import { spawn } from "node:child_process";

export interface Bounded {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Killed because it ran past the time bound. */
  readonly hang: boolean;
  /** Killed because it wrote more than the output bound. */
  readonly flood: boolean;
  readonly ms: number;
}

export interface BoundOptions {
  readonly timeoutMs: number;
  /** Bytes per stream before the process is killed. */
  readonly maxOutput?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

export function runBounded(command: string, args: readonly string[], options: BoundOptions): Promise<Bounded> {
  const maxOutput = options.maxOutput ?? 2 * 1024 * 1024;
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, [...args], { env: options.env ?? process.env, cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let hang = false;
    let flood = false;
    const timer = setTimeout(() => {
      hang = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.stdout.on("data", (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > maxOutput) {
        flood = true;
        child.kill("SIGKILL");
      } else out.push(b);
    });
    child.stderr.on("data", (b: Buffer) => {
      errBytes += b.length;
      if (errBytes > maxOutput) {
        flood = true;
        child.kill("SIGKILL");
      } else err.push(b);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), hang, flood, ms: Math.round(performance.now() - started) });
    });
  });
}

/** Run `work` over `items` with at most `limit` at once (the machine has two cores). */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/** Node frames, V8 and Node crash banners: none may reach a user's terminal. */
const CRASH_PATTERNS: readonly RegExp[] = [
  /^\s+at (?:async )?(?:\S+ \()?(?:file:\/\/|node:|\/)\S*:\d+:\d+\)?\s*$/m,
  /Maximum call stack size exceeded/,
  /\b(?:TypeError|RangeError|ReferenceError|SyntaxError|InternalError):/,
  /JavaScript heap out of memory|FATAL ERROR|Allocation failed/,
];

export function crashSigns(text: string): string[] {
  return CRASH_PATTERNS.filter((p) => p.test(text)).map((p) => `${p.source}: ${firstMatchLine(text, p)}`);
}

function firstMatchLine(text: string, p: RegExp): string {
  const m = p.exec(text);
  if (!m) return "";
  const start = text.lastIndexOf("\n", m.index) + 1;
  const end = text.indexOf("\n", m.index);
  return text.slice(start, end < 0 ? undefined : end).trim().slice(0, 200);
}
