/**
 * sdk/index.ts names the contract types that clash with runtime exports, reading the runtime's
 * exports from its source text (src/emit/sdk/exported-names.ts). This holds that reader to
 * TypeScript's own view of the runtime, so a new kind of export cannot slip past it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { declaredExports, moduleExports } from "../../src/emit/sdk/exported-names.js";

const RUNTIME = join(process.cwd(), "src", "runtime");

describe("the runtime's exported names", () => {
  it("are what TypeScript says src/runtime/index.ts exports", () => {
    const sources = new Map(readdirSync(RUNTIME).filter((f) => f.endsWith(".ts")).map((f) => [f, readFileSync(join(RUNTIME, f), "utf8")]));
    const program = ts.createProgram([join(RUNTIME, "index.ts")], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, noEmit: true, types: [] });
    const checker = program.getTypeChecker();
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(join(RUNTIME, "index.ts"))!)!;
    const expected = checker.getExportsOfModule(symbol).map((s) => s.getName()).sort();
    expect(expected.length).toBeGreaterThan(40);
    expect([...moduleExports(sources, "index.ts")].sort()).toEqual(expected);
  });

  it("reads declarations, export lists with renames and type-only items, and not what is not exported", () => {
    const text = [
      "export interface A {}",
      "export type B = string;",
      "export abstract class C {}",
      "export async function d() {}",
      "export const E = 1;",
      "export { f, g as H, type I };",
      "export type { J as K };",
      "interface Hidden {}",
      "const hidden = 1;",
      "  export const indented = 1;",
    ].join("\n");
    expect([...declaredExports(text)].sort()).toEqual(["A", "B", "C", "E", "H", "I", "K", "d", "f"]);
  });
});
