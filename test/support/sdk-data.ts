/** Tests that build a generated package copy what its build script copies: the data files tsc does not emit. */
import { copyFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { PACKAGE_DATA_FILES } from "../../src/emit/package/package.js";

/**
 * Copy each data file a generated package (`from`) has into its build (`to`), where the build has
 * that folder. Tests that compile the contract tests too (a package runs them from source with
 * vitest) also get their data file.
 */
export function copyPackageData(from: string, to: string): void {
  for (const file of PACKAGE_DATA_FILES) {
    const source = join(from, file);
    const target = join(to, file);
    if (existsSync(source) && existsSync(dirname(target))) copyFileSync(source, target);
  }
}
