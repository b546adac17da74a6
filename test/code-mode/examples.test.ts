/**
 * Code mode's worked examples (src/emit/code/examples.ts), which search_docs shows beside each
 * method: every example of every bundled package type-checks against that package's own built SDK
 * (a preview's two programs each on its own), and a contract's hostile names and values stay inside
 * the JSON literals they are written as.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createTypeChecker } from "../../src/code-runtime/typecheck.js";
import { parseContractText } from "../../src/contract/parse.js";
import { codeExample } from "../../src/emit/code/examples.js";
import { clientMethodNames } from "../../src/model/naming.js";
import { BASE_HEAD } from "../hostile/support/cases.js";

const EXAMPLES = readdirSync("generated-examples", { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/** The programs of an example: a preview's is two (the preview, then the later confirmation). */
const programs = (example: string) => example.split(/\n(?=\/\/ A later execute)/);

describe("worked examples", () => {
  it.each(EXAMPLES)("every example of %s type-checks against its own SDK", (name) => {
    const tools = (JSON.parse(readFileSync(join("generated-examples", name, "sdk/contract.json"), "utf8")) as { tools: Array<{ name: string; codeExample?: string }> }).tools;
    const clientClass = /clientClass: "([A-Za-z0-9_$]+)"/.exec(readFileSync(join("generated-examples", name, "mcp/server.ts"), "utf8"))![1]!;
    const checker = createTypeChecker(resolve("test-results/sdk", name, "sdk/index.d.ts"), clientClass);
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.codeExample, tool.name).toBeTypeOf("string");
      for (const program of programs(tool.codeExample!)) {
        const checked = checker.check(program);
        expect(checked.ok ? [] : checked.errors, `${name} ${tool.name}:\n${program}`).toEqual([]);
      }
    }
  }, 60_000);

  it("writes a contract's names and documented values as JSON literals: nothing ends the string or the object it is in", () => {
    const payload = '*/ `${process.exit(1)}` "); process.exit(1); ("\u2028\n</script>';
    const spec = `${BASE_HEAD}operations:
  put_thing:
    summary: Put a thing.
    http: { method: PUT, path: /things }
    effects: { kind: mutating, destructive: false, idempotent: natural }
    input:
      type: object
      required: ["weird name", constructor, value]
      properties:
        "weird name": { type: string, default: ${JSON.stringify(payload)} }
        constructor: { type: integer }
        value: { type: string, examples: [${JSON.stringify(payload)}] }
    output: { type: object }
`;
    const parsed = parseContractText("hostile.yaml", spec);
    expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const model = parsed.model!;
    const op = model.operations[0]!;
    const example = codeExample(op, clientMethodNames(model).get(op.names.id)!);
    const out = ts.transpileModule(`async function f(client: any) {\n${example}\n}`, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } });
    expect(out.diagnostics ?? []).toEqual([]);
    // The object literal holds exactly the contract's values, as data.
    const literal = /\((\{.*\})\)/s.exec(example)![1]!;
    const value = new Function(`return (${literal});`)() as Record<string, unknown>;
    expect(value).toEqual({ "weird name": payload, constructor: 1, value: payload });
  });
});
