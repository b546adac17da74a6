/**
 * A large contract's types are compiled in worker threads (type-declarations.ts), a small one's in
 * the generating thread: the same contract must give the same `sdk/types.ts` either way.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emitTypes } from "../../src/emit/sdk/types.js";
import { contractYaml, parseOk } from "../hostile/harness.js";

const TYPES = 700;
const types = Array.from({ length: TYPES }, (_, i) => `
  Node${i}:
    type: object
    description: Node ${i} of a chain of ten; the tenth ends it.
    required: [id]
    properties:
      id: { type: string, minLength: 1 }
      next: ${i % 10 !== 9 ? `{ $ref: "#/types/Node${i + 1}" }` : "{ type: \"null\" }"}`).join("");
const operations = Array.from({ length: 20 }, (_, i) => `
  get_node_${i}:
    summary: Read one node.
    http: { method: GET, path: "/nodes${i}/{id}" }
    effects: { kind: read }
    input: { type: object, required: [id], properties: { id: { type: string } } }
    output: { $ref: "#/types/Node${i * 30}" }`).join("");

/** Over the size from which generate starts the type workers before parsing (prepareToEmit). */
const padding = `  Padding:\n    type: string\n    description: "${"a contract this large starts its type workers early. ".repeat(6000)}"\n`;

function freshDir(name: string): string {
  const dir = join(process.cwd(), "test-results", "types-parallel", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe(`sdk/types.ts of ${TYPES} shared types`, () => {
  it.skipIf(availableParallelism() < 2)("is the same from the CLI (worker threads, started before the parse) as from one thread", async () => {
    const dir = freshDir("large");
    const text = contractYaml({ types: types + "\n" + padding, operations });
    expect(text.length).toBeGreaterThan(256 * 1024);
    writeFileSync(join(dir, "contract.yaml"), text);
    const run = spawnSync(process.execPath, ["bin/contractgen.js", "generate", join(dir, "contract.yaml"), "-o", join(dir, "out"), "--no-progress"], { encoding: "utf8" });
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.status).toBe(0);
    const fromCli = readFileSync(join(dir, "out", "sdk", "types.ts"), "utf8");
    const inThread = await emitTypes(parseOk("chain", text));
    expect(fromCli).toBe(inThread);
    expect(fromCli).toContain("export interface Node699 {");
    expect(fromCli).toContain("next?: Node1;");
  });

  it("from a large file that is invalid, or has few declarations, exits as soon as it is done", () => {
    const dir = freshDir("early-unused");
    const invalid = contractYaml({ types: padding, operations: "  broken: { summary: 1 }" });
    writeFileSync(join(dir, "invalid.yaml"), invalid);
    const bad = spawnSync(process.execPath, ["bin/contractgen.js", "generate", join(dir, "invalid.yaml"), "-o", join(dir, "bad"), "--no-progress"], { encoding: "utf8", timeout: 60_000 });
    expect(bad.error).toBeUndefined(); // not timed out: the idle workers do not hold the process
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/invalid; nothing was generated/);

    const one = `
  get_padding:
    summary: Read the padding.
    http: { method: GET, path: "/padding" }
    effects: { kind: read }
    input: { type: object }
    output: { $ref: "#/types/Padding" }`;
    const few = contractYaml({ types: padding, operations: one });
    writeFileSync(join(dir, "few.yaml"), few);
    const ok = spawnSync(process.execPath, ["bin/contractgen.js", "generate", join(dir, "few.yaml"), "-o", join(dir, "out"), "--no-progress"], { encoding: "utf8", timeout: 60_000 });
    expect(ok.error).toBeUndefined();
    expect(ok.stderr).not.toMatch(/internal error/);
    expect(ok.status).toBe(0);
    expect(readFileSync(join(dir, "out", "sdk", "types.ts"), "utf8")).toContain("export type Padding = string;");
  });
});
