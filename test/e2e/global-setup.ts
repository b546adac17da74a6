/**
 * Builds the checked-in generated SDKs (generated-examples/) once per test run into
 * test-results/sdk/<name>/sdk/, so end-to-end tests exercise exactly the code users get.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export default function setup(): void {
  execFileSync(process.execPath, [join(process.cwd(), "node_modules/typescript/bin/tsc"), "-p", "test/e2e/tsconfig.sdk.json"], { stdio: "inherit" });
}
