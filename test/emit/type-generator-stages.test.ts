/**
 * compileChunk runs json-schema-to-typescript's stages after reference resolution itself (our
 * declarations hold no `$ref`), skipping compile()'s deep copy and resolver walk. That is only
 * right while it gives exactly what compile() gives: checked on every declaration the example
 * contracts, the hostile corpus and the schema-keyword fixtures make.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { compile } from "json-schema-to-typescript";
import { describe, expect, it, vi } from "vitest";
import { TYPES_ROOT } from "../../src/model/naming.js";
import { parseContract } from "../../src/contract/parse.js";

type Declaration = readonly [string, unknown];
const recorded: Declaration[][] = [];

vi.mock("../../src/emit/sdk/type-declarations.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/emit/sdk/type-declarations.js")>();
  return {
    ...original,
    // Records what the emitter hands the compiler, then compiles it as usual.
    declarationCompiler: (expected: number) => {
      const declarations: Declaration[] = [];
      recorded.push(declarations);
      const real = original.declarationCompiler(expected);
      return {
        add: (identifier: string, schema: unknown) => {
          declarations.push([identifier, JSON.parse(JSON.stringify(schema)) as unknown]);
          real.add(identifier, schema);
        },
        finish: () => real.finish(),
      };
    },
  };
});

const { chunkRoot, generateResolved, GENERATOR_OPTIONS } = await import("../../src/emit/sdk/type-declarations.js");
const { emitTypes } = await import("../../src/emit/sdk/types.js");

const contracts = [
  ...readdirSync("specs").filter((f) => f.endsWith(".yaml")).map((f) => join("specs", f)),
  ...readdirSync("test/hostile/corpus").filter((f) => f.endsWith(".yaml")).map((f) => join("test/hostile/corpus", f)),
  ...readdirSync("test/fixtures/valid").filter((f) => f.endsWith(".yaml")).map((f) => join("test/fixtures/valid", f)),
];

describe("the generator's stages without reference resolution", () => {
  it("give what compile() gives, for every declaration of the examples, the hostile corpus and the valid fixtures", async () => {
    let compared = 0;
    let valid = 0;
    for (const path of contracts) {
      const { model } = parseContract(path);
      if (!model) continue;
      valid++;
      recorded.length = 0;
      await emitTypes(model);
      for (const declarations of recorded) {
        for (let i = 0; i < declarations.length; i += 100) {
          const chunk = JSON.stringify(declarations.slice(i, i + 100));
          if (chunk.includes('"$ref"')) continue; // compiled by compile() itself
          const expected = await compile(chunkRoot(JSON.parse(chunk)) as never, TYPES_ROOT, GENERATOR_OPTIONS);
          expect(generateResolved(chunkRoot(JSON.parse(chunk))), path).toBe(expected);
          compared++;
        }
      }
    }
    // Every valid contract declares something, in chunks without references.
    expect(valid).toBeGreaterThan(20);
    expect(compared).toBeGreaterThanOrEqual(valid);
  });
});
