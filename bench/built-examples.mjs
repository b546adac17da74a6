// The generated example packages built as the tests build them (test/e2e/global-setup.ts): tsc into
// test-results/sdk, then the data files tsc does not emit, copied as a package's build script copies
// them (test/support/sdk-data.ts). Shared by the benchmarks that run the generated servers.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PACKAGE_DATA_FILES } from "../dist/src/emit/package/package.js";

/** Where the built packages are: test-results/sdk/<example>/. */
export const BUILT = resolve("test-results/sdk");

/** Build every generated example (unless `build` is false: reuse the last build) and copy its data files. */
export function buildExamples({ build = true } = {}) {
  if (build) {
    console.error("building generated-examples into test-results/sdk …");
    execFileSync(process.execPath, [resolve("node_modules/typescript/bin/tsc"), "-p", "test/e2e/tsconfig.sdk.json"], { stdio: "inherit" });
  }
  for (const name of readdirSync("generated-examples")) {
    for (const file of PACKAGE_DATA_FILES) {
      const source = join("generated-examples", name, file);
      const target = join(BUILT, name, file);
      if (existsSync(source) && existsSync(dirname(target))) copyFileSync(source, target);
    }
  }
}
