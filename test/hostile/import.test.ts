/**
 * Hostile OpenAPI documents for `contractgen import-openapi`: names and descriptions that try to
 * break out of YAML, Markdown or generated code, `__proto__` keys, and `$ref`s that leave the
 * document's folder. Also the CLI's refusals: never a stack trace, never overwriting a file it did
 * not write.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { buildProgram, type Io } from "../../src/cli/main.js";
import { importOpenApi, reportMarkdown } from "../../src/import/openapi/index.js";
import { parseContractText } from "../../src/contract/parse.js";
import { freshRoot, generateInto, tscStrict } from "./harness.js";

let root: string;
beforeAll(() => {
  root = freshRoot("import");
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  let code = 0;
  const io: Io = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), color: false };
  try {
    await buildProgram(io, (c) => void (code = c)).parseAsync(["node", "contractgen", ...args]);
  } catch (e) {
    code = (e as { exitCode?: number }).exitCode ?? 99;
  }
  return { code, out, err };
}

const EVIL = "Evil */ /* `backtick` ${process.exit(1)} \"quote\" 'single' <script>\n# not a comment\n---";

function hostileDoc(): object {
  const props: Record<string, unknown> = {};
  Object.defineProperty(props, "__proto__", { value: { type: "string", description: EVIL }, enumerable: true });
  props["constructor"] = { type: "integer" };
  props["*/"] = { type: "boolean" };
  const schemas: Record<string, unknown> = {};
  Object.defineProperty(schemas, "__proto__", { value: { type: "object", properties: props }, enumerable: true });
  schemas["Name*/`x`"] = { type: "string", enum: [EVIL, "__proto__"] };
  return {
    openapi: "3.1.0",
    info: { title: EVIL, version: "1.0.0", description: EVIL },
    tags: [{ name: "*/ tag `x`", description: EVIL }],
    paths: {
      "/things/{id}": {
        get: {
          operationId: "get*/thing`x`",
          summary: EVIL,
          description: EVIL,
          tags: ["*/ tag `x`"],
          parameters: [
            { name: "id", in: "path", required: true, description: EVIL, schema: { type: "string" } },
            { name: "__proto__", in: "query", schema: { type: "string" } },
          ],
          responses: { "200": { description: EVIL, content: { "application/json": { schema: { $ref: "#/components/schemas/__proto__" } } } }, "404": { description: EVIL } },
        },
      },
    },
    components: { schemas },
  };
}

describe("hostile names and text", () => {
  it("import keeps strings verbatim in YAML, the contract validates, and the generated code compiles", async () => {
    const file = join(root, "evil.json");
    writeFileSync(file, JSON.stringify(hostileDoc()));
    const r = await importOpenApi(file);
    expect(r.problems.filter((p) => p.severity === "error")).toEqual([]);
    const contract = parse(r.yaml!) as Record<string, any>;
    expect(contract.title).toBe(EVIL.trim());
    const op = contract.operations.get_thing_x;
    expect(op.description).toBe(EVIL.trim());
    expect(Object.prototype.hasOwnProperty.call(op.input.properties, "__proto__")).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(contract.types, "proto")).toBe(true);
    expect(Object.getPrototypeOf(contract.types.proto.properties)).toBe(Object.prototype);
    expect(Object.keys(contract.types.proto.properties)).toEqual(["__proto__", "constructor", "*/"]);
    const parsed = parseContractText("evil.yaml", r.yaml!);
    expect(parsed.diagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([]);
    await generateInto(join(root, "pkg", "evil"), parsed.model!);
    expect(tscStrict(join(root, "pkg"))).toBe("");
    // The Markdown report cannot be broken out of: no raw newline or backtick from a name reaches a line.
    const md = reportMarkdown(r.report!);
    for (const line of md.split("\n")) expect(line.includes("# not a comment")).toBe(false);
  });
});

describe("$ref outside the document's folder", () => {
  it("is refused at the $ref with a code that says why, and the outside file is not read", async () => {
    const dir = join(root, "refs", "api");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(root, "refs", "secret.yaml"), "type: string\ndescription: SECRET-CONTENT\n");
    symlinkSync(join(root, "refs", "secret.yaml"), join(dir, "link.yaml"));
    const codes: Record<string, string> = { "../secret.yaml": "openapi-ref-outside-root", "./link.yaml": "openapi-ref-outside-root", "/etc/hostname": "openapi-ref-outside-root", "https://example.invalid/x.yaml": "openapi-ref-remote" };
    for (const [target, code] of Object.entries(codes)) {
      const doc = { openapi: "3.0.3", info: { title: "t", version: "1.0.0" }, paths: { "/a": { get: { operationId: "a", responses: { "200": { description: "", content: { "application/json": { schema: { $ref: target } } } } } } } } };
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
      const r = await run(["import-openapi", join(dir, "openapi.json"), "-o", join(dir, "out.yaml")]);
      expect(r.code, target).toBe(1);
      expect(r.err).toContain(`[${code}]`);
      expect(r.err).not.toContain("SECRET-CONTENT");
      expect(r.err).not.toMatch(/\n\s+at .*\.js:\d+/); // no stack trace
    }
  });
});

