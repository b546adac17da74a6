import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseContract } from "../../src/spec/parse.js";

const specs = readdirSync("specs").filter((f) => f.endsWith(".yaml")).sort();

describe("bundled example contracts", () => {
  it.each(specs)("%s is valid with no warnings", (spec) => {
    const result = parseContract(`specs/${spec}`);
    expect(result.diagnostics).toEqual([]);
    expect(result.model).toBeDefined();
  });
});
