/**
 * Packages a generated package uses only when a configuration asks for them: better-sqlite3 (a SQLite
 * journal or host database; a native addon that npm builds from source, ~100 s) and pg (PostgreSQL).
 * better-sqlite3 is an optional dependency of the generated package (`npm install --omit=optional`
 * leaves it out) and pg an optional peer (left out until added): they are loaded here at the moment a
 * SQLite or PostgreSQL store is opened, and a missing one is an error that names the package and the
 * command that installs it, never a module-resolution stack trace.
 */
import { createRequire } from "node:module";

const requireHere = createRequire(import.meta.url);

/** The optional packages and the major version the runtime is written and tested against. */
export const OPTIONAL_PACKAGES = {
  "better-sqlite3": { major: 12 },
  pg: { major: 8 },
} as const;
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/**
 * The command that installs `name`. `--save-prod`: inside a generated package, which names pg as an
 * optional peer, a bare `npm install pg` does nothing; this records it as a dependency.
 */
export function installCommand(name: OptionalPackage): string {
  return `npm install --save-prod ${name}@${OPTIONAL_PACKAGES[name].major}`;
}

/** An optional package that is not installed, or is installed but cannot be loaded. */
export class OptionalPackageError extends Error {
  /** Stable: PACKAGE_MISSING (not installed) or PACKAGE_UNLOADABLE (installed, but loading it failed). */
  readonly code: "PACKAGE_MISSING" | "PACKAGE_UNLOADABLE";
  constructor(
    readonly packageName: OptionalPackage,
    /** What needs it, as the start of a sentence: "The SQLite journal". */
    readonly purpose: string,
    missing: boolean,
    reason?: string,
  ) {
    super(
      missing
        ? `${purpose} needs the package ${packageName}, which is not installed: ${installCommand(packageName)}`
        : `${purpose} needs the package ${packageName}, which is installed but cannot be loaded (${reason ?? "unknown reason"}): reinstall it with ${installCommand(packageName)}, or npm rebuild ${packageName}`,
    );
    this.name = "OptionalPackageError";
    this.code = missing ? "PACKAGE_MISSING" : "PACKAGE_UNLOADABLE";
  }
}

/**
 * Whether `name` itself cannot be found from here (after loading it failed): then it is not installed;
 * otherwise it is there but broken (a native addon not built, one of its own dependencies missing).
 */
function notFound(name: string): boolean {
  try {
    requireHere.resolve(name);
    return false;
  } catch {
    return true;
  }
}

function shortReason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return (message.split("\n")[0] ?? "").slice(0, 200);
}

/** Load a CommonJS optional package synchronously (better-sqlite3: opening a journal is synchronous). */
export function requireOptional<T>(name: OptionalPackage, purpose: string): T {
  try {
    return requireHere(name) as T;
  } catch (e) {
    throw new OptionalPackageError(name, purpose, notFound(name), shortReason(e));
  }
}

/** Load an optional package by import(), under a name tsc does not resolve (pg). */
export async function importOptional<T>(name: OptionalPackage, purpose: string): Promise<T> {
  const specifier: string = name;
  try {
    const loaded = (await import(specifier)) as T & { default?: T };
    return loaded.default ?? loaded;
  } catch (e) {
    throw new OptionalPackageError(name, purpose, notFound(name), shortReason(e));
  }
}
