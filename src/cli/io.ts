import { readFileSync } from "node:fs";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatDiagnosticText } from "../diagnostics/format.js";
import { writeTo } from "../runtime/stdio.js";
import { OutputConflictError } from "../write/tree.js";
import { createProgress, progressDelayFromEnv, type ProgressReporter } from "./progress.js";

/** Exit codes of the contractgen tool itself. */
export const EXIT = { ok: 0, invalid: 1, usage: 2, internal: 70 } as const;

/** Where a command writes: results on stdout, diagnostics and progress on stderr. */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly color: boolean;
  /** stderr is a terminal: progress may be shown there (never on stdout). */
  readonly stderrIsTTY?: boolean;
  /** ms of work before progress appears (default 1000). */
  readonly progressDelayMs?: number;
}

/** The process's streams; output to a reader that has gone (`| head`) is dropped, never a stack trace. */
export const processIo: Io = {
  stdout: (t) => writeTo(process.stdout, t),
  stderr: (t) => writeTo(process.stderr, t),
  color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR,
  stderrIsTTY: Boolean(process.stderr.isTTY),
  progressDelayMs: progressDelayFromEnv(),
};

/** A progress line on stderr when it is a terminal and `--no-progress` was not given. */
export function progressOn(io: Io, enabled = true): ProgressReporter {
  return createProgress({ write: io.stderr, isTTY: io.stderrIsTTY === true, enabled, delayMs: io.progressDelayMs });
}

/** Print diagnostics as text on stderr, with the offending source line under each. */
export function printDiagnostics(diagnostics: readonly Diagnostic[], io: Io): void {
  const cache = new Map<string, string[] | null>();
  const lineOf = (file: string, line: number) => {
    if (!cache.has(file)) {
      try {
        cache.set(file, readFileSync(file, "utf8").split(/\r?\n/));
      } catch {
        cache.set(file, null);
      }
    }
    return cache.get(file)?.[line - 1];
  };
  for (const d of diagnostics) io.stderr(`${formatDiagnosticText(d, { color: io.color, lineOf })}\n\n`);
}

/**
 * Exit code for a failure to write an owned file: a file in the way (not ours to replace) or the
 * user's file system refusing (EACCES…) is told as a usage problem, never a stack trace; anything
 * else is a bug and is thrown on. `owns` says what the command replaces ("a contract it imported").
 */
export function ownedWriteFailure(e: unknown, io: Io, owns: string, hint?: string): number {
  if (e instanceof OutputConflictError) {
    io.stderr(`contractgen: ${e.message}\ncontractgen only replaces ${owns} and nobody edited since.\n${hint ? `  hint: ${hint}\n` : ""}`);
    return EXIT.usage;
  }
  const errno = e as NodeJS.ErrnoException;
  if (typeof errno?.code === "string" && typeof errno.syscall === "string") {
    io.stderr(`contractgen: ${errno.message}\n`);
    return EXIT.usage;
  }
  throw e;
}
