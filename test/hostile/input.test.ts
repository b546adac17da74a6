/**
 * Hostile input where it enters the parser: file types, $ref confinement, size and count limits,
 * and nesting deep enough to overflow any recursive walk. Every case must end in a located
 * diagnostic with a stable code, quickly, never in a stack overflow or a hang.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../../src/diagnostics/codes.js";
import { formatDiagnosticText } from "../../src/diagnostics/format.js";
import { MAX_FILE_BYTES, MAX_OPERATIONS, MAX_REF_DEPTH, MAX_REF_FILES, MAX_SCHEMA_DEPTH, MAX_TOTAL_BYTES, MAX_YAML_DEPTH } from "../../src/contract/load.js";
import { parseContract, parseContractText, type ParseResult } from "../../src/contract/parse.js";
import { freshRoot, generateInto, tscStrict } from "./harness.js";

const base = mkdtempSync(join(tmpdir(), "contractgen-hostile-input-"));
let counter = 0;
/** A fresh folder holding the given files; returns its path. */
function folder(files: Record<string, string | Buffer> = {}): string {
  const dir = join(base, `case-${++counter}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/** A valid contract whose `get_item` output is `output` (YAML flow text) plus extra `types`. */
function contract(output = "{ type: object }", types = "", extraOps = ""): string {
  return [
    "contract: shop",
    'version: "1.0.0"',
    "changelog:",
    '  - { version: "1.0.0", date: "2026-01-15" }',
    "transport:",
    "  http: { baseUrl: http://127.0.0.1:4010 }",
    ...(types ? ["types:", types] : []),
    "errors:",
    "  ITEM_NOT_FOUND: { class: not_found, action: verify_identifier, http: 404 }",
    "operations:",
    "  get_item:",
    "    summary: Read one item.",
    "    http: { method: GET, path: /items }",
    "    effects: { kind: read }",
    "    input: { type: object, properties: {} }",
    `    output: ${output}`,
    "    errors: [ITEM_NOT_FOUND]",
    extraOps,
  ].join("\n");
}

const fast = <T>(f: () => T, ms = 3000): T => {
  const started = performance.now();
  const out = f();
  expect(performance.now() - started, "took too long").toBeLessThan(ms);
  return out;
};
const codesOf = (r: ParseResult) => r.diagnostics.map((d) => d.code);
const at = (r: ParseResult) => r.diagnostics.map((d) => `${d.code} ${d.location.line}:${d.location.col}`);
const mkfifo = (path: string) => execFileSync("mkfifo", [path]);

describe("$ref confinement", () => {
  it("refuses an absolute path outside the contract's folder, at the $ref, without reading it", () => {
    const dir = folder({ "c.yaml": contract('{ $ref: "/etc/passwd" }') });
    const r = fast(() => parseContract(join(dir, "c.yaml")));
    expect(at(r)).toEqual(["ref-outside-root 15:21"]);
    expect(r.diagnostics[0]!.location.file).toBe(join(dir, "c.yaml"));
    expect(JSON.stringify(r.diagnostics)).not.toMatch(/root:x|nologin/);
  });

  it("refuses ../ paths and absolute paths that leave the folder", () => {
    const dir = folder({ "outside.yaml": "types:\n  X: { type: string }\n", "spec/c.yaml": contract('{ $ref: "../outside.yaml#/types/X" }') });
    expect(codesOf(parseContract(join(dir, "spec/c.yaml")))).toEqual(["ref-outside-root"]);
    const abs = folder({ "c.yaml": contract(`{ $ref: "${join(dir, "outside.yaml")}#/types/X" }`) });
    expect(codesOf(parseContract(join(abs, "c.yaml")))).toEqual(["ref-outside-root"]);
  });

  it("refuses a symlink inside the folder that points out of it", () => {
    const outside = folder({ "secret.yaml": "types:\n  X: { type: string }\n" });
    const dir = folder({ "c.yaml": contract('{ $ref: "./link.yaml#/types/X" }') });
    symlinkSync(join(outside, "secret.yaml"), join(dir, "link.yaml"));
    expect(codesOf(parseContract(join(dir, "c.yaml")))).toEqual(["ref-outside-root"]);
    // A symlinked folder pointing out is refused the same way.
    symlinkSync(outside, join(dir, "sub"));
    const dir2 = join(dir, "c2.yaml");
    writeFileSync(dir2, contract('{ $ref: "./sub/secret.yaml#/types/X" }'));
    expect(codesOf(parseContract(dir2))).toEqual(["ref-outside-root"]);
  });

  it("follows a symlink that stays inside the folder", () => {
    const dir = folder({ "real.yaml": "types:\n  X: { type: string }\n", "c.yaml": contract('{ $ref: "./link.yaml#/types/X" }') });
    symlinkSync(join(dir, "real.yaml"), join(dir, "link.yaml"));
    expect(parseContract(join(dir, "c.yaml")).diagnostics).toEqual([]);
  });

  it("accepts files under an extra --ref-root, and nothing else", () => {
    const shared = folder({ "common.yaml": "types:\n  X: { type: string }\n" });
    const dir = folder({ "c.yaml": contract(`{ $ref: "${join(shared, "common.yaml")}#/types/X" }`) });
    expect(codesOf(parseContract(join(dir, "c.yaml")))).toEqual(["ref-outside-root"]);
    expect(parseContract(join(dir, "c.yaml"), { refRoots: [shared] }).diagnostics).toEqual([]);
  });

  it("refuses device files, FIFOs and directories quickly, without blocking or reading", () => {
    const dir = folder({ "sub/x.yaml": "a: 1\n" });
    mkfifo(join(dir, "pipe.yaml"));
    for (const target of ["./pipe.yaml", "./sub", "/dev/zero", "/dev/null"]) {
      writeFileSync(join(dir, "c.yaml"), contract(`{ $ref: "${target}" }`));
      const r = fast(() => parseContract(join(dir, "c.yaml"), { refRoots: ["/dev", "/proc"] }), 2000);
      expect(at(r), target).toEqual(["ref-not-regular-file 15:21"]);
    }
  });

  it("refuses a contract that is a device, a FIFO or a directory", () => {
    const dir = folder();
    mkfifo(join(dir, "pipe.yaml"));
    expect(codesOf(fast(() => parseContract(join(dir, "pipe.yaml")), 2000))).toEqual(["file-not-regular"]);
    expect(codesOf(fast(() => parseContract("/dev/zero"), 2000))).toEqual(["file-not-regular"]);
    expect(codesOf(fast(() => parseContract(dir), 2000))).toEqual(["file-is-directory"]);
  });

  it(`refuses more than ${MAX_REF_FILES} referenced files`, () => {
    const files: Record<string, string> = {};
    const n = MAX_REF_FILES + 5;
    for (let i = 0; i < n; i++) files[`t/${i}.yaml`] = "{ type: string }\n";
    const props = Array.from({ length: n }, (_, i) => `p${i}: { $ref: "./t/${i}.yaml" }`).join(", ");
    files["c.yaml"] = contract(`{ type: object, properties: { ${props} } }`);
    const r = fast(() => parseContract(join(folder(files), "c.yaml")), 5000);
    expect(codesOf(r)).toContain("ref-file-limit");
    expect(new Set(codesOf(r))).toEqual(new Set(["ref-file-limit"]));
  });

  it(`refuses more than ${MAX_TOTAL_BYTES} bytes across files, before reading the file that exceeds it`, () => {
    const files: Record<string, string | Buffer> = {};
    const big = Buffer.alloc(MAX_FILE_BYTES - 1024, 0x20);
    big.write("{ type: string }\n#");
    const n = Math.ceil(MAX_TOTAL_BYTES / big.length) + 1;
    for (let i = 0; i < n; i++) files[`t/${i}.yaml`] = big;
    const props = Array.from({ length: n }, (_, i) => `p${i}: { $ref: "./t/${i}.yaml" }`).join(", ");
    files["c.yaml"] = contract(`{ type: object, properties: { ${props} } }`);
    const r = fast(() => parseContract(join(folder(files), "c.yaml")), 15000);
    expect(new Set(codesOf(r))).toEqual(new Set(["ref-bytes-limit"]));
    expect(r.diagnostics[0]!.location.line).toBe(15);
  });
});

describe("deep YAML never reaches the parser", () => {
  const n = MAX_YAML_DEPTH * 10;
  const shapes: Record<string, string> = {
    "flow sequences": `a: ${"[".repeat(n)}${"]".repeat(n)}\n`,
    "flow mappings": `a: ${"{a: ".repeat(n)}1${"}".repeat(n)}\n`,
    "block mappings": Array.from({ length: n }, (_, i) => `${" ".repeat(i)}a:`).join("\n") + "\n",
    "block sequences": Array.from({ length: n }, (_, i) => `${" ".repeat(i * 2)}-`).join("\n") + "\n",
    "compact sequences": `${"- ".repeat(n)}x\n`,
    "sequences in mappings": Array.from({ length: n }, (_, i) => `${"  ".repeat(i)}- a:`).join("\n") + "\n",
    "mixed block and flow": `${Array.from({ length: n / 2 }, (_, i) => `${" ".repeat(i)}a:`).join("\n")}\n${" ".repeat(n / 2)}${"[{a: ".repeat(n / 4)}1${"}]".repeat(n / 4)}\n`,
    "inside a valid contract": contract("{ type: object }", "", `    x-deep: ${"[".repeat(n)}${"]".repeat(n)}\n`),
  };
  it.each(Object.keys(shapes))("%s", (shape) => {
    const r = fast(() => parseContractText("deep.yaml", shapes[shape]!));
    expect(codesOf(r)).toEqual(["yaml-depth-limit"]);
    expect(r.diagnostics[0]!.location.line).toBeGreaterThan(0);
  });

  it("counts depth reached through aliases too", () => {
    // Each anchor nests the previous one a little deeper: the text is shallow, the value is not.
    const lines = ["a0: &a0 [1]"];
    for (let i = 1; i < 60; i++) lines.push(`a${i}: &a${i} ${"[".repeat(60)}*a${i - 1}${"]".repeat(60)}`);
    const r = fast(() => parseContractText("alias.yaml", `${lines.join("\n")}\n`));
    expect(codesOf(r)).toEqual(["yaml-depth-limit"]);
  });

  it("keeps block scalars, quotes and comments out of the count", () => {
    const text = contract(
      "{ type: object }",
      [
        "  Doc:",
        "    description: |",
        ...Array.from({ length: 300 }, (_, i) => `      ${" ".repeat(i)}[[[[ {{ - a: '"`),
        '    title: "[[[[[[ {{{{ \\" [[["',
        "    x-note: '[[[[ '' {{{{'",
        "    # [[[[[[[[[[[[[[[[[[[[",
        "    type: string",
      ].join("\n"),
    );
    expect(parseContractText("ok.yaml", text).diagnostics).toEqual([]);
  });
});

describe("deep schemas never reach ajv", () => {
  const n = MAX_SCHEMA_DEPTH * 10;
  const nest = (open: string, close: string, k = n) => `${open.repeat(k)}{ type: string }${close.repeat(k)}`;
  const schemas: Record<string, string> = {
    properties: nest("{ type: object, properties: { a: ", " } }"),
    items: nest("{ type: array, items: ", " }"),
    allOf: nest("{ allOf: [", "] }"),
    anyOf: nest("{ anyOf: [", "] }"),
    $defs: nest("{ $defs: { a: ", " } }"),
    "items, within the YAML limit": nest("{ items: ", " }", MAX_SCHEMA_DEPTH + 10),
    "not, within the YAML limit": nest("{ not: ", " }", MAX_SCHEMA_DEPTH + 10),
  };
  it.each(Object.keys(schemas))("%s", (kind) => {
    const r = fast(() => parseContractText("deep.yaml", contract(schemas[kind])));
    expect(r.diagnostics.length).toBe(1);
    expect(["yaml-depth-limit", "schema-depth-limit"]).toContain(r.diagnostics[0]!.code);
    if (kind.includes("within")) expect(at(r)[0]).toMatch(/^schema-depth-limit 15:/);
  });

  it("checks a schema in a referenced file before ajv sees it", () => {
    const dir = folder({
      "common.yaml": `types:\n  Deep: ${nest("{ items: ", " }", MAX_SCHEMA_DEPTH + 10)}\n`,
      "c.yaml": contract('{ $ref: "./common.yaml#/types/Deep" }'),
    });
    const r = fast(() => parseContract(join(dir, "c.yaml")));
    expect(codesOf(r)).toEqual(["schema-depth-limit"]);
    expect(r.diagnostics[0]!.location.file).toBe(join(dir, "common.yaml"));
  });

  it("checks any node a $ref points at, not only declared schemas", () => {
    const text = `${contract('{ $ref: "#/x-deep" }')}\nx-deep: ${nest("{ items: ", " }", MAX_SCHEMA_DEPTH + 10)}\n`;
    const r = fast(() => parseContractText("deep.yaml", text));
    expect(at(r)).toEqual([expect.stringMatching(/^schema-depth-limit 18:/)]);
  });

  it("accepts a schema right at the limit", () => {
    expect(parseContractText("ok.yaml", contract(nest("{ items: ", " }", MAX_SCHEMA_DEPTH - 1))).diagnostics).toEqual([]);
  });
});

describe("long $ref chains", () => {
  const n = MAX_REF_DEPTH * 10;
  it("bare chains", () => {
    const types = Array.from({ length: n }, (_, i) => `  T${i}: { $ref: "#/types/T${i + 1}" }`).join("\n") + `\n  T${n}: { type: string }`;
    const r = fast(() => parseContractText("chain.yaml", contract('{ $ref: "#/types/T0" }', types)));
    expect(new Set(codesOf(r))).toEqual(new Set(["ref-depth-limit"]));
  });
  it.each(["forward", "backward"])("chains through schemas, declared %s", (order) => {
    const defs = Array.from({ length: n }, (_, i) => `  T${i}: { type: object, allOf: [{ $ref: "#/types/T${i + 1}" }], properties: { a: { $ref: "#/types/T${i + 1}" } } }`);
    defs.push(`  T${n}: { type: object }`);
    if (order === "backward") defs.reverse();
    const r = fast(() => parseContractText("chain.yaml", contract('{ $ref: "#/types/T0" }', defs.join("\n"))));
    expect(new Set(codesOf(r))).toEqual(new Set(["ref-depth-limit"]));
  });
  it("chains across files", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < n; i++) files[`f${i}.yaml`] = `{ type: object, properties: { a: { $ref: "./f${i + 1}.yaml" } } }\n`;
    files[`f${n}.yaml`] = "{ type: string }\n";
    files["c.yaml"] = contract('{ $ref: "./f0.yaml" }');
    const r = fast(() => parseContract(join(folder(files), "c.yaml")));
    expect(codesOf(r)).toContain("ref-depth-limit");
    expect(codesOf(r).every((c) => c === "ref-depth-limit" || c === "ref-file-limit")).toBe(true);
  });
  it("a chain of schemas right at the limit validates, generates code that compiles, and its validator checks every level", async () => {
    // The output's own $ref is one; then MAX_REF_DEPTH - 1 types, each holding the next (Google's
    // Content Warehouse API nests 33 deep).
    const n = MAX_REF_DEPTH - 1;
    const defs = Array.from({ length: n }, (_, i) => `  T${i}: { type: object, required: [a], properties: { a: { $ref: "#/types/T${i + 1}" } } }`);
    defs.push(`  T${n}: { type: string }`);
    const r = parseContractText("chain.yaml", contract('{ $ref: "#/types/T0" }', defs.join("\n")));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const root = freshRoot("ref-chain");
    await generateInto(join(root, "pkg"), r.model!);
    expect(tscStrict(root)).toBe("");
    const validate = new Ajv2020({ strict: false }).compile(r.model!.operations[0]!.output.schema as object);
    const nested = (leaf: unknown) => Array.from({ length: n }).reduce<unknown>((inner) => ({ a: inner }), leaf);
    expect(validate(nested("leaf"))).toBe(true);
    expect(validate(nested(7))).toBe(false);
  }, 120_000);
  it("a paging field typed through allOf references far past the limit is an error, not a stack overflow", () => {
    const m = 20_000;
    const types = Array.from({ length: m }, (_, i) => `  T${i}: { allOf: [{ $ref: "#/types/T${i + 1}" }] }`).join("\n") + `\n  T${m}: { type: array, items: { type: string } }`;
    const lister = [
      "  list_items:",
      "    summary: List.",
      "    http: { method: GET, path: /list, query: [page, size] }",
      "    effects: { kind: read }",
      "    pagination: { style: page, page: page, items: items, limit: { field: size, max: 10 } }",
      "    input: { type: object, properties: { page: { type: integer }, size: { type: integer, maximum: 10 } } }",
      '    output: { type: object, properties: { items: { $ref: "#/types/T0" } } }',
      "    errors: [ITEM_NOT_FOUND]",
    ].join("\n");
    const r = parseContractText("chain.yaml", contract(undefined, types, lister));
    expect(codesOf(r)).toContain("ref-depth-limit");
  });
  it("recursive types stay allowed", () => {
    const types = "  Node: { type: object, properties: { children: { type: array, items: { $ref: \"#/types/Node\" } } } }";
    expect(parseContractText("ok.yaml", contract('{ $ref: "#/types/Node" }', types)).diagnostics).toEqual([]);
  });
});

