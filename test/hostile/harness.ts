/**
 * Shared by the hostile-contract tests: generate contracts into test-results/hostile/<suite>/<case>/
 * and type-check every case with one `tsc --strict` run (one compiler start-up for the whole suite).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { emitPackage, type FileTree } from "../../src/emit/index.js";
import type { ContractModel } from "../../src/model/types.js";
import { parseContractText } from "../../src/contract/parse.js";

export const TSC = join(process.cwd(), "node_modules/typescript/bin/tsc");

/** A minimal valid contract around the given `types:` and `operations:` YAML blocks (indented two spaces). */
export function contractYaml(opts: { types?: string; operations: string; errors?: string; header?: string }): string {
  return [
    opts.header ?? "contract: hostile\nversion: 1.0.0\nchangelog:\n  - { version: 1.0.0, date: 2026-01-01 }\ntransport:\n  http: { baseUrl: \"http://127.0.0.1:1\" }",
    opts.types ? `types:\n${opts.types}` : "",
    `errors:\n${opts.errors ?? "  BAD_INPUT: { class: invalid_input, action: fix_field, http: 400 }"}`,
    `operations:\n${opts.operations}`,
    "",
  ].join("\n");
}

/** A contract with one shared type, `name`, and one read operation (`get_<name>`) that returns it. */
export function oneTypeContract(name: string, schema: string): string {
  const op = `get_${name.toLowerCase()}`;
  return contractYaml({
    types: `  ${name}: ${schema}`,
    operations: `
  ${op}:
    summary: Read.
    http: { method: GET, path: /${op} }
    effects: { kind: read }
    input: { type: object }
    output: { $ref: "#/types/${name}" }`,
  });
}

export function parseOk(name: string, yaml: string): ContractModel {
  const result = parseContractText(`${name}.yaml`, yaml);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !result.model) throw new Error(`${name}: ${errors.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  return result.model;
}

export function codesOf(name: string, yaml: string): string[] {
  return parseContractText(`${name}.yaml`, yaml).diagnostics.map((d) => d.code);
}

export function writeTree(dir: string, files: FileTree): void {
  rmSync(dir, { recursive: true, force: true });
  for (const [path, content] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export async function generateInto(dir: string, model: ContractModel): Promise<FileTree> {
  const files = await emitPackage(model);
  writeTree(dir, files);
  return files;
}

/** Type-check every generated case under `root` at once; returns tsc's output ("" when clean). */
export function tscStrict(root: string, include: readonly string[] = ["*/sdk/**/*.ts", "*/cli/**/*.ts"]): string {
  writeFileSync(
    join(root, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023", "DOM"], types: ["node"],
        strict: true, noEmit: true, skipLibCheck: true,
      },
      include,
    }),
  );
  const r = spawnSync(process.execPath, [TSC, "-p", join(root, "tsconfig.json")], { encoding: "utf8" });
  return (r.stdout + r.stderr).trim();
}

export function freshRoot(suite: string): string {
  const root = join(process.cwd(), "test-results", "hostile", suite);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  return root;
}
