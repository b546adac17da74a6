/**
 * How a generated server stops (the MCP bin, the HTTP server skeleton): on SIGTERM/SIGINT no new
 * call starts (over HTTP, requests arriving meanwhile get 503 and none is reset: drain.ts), running
 * calls finish up to the drain deadline, then the process exits (1 when calls were cut short); a
 * second signal stops at once.
 */
import { InvalidArgumentError } from "commander";

/** Default of --drain-timeout, in seconds: inside the 30 s most orchestrators allow between SIGTERM and SIGKILL. */
export const DEFAULT_DRAIN_SECONDS = 20;

/** A --drain-timeout value. */
export function seconds(raw: string): number {
  if (!/^\d{1,6}(\.\d{1,3})?$/.test(raw)) throw new InvalidArgumentError("expected a number of seconds, e.g. 20 or 0.5.");
  return Number(raw);
}

/** A --port value. */
export function port(raw: string): number {
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) throw new InvalidArgumentError("expected a port number from 0 to 65535 (0: any free port).");
  return Number(raw);
}

export interface GracefulStop {
  /** What stops the server once serving: resolves with the number of calls cut short at the deadline. */
  setStop(stop: (drainMs: number) => Promise<number>): void;
  /** Stop now (a signal's name, or none: the end of input). */
  shutdown(signal?: string): void;
}

export function gracefulStop(name: string, drainMs: number, stderr: (text: string) => void, unknownOutcome: string): GracefulStop {
  let stop: ((drainMs: number) => Promise<number>) | undefined;
  let stopping = false;
  const shutdown = (signal?: string): void => {
    if (stopping) {
      if (signal) {
        stderr(`${name}: ${signal} again: stopping now; calls still running have an unknown outcome (${unknownOutcome}).\n`);
        process.exit(1);
      }
      return;
    }
    stopping = true;
    if (signal) stderr(`${name}: ${signal}: no new requests; letting running calls finish (up to ${drainMs / 1000} s).\n`);
    (stop ? stop(drainMs) : Promise.resolve(0)).then(
      (cut) => {
        if (cut > 0) stderr(`${name}: ${cut} call(s) still running at the deadline were cut short: their outcome is unknown (${unknownOutcome}).\n`);
        process.exit(cut > 0 ? 1 : (process.exitCode ?? 0));
      },
      () => process.exit(1),
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  return { setStop: (s) => void (stop = s), shutdown };
}