describe("the CLI", () => {
  const doc = JSON.stringify({ openapi: "3.0.3", info: { title: "Small", version: "1.0.0" }, paths: { "/a": { get: { operationId: "a", responses: { "200": { description: "" } } } } } });

  it("writes the contract and the report, replaces its own unedited output, refuses hand-written or edited files", async () => {
    const dir = join(root, "cli");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const src = join(dir, "openapi.json");
    writeFileSync(src, doc);
    const out = join(dir, "contract.yaml");
    const first = await run(["import-openapi", src, "-o", out, "--report", join(dir, "review")]);
    expect(first.code).toBe(0);
    expect(first.out).toContain("imported 1 operations");
    expect(readFileSync(join(dir, "review.md"), "utf8")).toContain("# Import review");
    expect(JSON.parse(readFileSync(join(dir, "review.json"), "utf8")).operations).toBe(1);
    expect((await run(["import-openapi", src, "-o", out, "--report", join(dir, "review")])).code).toBe(0);

    writeFileSync(out, `${readFileSync(out, "utf8")}# my edit\n`);
    const edited = await run(["import-openapi", src, "-o", out]);
    expect(edited.code).toBe(2);
    expect(edited.err).toContain("refusing to overwrite");
    expect(readFileSync(out, "utf8")).toContain("# my edit");
    expect((await run(["import-openapi", src, "-o", out, "--force"])).code).toBe(0);

    const mine = join(dir, "mine.yaml");
    writeFileSync(mine, "contract: mine\n");
    expect((await run(["import-openapi", src, "-o", mine])).code).toBe(2);
    expect(readFileSync(mine, "utf8")).toBe("contract: mine\n");
    symlinkSync(mine, join(dir, "link.yaml"));
    expect((await run(["import-openapi", src, "-o", join(dir, "link.yaml"), "--force"])).code).toBe(2);
    expect(readFileSync(mine, "utf8")).toBe("contract: mine\n");
  });

  it("refuses Swagger 2.0, non-OpenAPI, broken YAML, no operations, a missing file and a directory with a code, never a stack trace", async () => {
    const dir = join(root, "cli-bad");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "swagger.json"), JSON.stringify({ swagger: "2.0", info: { title: "x", version: "1" }, paths: {} }));
    writeFileSync(join(dir, "list.json"), "[1, 2]");
    writeFileSync(join(dir, "broken.yaml"), "openapi: 3.0.0\ninfo: {title: x\n  paths: [\n");
    const cases: Array<[string, string]> = [
      [join(dir, "swagger.json"), "openapi-version-unsupported"],
      [join(dir, "list.json"), "openapi-invalid"],
      [join(dir, "broken.yaml"), "yaml-syntax"],
      ["node_modules/@readme/oas-examples/3.1/yaml/webhooks.yaml", "openapi-no-operations"],
      [join(dir, "missing.json"), "file-not-found"],
      [dir, "file-is-directory"],
    ];
    for (const [file, code] of cases) {
      const r = await run(["import-openapi", file, "-o", join(dir, "out.yaml")]);
      expect(r.code, file).toBe(1);
      expect(r.err).toContain(`[${code}]`);
      expect(r.err).not.toMatch(/\n\s+at .*\.js:\d+/);
    }
  });

  it("--tag takes names as data (__proto__, control characters), refuses an unknown one, and writes nothing then", async () => {
    const dir = join(root, "cli-tags");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const src = join(dir, "openapi.json");
    const ok = { "200": { description: "" } };
    writeFileSync(src, JSON.stringify({ openapi: "3.0.3", info: { title: "Tags", version: "1.0.0" }, paths: {
      "/a": { get: { operationId: "a", tags: ["__proto__"], responses: ok } },
      "/b": { get: { operationId: "b", tags: ["constructor", "\u001b[31mred"], responses: ok } },
    } }));
    const out = join(dir, "contract.yaml");
    const proto = await run(["import-openapi", src, "-o", out, "--tag", "__proto__"]);
    expect(proto.code).toBe(0);
    expect(Object.keys((parse(readFileSync(out, "utf8")) as { operations: object }).operations)).toEqual(["a"]);
    rmSync(out);
    const unknown = await run(["import-openapi", src, "-o", out, "--tag", "toString", "--tag", "\u001b[2J"]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("[openapi-tag-unknown]");
    expect(unknown.err).not.toContain("\u001b");
    expect(() => readFileSync(out)).toThrow();
  });
});
