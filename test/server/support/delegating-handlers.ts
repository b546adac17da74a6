/**
 * Handlers for a generated server skeleton that delegate to a reference platform's handlers (set per
 * start with useHandlers), each stage awaiting before it runs: the skeleton is filled in with a
 * correct implementation, written as asynchronous handlers. The stage shapes are fixed when the
 * handler files are imported; the implementation behind them may change from one start to the next.
 */
import type { Handlers } from "../../../src/host-runtime/contract-host.js";

type Stage = (...args: unknown[]) => unknown;

const current = new Map<string, unknown>();

/** The implementation the delegates call from now on. */
export function useHandlers(handlers: Handlers): void {
  current.clear();
  for (const [id, handler] of handlers instanceof Map ? handlers : Object.entries(handlers)) current.set(id, handler);
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

function implementation(operation: string): unknown {
  const handler = current.get(operation);
  if (handler === undefined) throw new Error(`no implementation of ${operation} was given (useHandlers)`);
  return handler;
}

/** A function handler that awaits, then calls the implementation's. */
export function delegateFunction(operation: string): Stage {
  return async (...args) => {
    await pause();
    return (implementation(operation) as Stage)(...args);
  };
}

/** A staged handler with these stages; `unchanged` stays synchronous (the host asks it synchronously). */
export function delegateStaged(operation: string, stages: readonly string[]): Record<string, Stage> {
  const handler: Record<string, Stage> = Object.create(null);
  for (const stage of stages) {
    const call = (...args: unknown[]) => (implementation(operation) as Record<string, Stage>)[stage]!(...args);
    handler[stage] =
      stage === "unchanged"
        ? call
        : async (...args) => {
            await pause();
            return call(...args);
          };
  }
  return handler;
}