describe("operation count", () => {
  const ops = (k: number) =>
    Array.from({ length: k }, (_, i) => `  op_${i}: { summary: Read., http: { method: GET, path: /o${i} }, effects: { kind: read }, input: { type: object }, output: { type: object } }`).join("\n");
  it(`refuses more than ${MAX_OPERATIONS} operations before checking them`, () => {
    const r = fast(() => parseContractText("many.yaml", contract("{ type: object }", "", ops(MAX_OPERATIONS + 1))), 60_000); // yaml itself needs seconds for 10,000 entries
    expect(at(r)).toEqual(["operation-limit 9:1"]);
  });
});

describe("the limits as documented", () => {
  it("are the values the hints and docs name", () => {
    const docs = readFileSync("docs/contract-format.md", "utf8");
    const named: Array<[keyof typeof DIAGNOSTIC_CODES, string, string]> = [
      ["yaml-depth-limit", String(MAX_YAML_DEPTH), `| ${MAX_YAML_DEPTH} levels |`],
      ["schema-depth-limit", String(MAX_SCHEMA_DEPTH), `| ${MAX_SCHEMA_DEPTH} levels |`],
      ["operation-limit", MAX_OPERATIONS.toLocaleString("en-US"), `| ${MAX_OPERATIONS.toLocaleString("en-US").replace(",", " ")} |`],
      ["ref-file-limit", String(MAX_REF_FILES), `| ${MAX_REF_FILES} |`],
      ["ref-bytes-limit", `${MAX_TOTAL_BYTES / 1024 / 1024} MiB`, `(${MAX_TOTAL_BYTES.toLocaleString("en-US").replace(/,/g, " ")} bytes)`],
      ["ref-depth-limit", String(MAX_REF_DEPTH), `| ${MAX_REF_DEPTH} |`],
    ];
    for (const [code, inHint, inDocs] of named) {
      expect(DIAGNOSTIC_CODES[code].hint, code).toContain(inHint);
      expect(docs, code).toContain(inDocs);
    }
  });
});

