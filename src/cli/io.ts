import { readFileSync } from "node:fs";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatDiagnosticText } from "../diagnostics/format.js";

/** Exit codes of the contractgen tool itself. */
export const EXIT = { ok: 0, invalid: 1, usage: 2, internal: 70 } as const;

/** Where a command writes: results on stdout, diagnostics and progress on stderr. */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly color: boolean;
}

export const processIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  color: Boolean(process.stderr.isTTY) && !process.env.NO_COLOR,
};

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
