/**
 * Builds the checked-in generated SDKs (generated-examples/) once per test run into
 * test-results/sdk/<name>/sdk/, so end-to-end tests exercise exactly the code users get.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { copyPackageData } from "../support/sdk-data.js";

export default function setup(): void {
  execFileSync(process.execPath, [join(process.cwd(), "node_modules/typescript/bin/tsc"), "-p", "test/e2e/tsconfig.sdk.json"], { stdio: "inherit" });
  // As the generated package's build script does: the precompiled validators are plain JS beside
  // their .d.ts, and the contract and operation data are JSON, both copied rather than passed through tsc.
  for (const name of readdirSync("generated-examples")) {
    copyPackageData(join("generated-examples", name), join("test-results", "sdk", name));
  }
}
