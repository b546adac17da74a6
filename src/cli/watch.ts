import { type FSWatcher, statSync, watch } from "node:fs";
import { dirname, resolve } from "node:path";

/** Quiet time after the last change before regenerating: editors write a file in several steps. */
const SETTLE_MS = 100;
/**
 * File times come from the kernel's coarse clock, which may lag `Date.now()` by a tick; a file
 * written just after a run began can carry a time slightly before it.
 */
const CLOCK_SLACK_MS = 50;

export interface WatchReporter {
  readonly stderr: (text: string) => void;
}

/**
 * Calls `run` again whenever one of the files it read changes, one run at a time.
 *
 * Folders are watched rather than files, so an editor that saves by writing a new file and renaming
 * it over the old one (vim, most IDEs) is still seen. A change made while a run is in progress runs
 * it once more afterwards; so does a change made before the watch began, found by the file's time.
 * `run` resolves to the files it read, which may differ from the last run's.
 */
export function watchFiles(
  firstFiles: readonly string[],
  firstStartedAt: number,
  run: () => Promise<readonly string[]>,
  io: WatchReporter,
): { readonly files: () => readonly string[]; readonly close: () => void } {
  let files = new Set<string>();
  const watchers = new Map<string, FSWatcher>();
  let running = false;
  let pending = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (running) {
      pending = true;
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => void runOnce(), SETTLE_MS);
  };

  const arm = (read: readonly string[], startedAt: number) => {
    files = new Set(read.map((f) => resolve(f)));
    const folders = new Set([...files].map((f) => dirname(f)));
    for (const [folder, watcher] of watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      watchers.delete(folder);
    }
    const fresh = new Set<string>();
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      fresh.add(folder);
      try {
        const watcher = watch(folder, (_event, name) => {
          // No name: the platform could not say which entry changed, so any of them may have.
          if (name === null || files.has(resolve(folder, name.toString()))) schedule();
        });
        watcher.on("error", (e) => {
          io.stderr(`contractgen: stopped watching ${folder}: ${e.message}\n`);
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch (e) {
        io.stderr(`contractgen: cannot watch ${folder}: ${(e as Error).message}\n`);
      }
    }
    // A save between reading a file and watching its folder raised no event: look at the file times.
    // Folders watched all along raised events for those already (and a file dated in the future
    // must not make every run schedule the next).
    for (const file of files) {
      if (!fresh.has(dirname(file))) continue;
      let modified: number;
      try {
        modified = statSync(file).mtimeMs;
      } catch {
        modified = Infinity; // gone: run again so the user hears about it
      }
      if (modified >= startedAt - CLOCK_SLACK_MS) {
        schedule();
        break;
      }
    }
  };

  const runOnce = async () => {
    running = true;
    const startedAt = Date.now();
    let read: readonly string[] = [...files];
    try {
      read = await run();
    } catch (e) {
      io.stderr(`contractgen: ${(e as Error).message}\n`);
    } finally {
      running = false;
    }
    arm(read, startedAt);
    if (pending) {
      pending = false;
      schedule();
    }
  };

  arm(firstFiles, firstStartedAt);
  return {
    files: () => [...files],
    close: () => {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
