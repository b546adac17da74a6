/** How input schemas become CLI flags, and how the CLI runtime parses them (in process, fake client). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { operationFlags } from "../../src/emit/cli/commands.js";
import { runCli, type CommandSpec } from "../../src/cli-runtime/program.js";
import { parseContractText } from "../../src/contract/parse.js";

const model = parseContractText(
  "flags.yaml",
  `contract: flags
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
errors: { BAD: { class: invalid_input, action: fix_field, http: 400 } }
types:
  Level: { type: string, enum: [low, high] }
operations:
  search:
    summary: Search.
    http: { method: GET, path: /search }
    effects: { kind: read }
    input:
      type: object
      required: [q]
      properties:
        q: { type: string, description: Query text. }
        count: { type: integer, minimum: 1, maximum: 50, default: 10, x-unit: items }
        ratio: { type: number, exclusiveMinimum: 0 }
        exact: { type: boolean }
        level: { $ref: "#/types/Level" }
        tags: { type: array, items: { type: string } }
        ids: { type: array, items: { type: integer } }
        filter: { type: object, properties: { a: { type: string } } }
        output: { type: string }
        year: { anyOf: [{ type: integer }, { type: string, pattern: "^c\\\\. [0-9]+$" }] }
        flag: { type: [boolean, string, "null"] }
        mixed: { oneOf: [{ type: integer }, { type: object }] }
    output: { type: object }
`,
).model!;

describe("flags from the input schema", () => {
  it("types each scalar and scalar-array field; structured fields are --input only; reserved names are prefixed", () => {
    const { flags, inputOnly } = operationFlags(model.operations[0]!);
    expect(flags.map((f) => [f.flag, f.type, f.itemType ?? null, f.required])).toEqual([
      ["q", "string", null, true],
      ["count", "integer", null, false],
      ["ratio", "number", null, false],
      ["exact", "boolean", null, false],
      ["level", "string", null, false],
      ["tags", "array", "string", false],
      ["ids", "array", "integer", false],
      ["set-output", "string", null, false],
      ["year", "integer", null, false],
      ["flag", "boolean", null, false],
    ]);
    expect(flags.find((f) => f.flag === "year")!.alternatives).toEqual(["integer", "string"]);
    expect(flags.find((f) => f.flag === "flag")!.alternatives).toEqual(["boolean", "string"]);
    expect(flags.find((f) => f.flag === "count")).toMatchObject({ minimum: 1, maximum: 50, description: "Unit: items. Default: 10." });
    expect(flags.find((f) => f.flag === "level")!.enum).toEqual(["low", "high"]);
    expect(inputOnly).toEqual(["filter", "mixed"]);
  });
});

describe("the CLI runtime", () => {
  const { flags, inputOnly } = operationFlags(model.operations[0]!);
  const spec: CommandSpec = {
    operation: "search", name: "search", group: null, summary: "Search.", details: "", sdkMethod: "search", previewMethod: null, allMethod: null,
    flags, inputOnly, keyField: null, dryRunField: null, confirmTokenField: null, defaultDryRun: null, fieldsField: null, cursorField: null,
  };
  async function run(args: string[]) {
    const calls: unknown[] = [];
    let stdout = "";
    let stderr = "";
    const code = await runCli(
      { name: "flags", version: "1.0.0", description: "", tokenEnv: null, commands: [spec], createClient: () => ({ search: async (input: unknown) => (calls.push(input), { ok: true }), close() {} }) },
      args,
      { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => "{}" },
    );
    return { code, calls, stdout, stderr };
  }

  it("parses typed values, repeated arrays and booleans into the input", async () => {
    const r = await run(["search", "--q", "x", "--count", "5", "--ratio", "0.5", "--exact", "--level", "high", "--tags", "a", "--tags", "b", "--ids", "1", "--ids", "2", "--set-output", "o"]);
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([{ q: "x", count: 5, ratio: 0.5, exact: true, level: "high", tags: ["a", "b"], ids: [1, 2], output: "o" }]);
    expect(JSON.parse(r.stdout)).toEqual({ ok: true });
  });

  it("reads a field of several scalar types as the first type its text is", async () => {
    const r = await run(["search", "--q", "x", "--year", "1450", "--flag", "true"]);
    expect(r.calls).toEqual([{ q: "x", year: 1450, flag: true }]);
    const text = await run(["search", "--q", "x", "--year", "c. 1450", "--flag", "maybe"]);
    expect(text.calls).toEqual([{ q: "x", year: "c. 1450", flag: "maybe" }]);
  });

  it.each([
    [["search", "--q", "x", "--count", "51"], "must be at most 50"],
    [["search", "--q", "x", "--count", "2.5"], "expected an integer"],
    [["search", "--q", "x", "--ratio", "0"], "must be more than 0"],
    [["search", "--q", "x", "--level", "medium"], "Allowed choices are low, high"],
    [["search", "--q", "x", "--ids", "one"], "expected an integer"],
    [["search", "--q", "x", "--exact", "maybe"], "expected true or false"],
    [["search"], "missing required --q"],
  ])("refuses %j before any request, with nothing on stdout, its JSON on stderr and exit 2", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.calls).toEqual([]);
    expect(r.stdout).toBe("");
    expect(JSON.parse(r.stderr.split("\n", 1)[0]!).error.message).toContain(message);
  });
});

describe("arrays and results on the command line", () => {
  const { flags, inputOnly } = operationFlags(model.operations[0]!);
  const spec: CommandSpec = {
    operation: "search", name: "search", group: null, summary: "Search.", details: "", sdkMethod: "search", previewMethod: null, allMethod: null,
    flags, inputOnly, keyField: null, dryRunField: null, confirmTokenField: null, defaultDryRun: null, fieldsField: null, cursorField: null,
  };
  async function run(args: string[], result: unknown = { ok: true }) {
    const calls: unknown[] = [];
    let stdout = "";
    let stderr = "";
    const code = await runCli(
      { name: "flags", version: "1.0.0", description: "", credentialEnv: ["FLAGS_USER", "FLAGS_PASSWORD"], baseUrlEnv: "FLAGS_BASE_URL", commands: [spec], createClient: () => ({ search: async (input: unknown) => (calls.push(input), result), close() {} }) },
      args,
      { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => "{}" },
    );
    return { code, calls, stdout, stderr };
  }

  it("an empty JSON array passes an empty array; a JSON array joins repeated values", async () => {
    expect((await run(["search", "--q", "x", "--tags", "[]"])).calls).toEqual([{ q: "x", tags: [] }]);
    expect((await run(["search", "--q", "x", "--tags", '["a","b"]', "--tags", "c", "--ids", "[1,2]"])).calls).toEqual([{ q: "x", tags: ["a", "b", "c"], ids: [1, 2] }]);
  });

  it("a JSON array's items are checked like repeated values", async () => {
    const r = await run(["search", "--q", "x", "--ids", '[1,"two"]']);
    expect(r.code).toBe(2);
    expect(r.calls).toEqual([]);
    expect(JSON.parse(r.stderr.split("\n", 1)[0]!).error.message).toContain("expected an integer");
    expect((await run(["search", "--q", "x", "--ids", "[not json"])).code).toBe(2);
    // A string item that starts with [ but is no JSON array is a string.
    expect((await run(["search", "--q", "x", "--tags", "[not json"])).calls).toEqual([{ q: "x", tags: ["[not json"] }]);
  });

  it("a result with a top-level error property is a result: on stdout alone, exit 0", async () => {
    const result = { error: { code: "NOT_AN_ERROR", message: "a field the platform returns" }, id: "r1" };
    const r = await run(["search", "--q", "x"], result);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(result);
    expect(r.stderr).toBe("");
  });

  it("--help documents stdout and stderr, JSON arrays, the base URL variable and every credential variable", async () => {
    const r = await run(["--help"]);
    for (const text of ["An error prints nothing on stdout", "--tags '[]'", "FLAGS_BASE_URL", "FLAGS_USER, FLAGS_PASSWORD"]) expect(r.stdout).toContain(text);
  });

  it("reads the base URL from its variable when --base-url is not given", async () => {
    const settings: unknown[] = [];
    const saved = process.env.FLAGS_BASE_URL;
    process.env.FLAGS_BASE_URL = "http://127.0.0.1:9/from-env";
    try {
      const def = { name: "flags", version: "1.0.0", description: "", baseUrlEnv: "FLAGS_BASE_URL", commands: [spec], createClient: (s: unknown) => (settings.push(s), { search: async () => ({}), close() {} }) };
      const io = { stdout: () => undefined, stderr: () => undefined, stdin: () => "{}" };
      await runCli(def, ["search", "--q", "x"], io);
      await runCli(def, ["--base-url", "http://127.0.0.1:9/flag", "search", "--q", "x"], io);
    } finally {
      if (saved === undefined) delete process.env.FLAGS_BASE_URL;
      else process.env.FLAGS_BASE_URL = saved;
    }
    // baseUrlSetting: how the client's "nothing is listening" error tells the user to point it elsewhere.
    const setting = "--base-url or FLAGS_BASE_URL";
    expect(settings).toEqual([
      { baseUrl: "http://127.0.0.1:9/from-env", baseUrlSetting: setting },
      { baseUrl: "http://127.0.0.1:9/flag", baseUrlSetting: setting },
    ]);
  });
});

describe("file flags (multipart file fields)", () => {
  const upload = parseContractText(
    "upload.yaml",
    `contract: upload
version: 1.0.0
changelog: [{ version: 1.0.0, date: 2026-01-01 }]
transport: { http: { baseUrl: "http://127.0.0.1:1" } }
errors: { BAD: { class: invalid_input, action: fix_field, http: 400 } }
operations:
  upload:
    summary: Upload a file.
    http: { method: POST, path: /files, contentType: multipart/form-data, encoding: { file: { contentType: application/pdf } } }
    effects: { kind: mutating, idempotent: none, destructive: false }
    input:
      type: object
      required: [file]
      properties:
        file: { type: string, contentEncoding: base64 }
        purpose: { type: string }
    output: { type: object }
`,
  ).model!;
  const { flags, inputOnly } = operationFlags(upload.operations[0]!);
  const spec: CommandSpec = {
    operation: "upload", name: "upload", group: null, summary: "Upload.", details: "", sdkMethod: "upload", previewMethod: null, allMethod: null,
    flags, inputOnly, keyField: null, dryRunField: null, confirmTokenField: null, defaultDryRun: null, fieldsField: null, cursorField: null,
  };
  async function run(args: string[], stdin: Buffer = Buffer.alloc(0)) {
    const calls: Array<Record<string, unknown>> = [];
    let stdout = "";
    let stderr = "";
    const code = await runCli(
      { name: "upload", version: "1.0.0", description: "", tokenEnv: null, commands: [spec], createClient: () => ({ upload: async (input: Record<string, unknown>) => (calls.push(input), { ok: true }), close() {} }) },
      args,
      { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => stdin },
    );
    return { code, calls, stdout, stderr };
  }

  it("marks the field's flag as a file flag", () => {
    expect(flags.find((f) => f.field === "file")).toMatchObject({ file: true, type: "string" });
    expect(flags.find((f) => f.field === "purpose")!.file).toBeUndefined();
  });

  it("reads @path and - (stdin) as bytes and sends them base64-encoded; other values are base64 already", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cli-file-"));
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe]);
    writeFileSync(join(dir, "doc.pdf"), bytes);
    try {
      expect((await run(["upload", "--file", `@${join(dir, "doc.pdf")}`])).calls).toEqual([{ file: bytes.toString("base64") }]);
      expect((await run(["upload", "--file", "-"], bytes)).calls).toEqual([{ file: bytes.toString("base64") }]);
      expect((await run(["upload", "--file", "AAEC"])).calls).toEqual([{ file: "AAEC" }]);
      const missing = await run(["upload", "--file", `@${join(dir, "absent.pdf")}`]);
      expect(missing.code).not.toBe(0);
      expect(missing.calls).toEqual([]);
      // An error prints nothing on stdout; its JSON is the first line of stderr.
      expect(missing.stdout).toBe("");
      expect(missing.stderr).toContain("cannot be read (ENOENT)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
