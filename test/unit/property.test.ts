/**
 * Property: whatever is done to a valid contract, `validate` never throws, every diagnostic has a
 * known code and a real location, and a contract without errors always yields a frozen model.
 */
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { DIAGNOSTIC_CODES } from "../../src/diagnostics/codes.js";
import { parseContractText, type ParseResult } from "../../src/contract/parse.js";

// Bounded by run count, not by the clock: each run parses one mutated example contract (~15 ms idle),
// so 300 runs cost ~5 s idle. The timeout below only catches a hang; it scales with the run count
// and leaves a busy CI box (other workers, 2 cores) ample room. PROPERTY_RUNS raises coverage locally.
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261130);
const HANG_TIMEOUT_MS = 60_000 + RUNS * 500;
const specs = readdirSync("specs").filter((f) => f.endsWith(".yaml")).sort().map((f) => ({ name: `specs/${f}`, text: readFileSync(`specs/${f}`, "utf8") }));

function assertWellFormed(result: ParseResult, file: string, lineCount: number): void {
  for (const d of result.diagnostics) {
    expect(Object.keys(DIAGNOSTIC_CODES)).toContain(d.code);
    expect(d.severity).toBe(DIAGNOSTIC_CODES[d.code].severity);
    expect(d.location.file).toBe(file);
    expect(d.location.line).toBeGreaterThanOrEqual(1);
    expect(d.location.line).toBeLessThanOrEqual(Math.max(1, lineCount + 1));
    expect(d.location.col).toBeGreaterThanOrEqual(1);
    expect(d.location.pointer === "" || d.location.pointer.startsWith("/")).toBe(true);
    expect(d.message.length).toBeGreaterThan(0);
  }
  const hasError = result.diagnostics.some((d) => d.severity === "error");
  expect(result.model === undefined).toBe(hasError);
  if (result.model) expect(Object.isFrozen(result.model.operations[0])).toBe(true);
}

/** All paths (as key arrays) of a JSON value, to pick a mutation site from. */
function paths(value: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

type Mutation = { kind: "delete" } | { kind: "replace"; with: unknown } | { kind: "rename"; to: string };

function mutate(root: unknown, path: Array<string | number>, m: Mutation): unknown {
  if (path.length === 0) return m.kind === "replace" ? m.with : root;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (m.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (m.kind === "replace") parent[last] = m.with;
  else if (!Array.isArray(parent)) {
    const v = parent[last];
    delete parent[last];
    parent[m.to] = v;
  }
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constant<Mutation>({ kind: "delete" }),
  fc.jsonValue({ maxDepth: 2 }).map<Mutation>((v) => ({ kind: "replace", with: v })),
  fc.constantFrom("type", "$ref", "required", "properties", "key", "idempotent", "x-unit", "__proto__", "format", "pattern", "{id}", "../x").map<Mutation>((to) => ({ kind: "rename", to })),
  fc.constantFrom<unknown>(null, "", "#/types/Nope", { $ref: "#/types/Nope" }, { $ref: "./missing.yaml#/x" }, [], {}, -1, 1e309, "[", "(").map<Mutation>((v) => ({ kind: "replace", with: v })),
);

describe("validate never throws and always locates its findings", () => {
  it("survives structural mutations of the example contracts", () => {
    const docs = specs.map((s) => ({ name: s.name, value: parse(s.text) as unknown }));
    const arbitrary = fc.integer({ min: 0, max: docs.length - 1 }).chain((i) => {
      const all = paths(docs[i]!.value);
      return fc.tuple(fc.constant(i), fc.array(fc.tuple(fc.integer({ min: 0, max: all.length - 1 }), mutation), { minLength: 1, maxLength: 3 }));
    });
    fc.assert(
      fc.property(arbitrary, ([i, steps]) => {
        let value = docs[i]!.value;
        for (const [pathIndex, m] of steps) {
          const all = paths(value);
          value = mutate(value, all[pathIndex % all.length]!, m);
        }
        const text = stringify(value, { aliasDuplicateObjects: false });
        const result = parseContractText("mutated.yaml", text);
        assertWellFormed(result, "mutated.yaml", text.split("\n").length);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, HANG_TIMEOUT_MS);

  it("survives text-level corruption of the example contracts", () => {
    const insertion = fc.constantFrom("\t", ":", "- ", "&a ", "*a", "{", "}", "[", "]", "\n", "'", '"', "#", "? ", "!!str ", "!tag ", "\u0000", "\ufeff", "---\n", "<<: *a\n");
    const arbitrary = fc.tuple(
      fc.integer({ min: 0, max: specs.length - 1 }),
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.oneof(insertion, fc.string({ maxLength: 8 }))), { minLength: 1, maxLength: 4 }),
    );
    fc.assert(
      fc.property(arbitrary, ([i, edits]) => {
        let text = specs[i]!.text;
        for (const [at, removeCount, insert] of edits) {
          const pos = at % (text.length + 1);
          text = text.slice(0, pos) + insert + text.slice(pos + removeCount);
        }
        const result = parseContractText("corrupted.yaml", text);
        assertWellFormed(result, "corrupted.yaml", text.split("\n").length);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, HANG_TIMEOUT_MS);
});
