import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The folder holding contractgen's package.json. Code runs both from src/ (tests) and from
 * dist/src/ (the built bin), so assets are found by walking up, not by a fixed relative path.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("contractgen: cannot find its package.json");
    dir = parent;
  }
  cached = dir;
  return dir;
}

/** Path of a file shipped with contractgen (schema/, templates/, src/runtime/ …). */
export function packagePath(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}
