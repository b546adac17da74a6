/** Tests that build a generated package copy what its build script copies: the sdk/ data files tsc does not emit. */
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { SDK_DATA_FILES } from "../../src/emit/package/package.js";

/** Copy each sdk/ data file that exists from `fromSdk` (a generated sdk/ folder) into `toSdk` (its build). */
export function copySdkData(fromSdk: string, toSdk: string): void {
  for (const file of SDK_DATA_FILES) {
    const from = join(fromSdk, file);
    if (existsSync(from) && existsSync(toSdk)) copyFileSync(from, join(toSdk, file));
  }
}
