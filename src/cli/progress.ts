/**
 * Progress of long work on a terminal: one line on stderr, rewritten in place with `\r`, cleared at
 * the end. Quiet unless stderr is a terminal, and quiet for work that ends within the delay (1 s), so
 * quick runs, pipes, CI logs and stdout are never touched.
 *
 * The pipeline reports through a plain callback (`ProgressCallback`); emitters and parsers receive
 * it as an option and never print. Import (`import-openapi`) plugs in the same way: pass
 * `reporter.update` as its `onProgress` and call `reporter.end()` in a `finally`.
 */

/** Called as work advances: `phase` names the step ("validate", "emit sdk", "write"…), `done` of `total` units. */
export type ProgressCallback = (phase: string, done: number, total: number) => void;

export interface ProgressReporter {
  readonly update: ProgressCallback;
  /**
   * Clears the line if it is shown, before anything else is printed on stderr or stdout, and at the
   * end. Later updates draw again, so work can go on after a message.
   */
  readonly end: () => void;
}

export interface ProgressOptions {
  /** Where the line goes (stderr). */
  readonly write: (text: string) => void;
  /** Only a terminal gets progress. */
  readonly isTTY: boolean;
  /** `--no-progress` turns it off even on a terminal. */
  readonly enabled?: boolean;
  /** Nothing is shown before this much work time (ms, default 1000). */
  readonly delayMs?: number;
  /** At most one redraw per this many ms (default 100), except when the phase changes. */
  readonly throttleMs?: number;
  /** Injected in tests. */
  readonly now?: () => number;
}

const SILENT: ProgressReporter = { update: () => {}, end: () => {} };

// Control characters in a phase name would garble the terminal; names are ours, but stay safe.
const printable = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");

export function createProgress(options: ProgressOptions): ProgressReporter {
  if (!options.isTTY || options.enabled === false) return SILENT;
  const now = options.now ?? (() => performance.now());
  const delay = options.delayMs ?? 1000;
  const throttle = options.throttleMs ?? 100;
  const started = now();
  let shown = false;
  let lastDraw = -Infinity;
  let lastPhase = "";
  return {
    update(phase, done, total) {
      const t = now();
      if (t - started < delay) return;
      if (phase === lastPhase && t - lastDraw < throttle) return;
      lastDraw = t;
      lastPhase = phase;
      shown = true;
      const count = total > 0 ? ` ${done}/${total}` : "";
      const seconds = ((t - started) / 1000).toFixed(1);
      // \x1b[K erases the rest of the previous, possibly longer, line.
      options.write(`\rcontractgen: ${printable(phase)}${count} (${seconds} s)\x1b[K`);
    },
    end() {
      if (shown) options.write("\r\x1b[K");
      shown = false;
      lastPhase = "";
    },
  };
}

/**
 * The delay before anything is shown: 1 s, or CONTRACTGEN_PROGRESS_DELAY_MS (a number of ms) so a
 * test in a pseudo-terminal can see progress without a slow contract.
 */
export function progressDelayFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.CONTRACTGEN_PROGRESS_DELAY_MS;
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : 1000;
}
