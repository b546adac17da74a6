/**
 * A skeleton's host contract (mcp/contract.json) names the SDK's stored schemas (sdk/schemas.json)
 * instead of repeating them: loaded back, every operation's input, output and preview schema says
 * what the contract's says (shared types inlined on both sides), for contracts with shared and
 * recursive types.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { emitPackage } from "../../src/emit/index.js";
import { hostContract } from "../../src/emit/mcp/skeleton.js";
import { loadHostContract } from "../../src/host-runtime/contract.js";
import { parseContract } from "../../src/contract/parse.js";

const work = mkdtempSync(join(tmpdir(), "host-contract-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The schema with every local `#/$defs/` reference replaced by its definition (a cycle becomes a marker). */
function inlined(schema: unknown, root: unknown = schema, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlined(s, root, seen));
  if (schema === null || typeof schema !== "object") return schema;
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/$defs/")) {
    const name = node.$ref.slice("#/$defs/".length);
    const target = ((root as Record<string, unknown>).$defs as Record<string, unknown>)[name] as Record<string, unknown>;
    // A type reaching itself: the same marker on both sides, whatever the def is called there.
    const key = JSON.stringify(Object.keys(target).sort()) + JSON.stringify(target.description ?? null) + JSON.stringify(target.type ?? null);
    if (seen.includes(key)) return { $cycle: key };
    const { $ref: _ref, ...rest } = node;
    return { ...(inlined(rest, root, seen) as object), $inlined: inlined(target, root, [...seen, key]) };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (k !== "$defs") out[k] = inlined(v, root, seen);
  return out;
}

describe("host contract data", () => {
  for (const spec of ["specs/billing.v2.yaml", "specs/incidents.yaml", "test/fixtures/refs/main.yaml"]) {
    it(`${spec}: the schemas loaded through sdk/schemas.json are the contract's`, async () => {
      const model = parseContract(spec).model;
      if (!model) return expect.fail(`${spec} did not parse`);
      const files = await emitPackage(model, { mcp: "skeleton" });
      const dir = join(work, model.name);
      for (const [path, text] of files) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      expect(files.get("mcp/contract.json")!.length).toBeLessThan(files.get("sdk/schemas.json")!.length + 20_000);
      const loaded = loadHostContract(pathToFileURL(join(dir, "mcp/contract.json")));
      const expected = hostContract(model);
      expect(loaded.operations.map((op) => op.names.id)).toEqual(expected.operations.map((op) => op.names.id));
      loaded.operations.forEach((op, i) => {
        const want = expected.operations[i]!;
        expect(inlined(op.input.schema), `${op.names.id} input`).toEqual(inlined(want.input.schema));
        expect(inlined(op.output.schema), `${op.names.id} output`).toEqual(inlined(want.output.schema));
        expect(inlined(op.preview?.output?.schema ?? null), `${op.names.id} preview`).toEqual(inlined(want.preview?.output?.schema ?? null));
        expect({ ...op, input: null, output: null, preview: op.preview ? { ...op.preview, output: null } : null }).toEqual({ ...want, input: null, output: null, preview: want.preview ? { ...want.preview, output: null } : null });
      });
      expect(loaded.errors.map((e) => inlined(e.details?.schema ?? null))).toEqual(expected.errors.map((e) => inlined(e.details?.schema ?? null)));
    });
  }
});
