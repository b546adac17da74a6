/**
 * The TypeScript compiler, loaded when code mode first needs it (a search or a type check), never
 * when a module of the package is merely imported: it is large, and an optional dependency of the
 * generated package. Missing, it throws with the code MODULE_NOT_FOUND.
 */
import { createRequire } from "node:module";
import type * as TS from "typescript";

let loaded: typeof TS | undefined;

export function typescript(): typeof TS {
  return (loaded ??= createRequire(import.meta.url)("typescript") as typeof TS);
}
