/** Meta-tests over the rule-code table: each code is documented and pinned by a fixture. */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../../src/diagnostics/codes.js";
import { parseContract } from "../../src/contract/parse.js";

const codes = Object.keys(DIAGNOSTIC_CODES) as Array<keyof typeof DIAGNOSTIC_CODES>;

/** Codes that cannot be written as a fixture file, and where they are tested instead. */
const FIXTURE_WAIVERS: Record<string, string> = {
  "file-not-found": "test/unit/load.test.ts (a path that does not exist)",
  "file-is-directory": "test/unit/load.test.ts (a directory)",
  "file-too-large": "test/unit/load.test.ts (generated at test time)",
  "file-binary": "test/unit/load.test.ts (NUL bytes, invalid UTF-8)",
  "file-unreadable": "needs a permission error, which root (CI) never gets; mapped in load.ts next to file-not-found",
  "file-not-regular": "test/hostile/input.test.ts (a FIFO made at test time, /dev/zero)",
  "operation-limit": "test/hostile/input.test.ts (10,001 operations generated at test time)",
  "ref-file-limit": "test/hostile/input.test.ts (261 referenced files generated at test time)",
  "ref-bytes-limit": "test/hostile/input.test.ts (over 32 MiB of referenced files generated at test time)",
  "openapi-invalid": "an OpenAPI import code, not a contract one: src/import/openapi/read.ts (an unparseable document)",
  "openapi-version-unsupported": "test/hostile/import.test.ts (a Swagger 2.0 document)",
  "openapi-ref-unresolved": "test/hostile/import.test.ts ($refs outside the document's folder, through a symlink, absolute, URL)",
  "diff-schema-too-large": "a diff warning, not a validation one: test/cli/diff.test.ts (definitions doubling per level, generated at test time)",
  "openapi-no-operations": "an OpenAPI import code, not a contract one: src/import/openapi/index.ts (webhooks.yaml of @readme/oas-examples has none)",
  "openapi-tag-unknown": "an OpenAPI import code, not a contract one: test/import/openapi.test.ts and test/hostile/import.test.ts (--tag naming no operation's tag)",
  "openapi-contract-too-large": "an OpenAPI import code, not a contract one: test/import/openapi.test.ts (a document whose contract would pass 10 MiB), test/hostile/import-corpus gen-huge-string",
  "openapi-operation-limit": "an OpenAPI import code: test/hostile/import-corpus gen-operations-10001, gen-operations-200000 (generated at test time)",
  "openapi-strict": "an OpenAPI import code: test/hostile/import-corpus dynamic-ref-strict, test/import/openapi.test.ts (--strict)",
  "openapi-ref-remote": "an OpenAPI import code: test/hostile/import-corpus ref-scheme-uppercase, ref-protocol-relative, ref-backslashes, ref-https, ref-file-url, ref-data-url",
  "openapi-ref-unsupported": "an OpenAPI import code: test/hostile/import-corpus ref-relative-under-id",
  "openapi-ref-outside-root": "an OpenAPI import code: test/hostile/import-corpus ref-outside, ref-absolute, ref-proc-environ, ref-dev-zero, gen-ref-symlink-out",
  "openapi-ref-not-regular-file": "an OpenAPI import code: test/hostile/import-corpus ref-directory, gen-ref-fifo, gen-ref-symlink-loop",
  "openapi-ref-depth-limit": "an OpenAPI import code: test/hostile/import-corpus gen-ref-chain-10000, gen-ref-chain-properties-10000, gen-file-chain-100",
  "openapi-ref-file-limit": "an OpenAPI import code: test/hostile/import-corpus gen-many-files (300 files generated at test time)",
  "openapi-ref-bytes-limit": "an OpenAPI import code: test/hostile/import-corpus gen-huge-ref-target (a 400 MB sparse file generated at test time)",
  "openapi-alias-limit": "an OpenAPI import code: test/hostile/import-corpus alias-bomb-enum, alias-bomb-example, alias-bomb-default, alias-schema-tree",
  "openapi-nodes-limit": "an OpenAPI import code: test/hostile/import-corpus gen-yaml-values, gen-json-values (generated at test time)",
  "openapi-entries-limit": "an OpenAPI import code: test/hostile/import-corpus gen-wide-mapping (200,000 component schemas generated at test time)",
  "overlay-needs-openapi": "a command-line code: test/cli/openapi-input.test.ts (--overlay with a contract)",
  "openapi-schema-depth-limit": "an OpenAPI import code: test/hostile/import-corpus gen-deep-schema-items, gen-deep-schema-properties",
  "overlay-invalid": "an OpenAPI overlay code: test/import/overlay.test.ts",
  "overlay-jsonpath-invalid": "an OpenAPI overlay code: test/import/overlay.test.ts",
  "overlay-target-unmatched": "an OpenAPI overlay code: test/import/overlay.test.ts",
  "overlay-target-not-container": "an OpenAPI overlay code: test/import/overlay.test.ts",
  "overlay-copy-ambiguous": "an OpenAPI overlay code: test/import/overlay.test.ts",
  "overlay-ref-outside-root": "an OpenAPI overlay code: test/import/overlay.test.ts",
  "overlay-update-invalid": "an OpenAPI overlay code: test/import/overlay.test.ts",
};

describe("the diagnostic code table", () => {
  it("uses kebab-case codes with a title and an actionable hint", () => {
    for (const code of codes) {
      expect(code).toMatch(/^[a-z]+(-[a-z0-9]+)+$/);
      expect(DIAGNOSTIC_CODES[code].title).toMatch(/\.$/);
      expect(DIAGNOSTIC_CODES[code].hint.length).toBeGreaterThan(15);
    }
  });

  it.each(codes)("%s is documented in docs/contract-format.md", (code) => {
    expect(readFileSync("docs/contract-format.md", "utf8")).toContain(`\`${code}\``);
  });

  it.each(codes)("%s has a fixture (or a written waiver)", (code) => {
    if (FIXTURE_WAIVERS[code]) return;
    expect(existsSync(`test/fixtures/invalid/${code}.yaml`), `test/fixtures/invalid/${code}.yaml`).toBe(true);
  });
});

describe("hostile but valid contracts", () => {
  it("are accepted and their strings kept verbatim for emitters to escape", () => {
    const result = parseContract("test/fixtures/valid/hostile.yaml");
    expect(result.diagnostics).toEqual([]);
    const model = result.model!;
    expect(model.title).toBe("Hostile */ /* <script> ${'$'}{process.exit(1)} `backtick`");
    const del = model.operations.find((o) => o.names.id === "delete")!;
    expect(del.names.camel).toBe("delete");
    expect(del.summary).toBe("Deletes */ things; `rm -rf /` ${HOME}");
    const weird = model.types.find((t) => t.name === "Weird")!.schema.schema as { properties: Record<string, unknown> };
    expect(Object.keys(weird.properties)).toContain("__proto__");
    expect(Object.prototype.hasOwnProperty.call(weird.properties, "__proto__")).toBe(true);
  });
});
