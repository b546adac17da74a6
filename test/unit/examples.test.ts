import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openContract } from "../../src/import/open.js";
import { parseContract } from "../../src/contract/parse.js";

const specs = readdirSync("specs").filter((f) => f.endsWith(".yaml")).sort();

describe("bundled example contracts", () => {
  it.each(specs)("%s is valid with no warnings", (spec) => {
    const result = parseContract(`specs/${spec}`);
    expect(result.diagnostics).toEqual([]);
    expect(result.model).toBeDefined();
  });

  it("the OpenAPI example with its overlay is valid with no warnings, and every overlay action applies", async () => {
    const result = await openContract("specs/openapi/bookshelf.yaml", { overlays: ["specs/openapi/bookshelf.overlay.yaml"], strict: true, lint: true });
    expect(result.diagnostics).toEqual([]);
    expect(result.format).toBe("openapi");
    const ops = new Map(result.model!.operations.map((o) => [o.names.id, o]));
    expect(ops.get("delete_book")?.preview).toBeDefined();
    expect(ops.get("rename_book")?.preconditions.length).toBe(1);
    expect(ops.get("create_book")?.idempotency).toBeDefined();
  });
});