describe("diagnostic text", () => {
  it("shows a window of a very long line, with the caret under the column", () => {
    const line = `${"x".repeat(90_000)}BAD${"y".repeat(1000)}`;
    const d = { code: "yaml-syntax" as const, severity: "error" as const, message: "m.", hint: "h", location: { file: "f", line: 1, col: 90_001, endLine: 1, endCol: 90_004, pointer: "" } };
    const text = formatDiagnosticText(d, { color: false, lineOf: () => line });
    expect(text.length).toBeLessThan(600);
    const [, source, caret] = text.split("\n");
    expect(source!.indexOf("BAD")).toBe(caret!.indexOf("^^^"));
  });
});

describe("the real CLI", () => {
  const bin = "bin/contractgen.js";
  it.skipIf(!existsSync("dist/src/cli/main.js"))("reports deep input with exit 1 and no stack trace", () => {
    const dir = folder({
      "flow.yaml": `a: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`,
      "schema.yaml": contract(`${"{ items: ".repeat(MAX_SCHEMA_DEPTH + 10)}{}${" }".repeat(MAX_SCHEMA_DEPTH + 10)}`),
      "passwd.yaml": contract('{ $ref: "/etc/passwd" }'),
      "zero.yaml": contract('{ $ref: "/dev/zero" }'),
    });
    for (const [name, code] of [["flow.yaml", "yaml-depth-limit"], ["schema.yaml", "schema-depth-limit"], ["passwd.yaml", "ref-outside-root"], ["zero.yaml", "ref-outside-root"]] as const) {
      const run = spawnSync("node", [bin, "validate", join(dir, name)], { encoding: "utf8", timeout: 20_000 });
      expect(run.status, `${name}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toContain(`[${code}]`);
      expect(run.stderr).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)|Maximum call stack|internal error|root:x/);
    }
    const zero = spawnSync("node", [bin, "validate", "--ref-root", "/dev", join(dir, "zero.yaml")], { encoding: "utf8", timeout: 20_000 });
    expect(zero.status).toBe(1);
    expect(zero.stderr).toContain("[ref-not-regular-file]");
    const dev = spawnSync("node", [bin, "validate", "/dev/zero"], { encoding: "utf8", timeout: 20_000 });
    expect(dev.status).toBe(1);
    expect(dev.stderr).toContain("[file-not-regular]");
  });
});
